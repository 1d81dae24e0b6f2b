"""The one screen: owns the subject, the verdict state and the evaluation, and binds them down.

State lives in ``var``s (the mode, what the Pipeline shows, the state banner, the checklist)
bound to the views with ``data_bind``; the views report up with messages. Evaluations run
in a worker thread (an AgentScope toolkit's calls, a slow MCP client), so the screen keeps
drawing while they run; ``core.model.verdict_state.Evaluator`` computes them.
"""

from __future__ import annotations

import gc
from collections.abc import Callable

from textual import on
from textual.app import ComposeResult
from textual.reactive import var
from textual.screen import Screen
from textual.widgets import HelpPanel, Input, OptionList, TabPane

from ...core.model.errors import ToolscopeError
from ...core.model.subject import FollowsActiveGroups, Subject
from ...core.model.verdict_state import Evaluator, VerdictState
from ...core.model.verdicts import Checklist, Evaluation, ToolVerdict
from ...core.systems.agentworks.ids import AgentWorksInput
from ...core.text.safe_text import inert
from .. import export
from ..keys import footer_bindings
from ..options import TuiOptions
from ..rows import ModeChange, compare
from ..views import DEFAULT_VIEW, VIEWS, View, explained_absence
from ..widgets.activation.messages import AgentGroupsChanged, StateChanged
from ..widgets.checklist_view import ChecklistView
from ..widgets.footer import FittedFooter
from ..widgets.input_header import InputHeader
from ..widgets.pipeline_view import PipelineData, PipelineView
from ..widgets.state_banner import BannerState, StateBanner
from ..widgets.view_tabs import ViewTabs
from .background_evaluation import BackgroundEvaluation
from .main_keys import MAIN_BINDINGS


class MainScreen(Screen[None]):
    """Header, one tab per view, footer. Every recomputation happens here."""

    # Short terminals (60x15): the views give their list the rows (see the views' CSS).
    VERTICAL_BREAKPOINTS = [(0, "-short"), (20, "-tall")]

    HELP = "toolscope: why is a tool (not) available? Keys for the focused view are listed below."

    BINDINGS = MAIN_BINDINGS

    mode: var[str | None] = var(None)
    """The mode the verdicts are computed in (the header shows it)."""
    shown: var[PipelineData | None] = var(None)
    """The evaluation the Pipeline view shows, with what the last change moved."""
    banner: var[BannerState | None] = var(None)
    """The state line above the Pipeline grid (toolkits): which lane's groups it shows."""
    checklist: var[Checklist | None] = var(None, always_update=True)
    """The Checklist view's walkthrough (re-run in every new state)."""
    followed: var[StateChanged | None] = var(None)
    """The activation lane the Pipeline view follows (toolkits), once the view reported it."""

    def __init__(self, subject: Subject, mode: str | None, options: TuiOptions, *, picked: bool = False) -> None:
        super().__init__()
        self.subject = subject
        self.options = options
        self.picked = picked
        """Opened from the step picker: Escape, with nothing else to leave, goes back to it."""
        self.evaluator = Evaluator(subject)
        self.background = BackgroundEvaluation(self, self.evaluator)
        start = subject.resolve_mode(mode) if mode is not None else subject.default_mode
        # Before the first paint there is nothing to keep responsive: the first evaluation
        # runs here, every later one in a worker.
        self.set_reactive(MainScreen.mode, start)
        self.set_reactive(MainScreen.shown, PipelineData(self.evaluator.evaluate(VerdictState(start))))
        groups = subject.active_groups() if isinstance(subject, FollowsActiveGroups) else ()
        self.set_reactive(MainScreen.banner, BannerState(None, 0, tuple(groups)))
        self.initial_view = options.view if options.view in VIEWS else DEFAULT_VIEW

    # -- what the views read ----------------------------------------------------------------

    @property
    def evaluation(self) -> Evaluation:
        """The evaluation on screen."""
        assert self.shown is not None
        return self.shown.evaluation

    @property
    def previous(self) -> Evaluation | None:
        """The evaluation before the last change."""
        return self.shown.previous if self.shown else None

    @property
    def change(self) -> ModeChange | None:
        """What the last change moved (Δ)."""
        return self.shown.change if self.shown else None

    @property
    def verdict_state(self) -> VerdictState:
        """The mode, and the followed lane's groups once a turn moved them."""
        followed = self.followed
        groups = None if followed is None or followed.turn == 0 else followed.groups
        return VerdictState(self.mode, groups)

    def fix_for(self, tool: ToolVerdict) -> str | None:
        """The checklist's fix for one tool in the current state (the trace pane's Fix line)."""
        return self.evaluator.fix_for(tool, self.verdict_state)

    # -- layout -------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        loaded, findings = self.subject.loaded, self.subject.config_findings
        yield InputHeader(loaded, self.options.deterministic, findings, id="input-header").data_bind(MainScreen.mode)
        activation = self.options.activation_view(self.subject)
        if self.initial_view == View.ACTIVATION and activation is None:
            self.initial_view = View.PIPELINE
        with ViewTabs(initial=self.initial_view, id="views"):
            with TabPane(View.PIPELINE.tab_label, id=View.PIPELINE):
                if activation is not None:
                    yield StateBanner(id="state-banner").data_bind(state=MainScreen.banner)
                yield PipelineView(fix_for=self.fix_for, id="pipeline-view").data_bind(MainScreen.shown)
            with TabPane(View.CHECKLIST.tab_label, id=View.CHECKLIST):
                names = self.subject.all_tool_names
                yield ChecklistView(names, id="checklist-view").data_bind(MainScreen.checklist)
            if activation is not None:
                with TabPane(View.ACTIVATION.tab_label, id=View.ACTIVATION):
                    yield activation
        # Compact: at 80 columns every key of the view still fits.
        yield FittedFooter(compact=True)

    def on_mount(self) -> None:
        """First paint: the initial tool or view (the views draw from their bound state)."""
        if self.options.deterministic:
            for box in self.query(Input):
                box.cursor_blink = False
        # The subject (a universe of 50,000 tools) and its evaluation live as long as the app:
        # keep the cyclic GC from rescanning them in the middle of a keystroke. Measured by
        # benchmarks/gc_freeze_bench.py: typing a filter on 50,000 tools, the full collection
        # costs ~125 ms CPU without the freeze, ~75 ms with it (ratio 1.6).
        gc.freeze()
        # The first rows now, as part of the first paint (the binding's own first update follows
        # on the view's queue; a key pressed at once must find the rows and the focus in place).
        self.pipeline.shown = self.shown
        if self.options.tool:
            self.checklist_view.ask(self.options.tool)
        self.views.focus_view(self.initial_view)

    def on_unmount(self) -> None:
        """Hand the frozen objects back to the collector (tests run many apps per process)."""
        gc.unfreeze()

    @property
    def pipeline(self) -> PipelineView:
        """The pipeline view."""
        return self.query_one(PipelineView)

    @property
    def checklist_view(self) -> ChecklistView:
        """The checklist view."""
        return self.query_one(ChecklistView)

    @property
    def current_view(self) -> str:
        """Id of the active tab."""
        return self.views.current

    @property
    def views(self) -> ViewTabs:
        """The views, one tab each."""
        return self.query_one(ViewTabs)

    # -- recomputing (in a worker) --------------------------------------------------------

    def _put(self, evaluation: Evaluation, describe: Callable[[ModeChange], str] | None = None) -> ModeChange:
        """Put a new evaluation on screen, Δ marking what moved, ``describe`` saying it in the
        summary lines (until the next change); re-run an open checklist in the new state."""
        previous = self.evaluation
        change = compare(previous, evaluation)
        self.shown = PipelineData(evaluation, change, previous, describe(change) if describe else None)
        if self.checklist is not None:
            # Quietly: a new state never changes the view or the focus.
            self._run_checklist(self.checklist.tool, take_focus=False)
        return change

    async def set_mode(self, mode: str | None) -> ModeChange | None:
        """Recompute every verdict in ``mode`` and mark the tools that changed."""
        try:
            mode = self.subject.resolve_mode(mode)
        except ToolscopeError as exc:
            self.notify(inert(exc.render()), title="cannot switch mode", severity="error", markup=False)
            return None
        evaluation = await self.background.evaluate(VerdictState(mode, self.verdict_state.groups), "cannot switch mode")
        if evaluation is None:
            return None
        old_mode, self.mode = self.mode, mode
        # No toast: it covered the trace pane's Fix line at 80x24. The header shows the mode, the
        # Pipeline's summary lines say what changed (until the next change), the checklist its mode.
        return self._put(evaluation, lambda change: change.summary(old_mode, mode))

    async def _cycle_mode(self, step: int) -> None:
        modes = self.subject.mode_names
        if not modes:
            self.notify("This input has no modes.", severity="warning")
            return
        index = modes.index(self.mode) if self.mode in modes else -1
        await self.set_mode(modes[(index + step) % len(modes)])

    async def action_next_mode(self) -> None:
        """Switch to the next mode and show what changed."""
        await self._cycle_mode(1)

    async def action_previous_mode(self) -> None:
        """Switch to the previous mode and show what changed."""
        await self._cycle_mode(-1)

    @on(StateChanged)
    async def _follow_activation_lane(self, event: StateChanged) -> None:
        """After a turn (or undo, restart, lane switch) the pipeline shows that lane's state."""
        if self.options.follow:
            return  # following a running agent: the pipeline shows its real groups
        before, self.followed = self.followed, event
        self.banner = BannerState(event.lane, event.turn, event.groups)
        if not event.moves_from(before):
            return
        evaluation = await self.background.evaluate(self.verdict_state, "pipeline")
        if evaluation is not None:
            # "guarded lane, turn 2: 2 tools became visible" (the summary without its "mode a → b").
            self._put(evaluation, lambda change: f"{event.where}: {change.summary(None, None).split(': ', 1)[-1]}")

    @on(AgentGroupsChanged)
    async def _follow_agent(self, event: AgentGroupsChanged) -> None:
        """The pipeline follows a running agent's real active groups (``inspect --follow``)."""
        subject, groups = self.subject, event.groups
        if not isinstance(subject, FollowsActiveGroups) or tuple(subject.active_groups()) == groups:
            return
        subject.follow_active_groups(groups)
        self.evaluator.forget_fixes()
        self.banner = BannerState(None, 0, groups, agent=True)
        evaluation = await self.background.evaluate(VerdictState(self.mode), "pipeline")
        if evaluation is not None:
            self._put(evaluation)

    def _run_checklist(self, tool: str, *, take_focus: bool = True) -> None:
        try:
            self.checklist = self.evaluator.checklist(tool, self.verdict_state)
        except ToolscopeError as exc:
            self.notify(inert(exc.render()), title="checklist", severity="error", markup=False)
            return
        if take_focus:
            self.checklist_view.focus_walk()

    @on(PipelineView.ChecklistRequested)
    def _checklist_requested(self, event: PipelineView.ChecklistRequested) -> None:
        self.action_show_view(View.CHECKLIST)
        self.checklist_view.ask(event.tool)

    @on(ChecklistView.Asked)
    def _checklist_asked(self, event: ChecklistView.Asked) -> None:
        self._run_checklist(event.tool)

    # -- views and keys -------------------------------------------------------------------

    @property
    def active_bindings(self):  # Textual's dict[str, ActiveBinding]
        """The keys in force (footer and F1 list these): see ``keys.footer_bindings``."""
        return footer_bindings(super().active_bindings, box_focused=isinstance(self.focused, Input))

    @property
    def is_step_config(self) -> bool:
        """The input is an AgentWorks step config (it has no activation view, by design)."""
        return self.subject.loaded.kind == AgentWorksInput.STEP_CONFIG

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Hide the key of a view this input does not have (footer, F1 and palette follow)."""
        if action == "show_view" and parameters and not self.views.has_view(str(parameters[0])):
            return explained_absence(str(parameters[0]), self.is_step_config) is not None
        if action == "back":
            # Escape only means something when there is something to leave, close or clear.
            return bool(self.picked or self.query(HelpPanel) or self.views.can_go_back(self.focused))
        return True

    def action_show_view(self, view: str) -> None:
        """Bring a view to the front."""
        if not self.views.has_view(view):
            reason = explained_absence(view, self.is_step_config) or f"No {view} view for this input."
            self.notify(reason, title=f"no {view} view", severity="warning", timeout=10)
            return
        self.views.show(view)

    def action_back(self) -> None:
        """Escape: close the help panel; else clear the pipeline's filter (and leave its box);
        else, when the step was picked from a list and no box has the focus, back to that list
        (k9s's Escape goes up); else leave a text box for the view's main widget."""
        if self.query(HelpPanel):
            self.app.action_hide_help_panel()
            return
        if self.views.clear_pipeline_filter(self.focused):
            return
        if self.picked and not isinstance(self.focused, (Input, OptionList)):
            self.dismiss()
            return
        self.views.leave_box()

    # -- export ---------------------------------------------------------------------------

    def action_export(self) -> export.ExportPaths | None:
        """Save an SVG of the screen and a Markdown report of the current view."""
        return self.views.export(self.options, self.evaluation, self.mode, self.checklist)
