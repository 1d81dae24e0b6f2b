"""The one screen: owns the subject, the mode and the evaluation, and hands them to the views.

This module holds the layout, the first paint and moving between views; changing the mode or
the followed state is ``evaluation_state.EvaluationState``, the export ``screen_export.ScreenExport``.
"""

from __future__ import annotations

import gc

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import HelpPanel, Input, OptionList, TabbedContent, TabPane

from ...core.model.enums import InputKind
from ...core.model.subject import FollowsActiveGroups, Subject
from ...core.model.verdicts import Checklist, Evaluation
from ..keys import types_into_box
from ..options import TuiOptions
from ..rows import ModeChange
from ..views import DEFAULT_VIEW, VIEWS, View
from ..widgets.activation.view import ActivationView
from ..widgets.checklist_view import ChecklistView
from ..widgets.footer import FittedFooter
from ..widgets.input_header import InputHeader
from ..widgets.pipeline_view import PipelineView
from ..widgets.state_banner import StateBanner
from ..widgets.tool_grid import ToolGrid
from .evaluation_state import EvaluationState
from .screen_export import ScreenExport

NO_ACTIVATION_VIEW = (
    "An AgentWorks step config has no activation view: its tools are chosen before the run "
    "(selected_servers, selected_tools, the mode's allow-list), not switched on by reset_tools "
    f"calls during it. The activation view is for AgentScope toolkits. Here: {View.PIPELINE.tab_label}, "
    f"{View.CHECKLIST.tab_label}."
)


class MainScreen(EvaluationState, ScreenExport, Screen[None]):
    """Header, one tab per view, footer. Every recomputation happens here (``EvaluationState``)."""

    # Short terminals (60x15): the views give their list the rows (see the views' CSS).
    VERTICAL_BREAKPOINTS = [(0, "-short"), (20, "-tall")]

    HELP = "toolscope: why is a tool (not) available? Keys for the focused view are listed below."

    BINDINGS = [
        Binding("m", "next_mode", "Mode", tooltip="Switch to the next mode; changed tools get Δ", id="next-mode"),
        Binding(
            "M", "previous_mode", "Previous mode", show=False, tooltip="Switch to the previous mode", id="previous-mode"
        ),
        *(Binding(view.key, f"show_view('{view}')", view.tab_title, show=False, id=f"view-{view}") for view in VIEWS),
        Binding("e", "export", "Export", tooltip="Save the screen as SVG and the view as Markdown", id="export"),
        # Shown (footer, F1) only while it does something: the help panel is open, a text box
        # or the candidate list has the focus, or the pipeline's filter holds text.
        Binding(
            "escape",
            "back",
            "Back",
            tooltip="Close the help; else clear the filter; else leave the text box",
            id="back",
        ),
    ]

    def __init__(self, subject: Subject, mode: str | None, options: TuiOptions) -> None:
        super().__init__()
        self.subject = subject
        self.options = options
        self.mode = subject.resolve_mode(mode) if mode is not None else subject.default_mode
        self.evaluation: Evaluation = subject.evaluate(self.mode)
        self.previous: Evaluation | None = None
        self.change: ModeChange | None = None
        self.checklist: Checklist | None = None
        self.activation_state: ActivationView.StateChanged | None = None
        """The activation lane the Pipeline view follows (toolkits), once the view reported it."""
        self.initial_view = options.view if options.view in VIEWS else DEFAULT_VIEW
        self._fixes: dict[tuple[str | None, tuple[str, ...] | None, str, str], str | None] = {}

    # -- layout -------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield InputHeader(id="input-header")
        activation = self.options.activation_view(self.subject)
        if self.initial_view == View.ACTIVATION and activation is None:
            self.initial_view = View.PIPELINE
        with TabbedContent(initial=self.initial_view, id="views"):
            with TabPane(View.PIPELINE.tab_label, id=View.PIPELINE):
                if activation is not None:
                    yield StateBanner(id="state-banner")
                yield PipelineView(fix_for=self.fix_for, id="pipeline-view")
            with TabPane(View.CHECKLIST.tab_label, id=View.CHECKLIST):
                yield ChecklistView(self.subject.all_tool_names, id="checklist-view")
            if activation is not None:
                with TabPane(View.ACTIVATION.tab_label, id=View.ACTIVATION):
                    yield activation
        # Compact: at 80 columns every key of the view still fits.
        yield FittedFooter(compact=True)

    def on_mount(self) -> None:
        """First paint: header, rows, and the initial tool or view."""
        if self.options.deterministic:
            for box in self.query(Input):
                box.cursor_blink = False
        self._show_header()
        for banner in self.query(StateBanner):
            subject = self.subject
            banner.show(None, 0, subject.active_groups() if isinstance(subject, FollowsActiveGroups) else ())
        # The subject (a universe of 50,000 tools), its evaluation and the view's columns live
        # as long as the app: keep the cyclic GC from rescanning them while the first screen is
        # built (a full collection there cost ~30 ms) and in the middle of a keystroke.
        gc.freeze()
        self.pipeline.show_evaluation(self.evaluation, None, None)
        gc.freeze()
        if self.options.tool:
            self.checklist_view.ask(self.options.tool)
        self._focus_view(self.initial_view)

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
        return self.query_one(TabbedContent).active or View.PIPELINE

    def _show_header(self) -> None:
        self.query_one(InputHeader).show(
            self.subject.loaded,
            self.mode,
            deterministic=self.options.deterministic,
            findings=self.subject.config_findings,
        )

    def _focus_view(self, view: str) -> None:
        if view == View.PIPELINE:
            self.query_one(ToolGrid).focus()
        elif view == View.CHECKLIST:
            target = "#walk" if self.checklist is not None else "#tool-name"
            self.checklist_view.query_one(target).focus()
        else:
            self.query_one(ActivationView).focus_main()

    # -- views --------------------------------------------------------------------------

    @property
    def active_bindings(self):  # Textual's dict[str, ActiveBinding]
        """The keys in force (footer and F1 list these): a focused text box takes printable keys
        as text, so ``q``, ``?``, ``h``… are left out while it has the focus."""
        bindings = super().active_bindings
        if isinstance(self.focused, Input):
            return {key: active for key, active in bindings.items() if not types_into_box(key)}
        # The footer shows the first key of each action: q before ctrl+q, ? before F1.
        one_key = {active.binding.action for key, active in bindings.items() if types_into_box(key)}
        later = {k: a for k, a in bindings.items() if a.binding.action in one_key and not types_into_box(k)}
        return {k: a for k, a in bindings.items() if k not in later} | later

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Hide the key of a view this input does not have (footer, F1 and palette follow)."""
        if action == "show_view" and parameters and not self.query(f"TabPane#{parameters[0]}"):
            # 3 stays a key on a step config: pressing it says why there is no activation view.
            return parameters[0] == View.ACTIVATION and self.subject.loaded.kind == InputKind.STEP_CONFIG
        if action == "back":
            # Escape only means something when there is something to leave, close or clear.
            return bool(
                self.query(HelpPanel)
                or isinstance(self.focused, (Input, OptionList))
                or (self.current_view == View.PIPELINE and self.pipeline.query_state.text)
            )
        return True

    def action_show_view(self, view: str) -> None:
        """Bring a view to the front."""
        tabs = self.query_one(TabbedContent)
        if not self.query(f"TabPane#{view}"):
            reason = (
                NO_ACTIVATION_VIEW
                if view == View.ACTIVATION and self.subject.loaded.kind == InputKind.STEP_CONFIG
                else ""
            )
            self.notify(
                reason or f"No {view} view for this input.", title=f"no {view} view", severity="warning", timeout=10
            )
            return
        tabs.active = view
        self._focus_view(view)

    def action_back(self) -> None:
        """Escape: close the help panel; else clear the pipeline's filter (and leave its box);
        else leave a text box for the view's main widget (the walk area in the checklist view)."""
        if self.query(HelpPanel):
            self.app.action_hide_help_panel()
            return
        if self.current_view == View.PIPELINE and (
            self.focused is self.pipeline.filter_box or self.pipeline.query_state.text
        ):
            self.pipeline.clear_filter_text()
            self._focus_view(View.PIPELINE)
            return
        if self.current_view == View.CHECKLIST:
            # Not ``_focus_view``: before a tool is picked that is the name box itself.
            self.checklist_view.query_one("#walk").focus()
        else:
            self._focus_view(self.current_view)

    @on(ActivationView.StateChanged)
    def _activation_state_changed(self, event: ActivationView.StateChanged) -> None:
        # Here, not in EvaluationState: Textual collects @on handlers from Textual classes only.
        self.follow_activation_lane(event)

    @on(PipelineView.ChecklistRequested)
    def _checklist_requested(self, event: PipelineView.ChecklistRequested) -> None:
        self.action_show_view(View.CHECKLIST)
        self.checklist_view.ask(event.tool)

    @on(ChecklistView.Asked)
    def _checklist_asked(self, event: ChecklistView.Asked) -> None:
        self._run_checklist(event.tool)
