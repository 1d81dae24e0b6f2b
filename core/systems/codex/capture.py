"""Codex's capture hook: the coding-agent CLIs' comparison, with each later request predicted by its delay
(a server slower than the start-up grace joins the requests sent after it has started)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..coding_cli.capture_offer import capture_plan as coding_cli_plan

if TYPE_CHECKING:
    from ...capture.observed import ObservedCapture
    from ..contract import CapturePlan
    from .subject import CodexSubject


def capture_plan(subject: CodexSubject, capture: ObservedCapture, mode: str | None) -> CapturePlan:
    """The registry's capture hook for ``codex:DIR``."""
    return coding_cli_plan(subject, capture, mode, at=subject.evaluate_at)
