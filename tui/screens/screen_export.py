"""The main screen's export (e): an SVG of the screen, a Markdown report of the current view,
and optionally a PNG rendered in a thread.

``ScreenExport`` is a mixin of ``MainScreen``, which owns the attributes it reads.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from textual.screen import Screen

from ...core.text.safe_text import inert
from .. import export
from ..views import View
from ..widgets.activation.view import ActivationView

if TYPE_CHECKING:
    from ...core.model.verdicts import Checklist, Evaluation
    from ..options import TuiOptions
    from ..widgets.pipeline_view import PipelineView

    _ScreenBase = Screen[None]
else:
    # At run time a plain mixin: MainScreen's own class chain stays Screen's.
    _ScreenBase = object

__all__ = ["ScreenExport"]


class ScreenExport(_ScreenBase):
    """The export action of ``MainScreen``."""

    if TYPE_CHECKING:
        # Set in MainScreen.__init__; the properties are MainScreen's.
        options: TuiOptions
        mode: str | None
        evaluation: Evaluation
        checklist: Checklist | None

        @property
        def pipeline(self) -> PipelineView: ...
        @property
        def current_view(self) -> str: ...

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
        from ...core.model.errors import ToolscopeError
        from ...core.report.png import find_chromium, svg_to_png

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
