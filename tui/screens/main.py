"""The one screen: owns the subject, the mode and the evaluation, and hands them to the views."""

from __future__ import annotations

import gc
from pathlib import Path

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import HelpPanel, Input, OptionList, TabbedContent, TabPane

from toolscope.core.enums import InputKind
from toolscope.core.errors import ToolscopeError
from toolscope.core.presentation import DEFAULT_VIEW, VIEWS, View
from toolscope.core.safe_text import inert
from toolscope.core.subject import FollowsActiveGroups, StepsActivation, Subject
from toolscope.core.verdicts import Checklist, Evaluation, ToolVerdict
from toolscope.tui import export
from toolscope.tui.keys import types_into_box
from toolscope.tui.options import TuiOptions
from toolscope.tui.rows import ModeChange, compare
from toolscope.tui.widgets.activation_view import ActivationView
from toolscope.tui.widgets.checklist_view import ChecklistView
from toolscope.tui.widgets.footer import FittedFooter
from toolscope.tui.widgets.input_header import InputHeader
from toolscope.tui.widgets.pipeline_view import PipelineView
from toolscope.tui.widgets.state_banner import StateBanner
from toolscope.tui.widgets.tool_grid import ToolGrid

NO_ACTIVATION_VIEW = (
    "An AgentWorks step config has no activation view: its tools are chosen before the run "
    "(selected_servers, selected_tools, the mode's allow-list), not switched on by reset_tools "
    f"calls during it. The activation view is for AgentScope toolkits. Here: {View.PIPELINE.tab_label}, "
    f"{View.CHECKLIST.tab_label}."
)


class MainScreen(Screen[None]):
    """Header, one tab per view, footer. Every recomputation happens here."""

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

    def _checklist(self, tool: str, mode: str | None) -> Checklist:
        """The checklist in the same state as the pipeline (see ``_evaluate``)."""
        groups, subject = self._followed_groups(), self.subject
        if groups is None or not isinstance(subject, StepsActivation):
            return subject.checklist(tool, mode)
        return subject.checklist(tool, mode, active_groups=groups)

    @on(ActivationView.StateChanged)
    def _activation_state_changed(self, event: ActivationView.StateChanged) -> None:
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

    @on(PipelineView.ChecklistRequested)
    def _checklist_requested(self, event: PipelineView.ChecklistRequested) -> None:
        self.action_show_view(View.CHECKLIST)
        self.checklist_view.ask(event.tool)

    @on(ChecklistView.Asked)
    def _checklist_asked(self, event: ChecklistView.Asked) -> None:
        self._run_checklist(event.tool)

    def _run_checklist(self, tool: str, *, take_focus: bool = True) -> None:
        try:
            self.checklist = self._checklist(tool, self.mode)
        except ToolscopeError as exc:
            self.notify(inert(exc.render()), title="checklist", severity="error", markup=False)
            return
        self.checklist_view.show_checklist(self.checklist, take_focus=take_focus)

    # -- export -------------------------------------------------------------------------

    def action_export(self) -> export.ExportPaths | None:
        """Save an SVG of the screen and a Markdown report of the current view.

        Never overwrites an earlier export: the names get ``-2``, ``-3``… (see ``write_export``).
        """
        # Absolute, so the notification says exactly where the files went.
        directory = Path(self.options.export_dir).absolute()
        view = self.current_view
        stem = f"toolscope-{view}-{self.mode or 'default'}"
        stem = "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in stem)
        svg = self.app.export_screenshot(title="toolscope")
        try:
            directory.mkdir(parents=True, exist_ok=True)
            paths = export.write_export(directory, stem, svg, self._export_markdown(view))
        except OSError as exc:
            self.notify(inert(f"{directory}: {exc}"), title="export failed", severity="error", markup=False)
            return None
        message = f"Screenshot: {inert(str(paths.svg))}\nReport: {inert(str(paths.markdown))}"
        self.notify(message, title="exported", markup=False, timeout=8)
        if self.options.export_png:
            # Chromium takes a few seconds: the PNG follows in a thread, the app stays responsive.
            self.run_worker(lambda: self._export_png(svg, paths.svg.with_suffix(".png")), thread=True, name="png")
        return paths

    def _export_png(self, svg: str, target: Path) -> Path | None:
        """Write the PNG of an exported SVG beside it (never over an existing file)."""
        from toolscope.core.errors import ToolscopeError
        from toolscope.core.report.png import find_chromium, svg_to_png

        if find_chromium() is None:
            self.app.call_from_thread(
                self.notify, "no Chromium installed: SVG only (apt-get install chromium)", title="PNG", markup=False
            )
            return None
        try:
            data = svg_to_png(svg, what="PNG export")
            with open(target, "xb") as handle:
                handle.write(data)
        except (ToolscopeError, OSError) as exc:
            text = exc.render() if isinstance(exc, ToolscopeError) else f"{target}: {exc}"
            self.app.call_from_thread(
                self.notify, inert(text), title="PNG export failed", severity="error", markup=False
            )
            return None
        self.app.call_from_thread(self.notify, f"PNG: {inert(str(target))}", title="exported", markup=False)
        return target

    def _export_markdown(self, view: str) -> str:
        if view == View.CHECKLIST:
            return export.checklist_markdown(self.evaluation, self.mode, self.checklist)
        if view == View.ACTIVATION:
            return self.query_one(ActivationView).export_markdown()
        query = self.pipeline.query_state
        description = ", ".join(
            part
            for part in (
                f"filter {query.text!r}" if query.text else "",
                "only not-visible" if query.only_hidden else "",
                "only changed (Δ)" if query.only_changed else "",
                "grouped by namespace" if query.grouped else "",
            )
            if part
        )
        pipeline = self.pipeline
        return export.pipeline_markdown(
            self.evaluation,
            self.mode,
            pipeline.shown_tools(),
            description,
            pipeline.grid.selected_tool,
            pipeline.change_summary,
            pipeline.previous_verdicts,
        )
