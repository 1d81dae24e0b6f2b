"""The state the main screen's verdicts are computed in, and every change to it: the mode
(m / M), the followed activation lane (toolkits), a running agent's groups (``--follow``).

Each change recomputes the evaluation once, marks what changed (Δ) and redraws the pipeline
and an open checklist; the checklist and a tool's fix are computed in that same state.
``EvaluationState`` is a mixin of ``MainScreen``, which owns the attributes it reads.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.screen import Screen

from ...core.model.errors import ToolscopeError
from ...core.model.subject import FollowsActiveGroups, StepsActivation
from ...core.model.verdicts import Checklist, Evaluation, ToolVerdict
from ...core.text.safe_text import inert
from ..rows import ModeChange, compare
from ..widgets.state_banner import StateBanner

if TYPE_CHECKING:
    from ...core.model.subject import Subject
    from ..options import TuiOptions
    from ..widgets.activation.view import ActivationView
    from ..widgets.checklist_view import ChecklistView
    from ..widgets.pipeline_view import PipelineView

    _ScreenBase = Screen[None]
else:
    # At run time a plain mixin: MainScreen's own class chain stays Screen's.
    _ScreenBase = object

__all__ = ["EvaluationState"]


class EvaluationState(_ScreenBase):
    """Mode switching and state following for ``MainScreen``."""

    if TYPE_CHECKING:
        # Set in MainScreen.__init__; the properties and _show_header are MainScreen's.
        subject: Subject
        options: TuiOptions
        mode: str | None
        evaluation: Evaluation
        previous: Evaluation | None
        change: ModeChange | None
        checklist: Checklist | None
        activation_state: ActivationView.StateChanged | None
        _fixes: dict[tuple[str | None, tuple[str, ...] | None, str, str], str | None]

        @property
        def pipeline(self) -> PipelineView: ...
        @property
        def checklist_view(self) -> ChecklistView: ...
        def _show_header(self) -> None: ...

    # -- modes --------------------------------------------------------------------------

    def set_mode(self, mode: str | None) -> ModeChange | None:
        """Recompute every verdict in ``mode`` and mark the tools that changed."""
        try:
            mode = self.subject.resolve_mode(mode)
            evaluation = self._evaluate(mode)
        except ToolscopeError as exc:
            self.notify(inert(exc.render()), title="cannot switch mode", severity="error", markup=False)
            return None
        old_mode = self.mode
        self.previous, self.evaluation, self.mode = self.evaluation, evaluation, mode
        self.change = compare(self.previous, evaluation)
        # Mode names come from the config: inert before they reach the terminal.
        summary = self.change.summary(old_mode, mode)
        self._show_header()
        # The summary also stays in the pipeline's summary lines until the next switch.
        self.pipeline.show_evaluation(evaluation, self.change, self.previous, summary)
        if self.checklist is not None:
            # Quietly: a mode switch never changes the view or the focus.
            self._run_checklist(self.checklist.tool, take_focus=False)
        self.notify(inert(summary, single_line=True), title="mode switched", markup=False)
        return self.change

    def _cycle_mode(self, step: int) -> None:
        modes = self.subject.mode_names
        if not modes:
            self.notify("This input has no modes.", severity="warning")
            return
        index = modes.index(self.mode) if self.mode in modes else -1
        self.set_mode(modes[(index + step) % len(modes)])

    def action_next_mode(self) -> None:
        """Switch to the next mode and show what changed."""
        self._cycle_mode(1)

    def action_previous_mode(self) -> None:
        """Switch to the previous mode and show what changed."""
        self._cycle_mode(-1)

    # -- the followed state -------------------------------------------------------------

    def _followed_groups(self) -> tuple[str, ...] | None:
        """The followed activation lane's groups once a turn moved it; None: the input's own state."""
        state = self.activation_state
        return None if state is None or state.turn == 0 else state.groups

    def _evaluate(self, mode: str | None) -> Evaluation:
        """Verdicts in ``mode``, in the followed activation lane's state once it left the initial one."""
        groups, subject = self._followed_groups(), self.subject
        if groups is None or not isinstance(subject, StepsActivation):
            return subject.evaluate(mode)
        return subject.evaluate(mode, active_groups=groups)

    def follow_activation_lane(self, event: ActivationView.StateChanged) -> None:
        """After a turn (or undo, restart, lane switch) the pipeline shows that lane's state."""
        if self.options.follow:
            return  # following a running agent: the pipeline shows its real groups (``follow_groups``)
        before = self.activation_state
        self.activation_state = event
        self.query_one(StateBanner).show(event.lane, event.turn, event.groups)
        if before is None and event.turn == 0:
            return  # the initial state: already shown
        if before is not None and (before.lane, before.turn, before.groups) == (event.lane, event.turn, event.groups):
            return
        try:
            evaluation = self._evaluate(self.mode)
        except ToolscopeError as exc:
            self.notify(inert(exc.render()), title="pipeline", severity="error", markup=False)
            return
        self.previous, self.evaluation = self.evaluation, evaluation
        # Δ marks the tools the turn changed, as a mode switch does.
        self.change = compare(self.previous, evaluation)
        # "guarded lane, turn 2: 2 tools became visible" (the summary without its "mode a → b").
        moved = self.change.summary(self.mode, self.mode).split(": ", 1)[-1]
        where = f"{event.lane} lane, turn {event.turn}" if event.turn else "back to the initial state"
        self.pipeline.show_evaluation(evaluation, self.change, self.previous, f"{where}: {moved}")
        if self.checklist is not None:
            self._run_checklist(self.checklist.tool, take_focus=False)

    def follow_groups(self, groups: tuple[str, ...]) -> None:
        """The pipeline follows a running agent's real active groups (``inspect --follow``)."""
        subject = self.subject
        if not isinstance(subject, FollowsActiveGroups) or tuple(subject.active_groups()) == tuple(groups):
            return
        subject.follow_active_groups(groups)
        for banner in self.query(StateBanner):
            banner.show_agent(groups)
        self.previous, self.evaluation = self.evaluation, self.subject.evaluate(self.mode)
        self.change = compare(self.previous, self.evaluation)
        self.pipeline.show_evaluation(self.evaluation, self.change, self.previous)

    # -- checklists in the same state ------------------------------------------------------

    def _checklist(self, tool: str, mode: str | None) -> Checklist:
        """The checklist in the same state as the pipeline (see ``_evaluate``)."""
        groups, subject = self._followed_groups(), self.subject
        if groups is None or not isinstance(subject, StepsActivation):
            return subject.checklist(tool, mode)
        return subject.checklist(tool, mode, active_groups=groups)

    def fix_for(self, tool: ToolVerdict) -> str | None:
        """The checklist's fix for one tool in the current mode (cached: the cursor comes back)."""
        key = (self.mode, self._followed_groups(), tool.namespace, tool.name)
        if key not in self._fixes:
            try:
                # ``namespace:name`` picks this very tool when two namespaces share the name.
                checklist = self._checklist(f"{tool.namespace}:{tool.name}", self.mode)
                if checklist.verdict is None:
                    checklist = self._checklist(tool.name, self.mode)
            except ToolscopeError:
                checklist = None
            self._fixes[key] = checklist.fix if checklist is not None else None
        return self._fixes[key]

    def _run_checklist(self, tool: str, *, take_focus: bool = True) -> None:
        try:
            self.checklist = self._checklist(tool, self.mode)
        except ToolscopeError as exc:
            self.notify(inert(exc.render()), title="checklist", severity="error", markup=False)
            return
        self.checklist_view.show_checklist(self.checklist, take_focus=take_focus)
