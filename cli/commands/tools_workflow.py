"""``toolscope tools CONFIG`` on a step config with several steps and no ``--step``: every step."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ...core.systems.agentworks.subject import AgentWorksSubject


def tools_workflow(
    subjects: list[AgentWorksSubject], mode: str | None, *, hidden_only: bool, wide: bool, as_json: bool
) -> None:
    """Every step's tools in one mode (resolved once: the modes are the registry's)."""
    from ..render.tools_workflow import print_workflow_human, print_workflow_json

    resolved = subjects[0].resolve_mode(mode)
    if as_json:
        print_workflow_json(subjects, resolved, hidden_only=hidden_only)
    else:
        print_workflow_human(subjects, mode, resolved, hidden_only=hidden_only, wide=wide)
