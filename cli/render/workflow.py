"""What every whole-workflow answer (check, tools, explain without --step) starts with."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ...core.systems.agentworks.subject import AgentWorksSubject


def workflow_label(subjects: Sequence[AgentWorksSubject]) -> str:
    """``AgentWorks step config steps.json · 23 steps · registry toolscope.registry.yaml``."""
    first = subjects[0]
    return (
        f"AgentWorks step config {first.step.file_name} · {len(subjects)} steps · "
        f"registry {first.world.registry_doc.name}"
    )
