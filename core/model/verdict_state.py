"""The state a front end's verdicts are computed in, and what is computed in it.

A ``VerdictState`` is a mode plus, for AgentScope toolkits, the active groups of the
activation lane the user follows (None: the input's own state). An ``Evaluator`` computes
one subject's evaluation, checklists and fixes in such a state. It holds no front-end
state: the TUI's screen owns the current ``VerdictState`` and asks.

The subject may do slow work on a first evaluation (an AgentScope toolkit runs its calls on
the shared loop, an MCP client may answer slowly), so front ends that must stay responsive
call ``evaluate`` from a worker thread.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import ToolscopeError
from .subject import EvaluatesActiveGroups, Subject
from .verdicts import Checklist, Evaluation, ToolVerdict

__all__ = ["Evaluator", "VerdictState"]


@dataclass(frozen=True)
class VerdictState:
    """The mode and the followed groups the verdicts are computed in."""

    mode: str | None
    groups: tuple[str, ...] | None = None
    """The followed activation lane's active groups once a turn moved them; None: the input's own."""


class Evaluator:
    """One subject's evaluations, checklists and fixes in a ``VerdictState``."""

    def __init__(self, subject: Subject) -> None:
        self.subject = subject
        # The trace pane asks for the selected tool's fix on every cursor move: one checklist
        # per tool and state is enough (the subject's own caches are per evaluation).
        self._fixes: dict[tuple[VerdictState, str, str], str | None] = {}

    def evaluate(self, state: VerdictState) -> Evaluation:
        """Every tool's verdict in ``state``."""
        subject = self.subject
        if state.groups is None or not isinstance(subject, EvaluatesActiveGroups):
            return subject.evaluate(state.mode)
        return subject.evaluate(state.mode, active_groups=state.groups)

    def checklist(self, tool: str, state: VerdictState) -> Checklist:
        """The checklist for ``tool`` in ``state`` (the same state as ``evaluate``)."""
        subject = self.subject
        if state.groups is None or not isinstance(subject, EvaluatesActiveGroups):
            return subject.checklist(tool, state.mode)
        return subject.checklist(tool, state.mode, active_groups=state.groups)

    def fix_for(self, tool: ToolVerdict, state: VerdictState) -> str | None:
        """The checklist's fix for one tool in ``state`` (None: no fix, or no checklist)."""
        key = (state, tool.namespace, tool.name)
        if key not in self._fixes:
            try:
                # ``namespace:name`` picks this very tool when two namespaces share the name.
                checklist = self.checklist(f"{tool.namespace}:{tool.name}", state)
                if checklist.verdict is None:
                    checklist = self.checklist(tool.name, state)
            except ToolscopeError:
                checklist = None
            self._fixes[key] = checklist.fix if checklist is not None else None
        return self._fixes[key]

    def forget_fixes(self) -> None:
        """Drop the cached fixes (the subject's own state moved: a followed agent's groups)."""
        self._fixes.clear()
