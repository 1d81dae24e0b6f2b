"""The views as tabs: which one is in front, where the focus goes in each (and back on Escape),
and the export of the one in front (an SVG of the screen and a Markdown report of the view)."""

from __future__ import annotations

from pathlib import Path

from textual import work
from textual.widget import Widget
from textual.widgets import Input, OptionList, TabbedContent

from ...core.model.verdicts import Checklist, Evaluation
from ...core.text.safe_text import inert
from .. import export
from ..options import TuiOptions
from ..views import View
from .activation.view import ActivationView
from .checklist_view import ChecklistView
from .pipeline_view import PipelineView
from .tool_grid import ToolGrid


class ViewTabs(TabbedContent):
    """One tab per view the input has (a step config has no activation view)."""

    @property
    def current(self) -> str:
        """Id of the view in front."""
        return self.active or View.PIPELINE

    def has_view(self, view: str) -> bool:
        """Whether this input has ``view``."""
        return bool(self.query(f"TabPane#{view}"))

    def show(self, view: str) -> None:
        """Bring ``view`` to the front and focus it."""
        self.active = view
        self.focus_view(view)

    def focus_view(self, view: str) -> None:
        """Focus the view's main widget (the grid, the walkthrough or the name box, the toggles)."""
        if view == View.PIPELINE:
            self.query_one(ToolGrid).focus()
        elif view == View.CHECKLIST:
            checklist_view = self.query_one(ChecklistView)
            target = "#walk" if checklist_view.checklist is not None else "#tool-name"
            checklist_view.query_one(target).focus()
        else:
            self.query_one(ActivationView).focus_main()

    def can_go_back(self, focused: Widget | None) -> bool:
        """Whether Escape has something to leave or clear: a text box or list has the focus,
        or the pipeline's filter holds text."""
        pipeline_filtered = self.current == View.PIPELINE and bool(self.query_one(PipelineView).query_state.text)
        return isinstance(focused, (Input, OptionList)) or pipeline_filtered

    def clear_pipeline_filter(self, focused: Widget | None) -> bool:
        """Escape in the pipeline view with its filter in use: clear it and leave its box
        (whether it did)."""
        pipeline = self.query_one(PipelineView)
        if self.current != View.PIPELINE or not (focused is pipeline.filter_box or pipeline.query_state.text):
            return False
        pipeline.clear_filter_text()
        self.focus_view(View.PIPELINE)
        return True

    def leave_box(self) -> None:
        """Escape otherwise: the focus goes to the view's main widget (the walk area in the
        checklist view)."""
        if self.current == View.CHECKLIST:
            # Not ``focus_view``: before a tool is picked that is the name box itself.
            self.query_one(ChecklistView).query_one("#walk").focus()
        else:
            self.focus_view(self.current)

    def export(
        self, options: TuiOptions, evaluation: Evaluation, mode: str | None, checklist: Checklist | None
    ) -> export.ExportPaths | None:
        """Save an SVG of the screen and a Markdown report of the view in front.

        Never overwrites an earlier export: the names get ``-2``, ``-3``… (see ``write_export``).
        """
        # Absolute, so the notification says exactly where the files went.
        directory = Path(options.export_dir).absolute()
        view = self.current
        svg = self.app.export_screenshot(title="toolscope")
        try:
            directory.mkdir(parents=True, exist_ok=True)
            markdown = self._markdown(view, evaluation, mode, checklist)
            paths = export.write_export(directory, export.export_stem(view, mode), svg, markdown)
        except OSError as exc:
            self.notify(inert(f"{directory}: {exc}"), title="export failed", severity="error", markup=False)
            return None
        message = f"Screenshot: {inert(str(paths.svg))}\nReport: {inert(str(paths.markdown))}"
        self.notify(message, title="exported", markup=False, timeout=8)
        if options.export_png:
            # Chromium takes a few seconds: the PNG follows in a worker, the app stays responsive.
            self._export_png(svg, paths.svg.with_suffix(".png"))
        return paths

    @work(thread=True, exit_on_error=False, group="png")
    def _export_png(self, svg: str, target: Path) -> Path | None:
        """Write the PNG of an exported SVG beside it (never over an existing file)."""
        outcome = export.write_png(svg, target)
        notify = self.notify
        self.app.call_from_thread(
            notify, inert(outcome.message), title=outcome.title, severity=outcome.severity, markup=False
        )
        return outcome.path

    def _markdown(self, view: str, evaluation: Evaluation, mode: str | None, checklist: Checklist | None) -> str:
        if view == View.CHECKLIST:
            return export.checklist_markdown(evaluation, mode, checklist)
        if view == View.ACTIVATION:
            return self.query_one(ActivationView).export_markdown()
        pipeline = self.query_one(PipelineView)
        return export.pipeline_markdown(
            evaluation,
            mode,
            pipeline.shown_tools(),
            export.query_description(pipeline.query_state),
            pipeline.grid.selected_tool,
            pipeline.change_summary,
            pipeline.previous_verdicts,
        )
