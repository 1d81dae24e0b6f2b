"""What ``explain`` and ``check`` answer besides verdicts: the checklist for one tool, ending at a
concrete fix, and findings (an invariant that does not hold, an expectation that failed)."""

from __future__ import annotations

from dataclasses import dataclass

from .enums import FindingKind, Severity, Verdict
from .tool_verdict import ToolVerdict


@dataclass(frozen=True)
class ChecklistStep:
    """One question of the "agent says it doesn't have tool X" checklist."""

    question: str
    answer: str
    """Short answer: yes, no, unknown, n/a."""
    passed: bool | None
    evidence: tuple[str, ...] = ()


@dataclass(frozen=True)
class Checklist:
    """The walkthrough for one tool name, ending at a concrete fix."""

    tool: str
    mode: str | None
    verdict: ToolVerdict | None
    """None when the name is not in the universe at all."""
    steps: tuple[ChecklistStep, ...]
    fix: str | None
    """The concrete fix (exact entry, list, file), or None when visible."""
    did_you_mean: tuple[str, ...] = ()

    @property
    def outcome(self) -> Verdict:
        """visible / hidden / unknown; a name outside the universe is unknown."""
        return self.verdict.verdict if self.verdict else Verdict.UNKNOWN


@dataclass(frozen=True)
class Finding:
    """One result of ``check``: an invariant that does not hold, or an expectation that failed."""

    kind: FindingKind
    message: str
    tool: str | None = None
    entry: str | None = None
    source: str | None = None
    severity: Severity = Severity.ERROR
