"""The pipeline view: filter box, summary line, the virtualized tool grid and the trace pane."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import Input, Static

from ...core.model.enums import Verdict
from ...core.model.presentation import MARK
from ...core.model.verdicts import Evaluation, ToolVerdict
from ..palette import palette_for
from ..rows import (
    ModeChange,
    PreviousVerdicts,
    RowIndex,
    RowList,
    RowQuery,
    ToolKey,
    tool_key,
)
from .grid_layout import GridLayout
from .pipeline_summary import summary_text
from .safe_input import safe_input
from .tool_detail import ToolDetail
from .tool_grid import ToolGrid


@dataclass(frozen=True, eq=False)
class PipelineData:
    """What the screen hands the Pipeline view: an evaluation and how it got there.

    Compared by identity: each change is a new object (comparing 50,000 verdicts is no
    part of a keystroke).
    """

    evaluation: Evaluation
    change: ModeChange | None = None
    """The tools the last change moved (Δ)."""
    previous: Evaluation | None = None
    """The evaluation before that change."""
    change_summary: str | None = None
    """What the change did, in words (kept in the summary lines until the next change)."""


class PipelineView(Vertical):
    """Owns the view-local query (filter text, only-hidden, grouping); the screen owns the data."""

    HELP = (
        f"Every tool, one row each, with a column per gate ({MARK[True]} pass, {MARK[False]} fail, {MARK[None]} unknown). "
        "Rows marked ! are registered but hidden; Δ marks tools whose verdict changed with the mode."
    )

    BINDINGS = [
        Binding(
            "slash",
            "focus_filter",
            "Filter",
            tooltip="Filter by name, namespace, namespace:name, verdict or deciding stage (Enter keeps it)",
            id="filter",
        ),
        Binding("h", "toggle_hidden", "Hidden", tooltip="Only tools that are not visible (toggle)", id="only-hidden"),
        Binding("g", "toggle_grouped", "Group", tooltip="Group rows by namespace (toggle)", id="group-by-namespace"),
        Binding(
            "c", "checklist_for_selected", "Checklist", tooltip="The selected tool's checklist", id="checklist-selected"
        ),
        # After a mode switch: the changed (Δ) rows, like vim's ]c / [c between changes.
        Binding("right_square_bracket", "jump_changed(1)", "Next Δ", tooltip="Next changed (Δ) row", id="next-changed"),
        Binding(
            "left_square_bracket",
            "jump_changed(-1)",
            "Previous Δ",
            show=False,
            tooltip="Previous changed (Δ) row",
            id="previous-changed",
        ),
        Binding(
            "d",
            "toggle_changed",
            "Only Δ",
            show=False,
            tooltip="Only the changed (Δ) tools (toggle)",
            id="only-changed",
        ),
    ]

    DEFAULT_CSS = """
    PipelineView { height: 1fr; }
    PipelineView > #filter { border: none; height: 1; padding: 0 1; background: $boost; }
    PipelineView > #filter:focus { background: $primary 30%; }
    PipelineView > #summary { height: auto; max-height: 3; padding: 0 1; text-wrap: nowrap; text-overflow: ellipsis; }
    /* The grid gets most of the height: on a small terminal the trace pane shrinks first. */
    PipelineView > #detail-scroll { height: 38%; min-height: 4; max-height: 13; border-top: solid $primary; }
    /* Focused, the trace pane's rule turns heavy and accent-coloured (visible without colour too). */
    PipelineView > #detail-scroll:focus { border-top: heavy $accent; }
    """

    class ChecklistRequested(Message):
        """The user wants the checklist walkthrough for this tool."""

        def __init__(self, tool: str) -> None:
            self.tool = tool
            super().__init__()

    shown: reactive[PipelineData | None] = reactive(None, init=False)
    """Bound to the screen's: the evaluation to show."""

    def __init__(self, *, fix_for: Callable[[ToolVerdict], str | None] | None = None, id: str | None = None) -> None:
        super().__init__(id=id)
        self.fix_for = fix_for
        """The fix for a tool that is not visible (from the screen's checklist), for the trace pane."""
        self.query_state = RowQuery()
        self._drawn: PipelineData | None = None
        self.change_summary: str | None = None
        self.evaluation: Evaluation | None = None
        self.change: ModeChange | None = None
        self.previous_verdicts: Mapping[ToolKey, str] = {}
        """Verdicts before the last change (empty when it changed none)."""
        self.rows: RowList = RowList.empty()
        self._index: RowIndex | None = None
        self._layout: GridLayout | None = None
        self._alerts: Sequence[ToolVerdict] = ()
        self._counts: dict[str, int] = {}
        self._offered: int | None = None

    def compose(self) -> ComposeResult:
        yield safe_input(placeholder=filter_placeholder(()), id="filter")
        yield Static(id="summary")
        yield ToolGrid(id="grid")
        with VerticalScroll(id="detail-scroll"):
            yield ToolDetail(id="detail")

    @property
    def grid(self) -> ToolGrid:
        """The tool grid."""
        return self.query_one(ToolGrid)

    def watch_shown(self, data: PipelineData | None) -> None:
        """New data from the screen (first load, a mode switch, a followed lane's turn)."""
        # The screen draws the first data itself (first paint); the binding then hands it over again.
        if data is not None and data is not self._drawn:
            self._drawn = data
            self.show_evaluation(data.evaluation, data.change, data.previous, data.change_summary)

    def show_evaluation(
        self,
        evaluation: Evaluation,
        change: ModeChange | None,
        previous: Evaluation | None,
        change_summary: str | None = None,
    ) -> None:
        """New data from the screen (first load or a mode switch, with the switch's summary)."""
        self.evaluation = evaluation
        self.change = change
        self.change_summary = change_summary
        # Nothing here looks at every tool's verdict: rows, counts and widths come from the
        # evaluation's columns, and a verdict is built when its row is painted or selected.
        self.previous_verdicts = (
            PreviousVerdicts(previous) if previous is not None and change and change.changed else {}
        )
        self._index = RowIndex(evaluation, change.changed if change else frozenset())
        table = self._index.table
        self._layout = GridLayout.measure(evaluation.stage_names, table.names, table.namespaces)
        self.query_one("#filter", Input).placeholder = filter_placeholder(evaluation.stage_names)
        self._alerts = self._index.alerts()
        # Once per evaluation: counting 50,000 verdicts on every keystroke costs ~40 ms.
        self._counts = evaluation.counts()
        self._offered = evaluation.offered_count()
        self.refresh_rows()
        self.refresh_bindings()  # the Δ keys come and go with the changes

    def refresh_rows(self) -> None:
        """Re-select rows for the current query and redraw the grid and summary."""
        if self._index is None or self.evaluation is None or self._layout is None:
            return
        self.rows = self._index.select(self.query_state)
        changed = self.change.changed if self.change else frozenset()
        self.grid.show_rows(self.rows, self._layout, changed)
        self.fit_heights()
        self.query_one("#summary", Static).update(
            summary_text(
                self._counts,
                self.rows.tool_count,
                self.query_state,
                self._alerts,
                self.change_summary,
                palette_for(self.app),
                offered=self._offered,
            )
        )

    def on_resize(self) -> None:
        """A new height: the grid and the trace pane share it again."""
        self.fit_heights()

    def fit_heights(self) -> None:
        """A grid shorter than its share gives the rest to the trace pane.

        By default the trace pane takes 38% of the height, at most 13 rows, and the grid the
        rest: at 200x60 the seed's 23 tools left 15 empty rows while the trace was cut. Sized
        for every tool (not the filtered rows), so typing a filter never moves the pane.
        """
        grid, detail = self.grid, self.query_one("#detail-scroll")
        if not self.size.height or self.screen.has_class("-short"):
            needed = None
        else:
            tools = sum(self._counts.values())
            needed = max(len(self.rows), tools) + 1  # the header row
            others = sum(child.outer_size.height for child in self.children if child not in (grid, detail))
            default_detail = min(max(round(self.size.height * 0.38), 4), 13)
            if needed + default_detail + others > self.size.height:
                needed = None
        if needed is None:
            grid.styles.clear_rule("height")
            detail.styles.clear_rule("height")
            detail.styles.clear_rule("max_height")
        else:
            grid.styles.height = needed
            detail.styles.height = "1fr"
            detail.styles.max_height = "100%"  # over the CSS cap of 13 rows

    def shown_tools(self) -> list[ToolVerdict]:
        """The tools the current query shows, in display order (for the export: builds them all)."""
        return self.rows.tools()

    def set_query(self, query: RowQuery) -> None:
        """Apply a new query (used by keys, the palette and tests)."""
        if query != self.query_state:
            self.query_state = query
            self.refresh_rows()

    @on(Input.Changed, "#filter")
    def _filter_changed(self, event: Input.Changed) -> None:
        self.set_query(replace(self.query_state, text=event.value))

    @on(Input.Submitted, "#filter")
    def _filter_done(self) -> None:
        self.grid.focus()

    @on(ToolGrid.Highlighted)
    def _tool_highlighted(self, event: ToolGrid.Highlighted) -> None:
        tool = event.tool
        previous = self.previous_verdicts.get(tool_key(tool)) if tool is not None else None
        fix = self.fix_for(tool) if tool is not None and tool.verdict != Verdict.VISIBLE and self.fix_for else None
        self.query_one(ToolDetail).show_tool(tool, previous, fix, palette_for(self.app))
        self.query_one("#detail-scroll", VerticalScroll).scroll_home(animate=False)

    def action_focus_filter(self) -> None:
        """Jump to the filter box."""
        self.query_one("#filter", Input).focus()

    @property
    def filter_box(self) -> Input:
        """The filter text box."""
        return self.query_one("#filter", Input)

    def clear_filter_text(self) -> None:
        """Empty the filter box; the only-hidden / grouping toggles stay as they are."""
        self.filter_box.value = ""
        self.set_query(replace(self.query_state, text=""))

    def clear_filter(self) -> None:
        """Empty the filter box and drop the toggles: every tool again."""
        self.query_one("#filter", Input).value = ""
        self.set_query(RowQuery())

    def action_toggle_hidden(self) -> None:
        """Show only tools that are not visible, or everything."""
        self.set_query(replace(self.query_state, only_hidden=not self.query_state.only_hidden))

    def action_toggle_grouped(self) -> None:
        """Group rows by namespace / group, or not."""
        self.set_query(replace(self.query_state, grouped=not self.query_state.grouped))

    def action_toggle_changed(self) -> None:
        """Show only the tools whose verdict changed with the last mode switch, or everything."""
        self.set_query(replace(self.query_state, only_changed=not self.query_state.only_changed))

    def action_jump_changed(self, direction: int) -> None:
        """Select the next (1) or previous (-1) changed row."""
        if not self.grid.jump_changed(direction):
            self.notify("No changed (Δ) row shown: switch the mode with m first.", severity="warning")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The Δ keys only show (footer, F1) once a mode switch changed a verdict."""
        if action in ("jump_changed", "toggle_changed"):
            return bool(self.change and self.change.changed) or self.query_state.only_changed
        return True

    def action_checklist_for_selected(self) -> None:
        """Open the checklist view on the selected tool."""
        tool = self.grid.selected_tool
        if tool is not None:
            self.post_message(self.ChecklistRequested(tool.name))


def filter_placeholder(stage_names: Sequence[str]) -> str:
    """The filter's hint, its stage example one of the input's own later gates (``allow-listed`` for a
    step config, ``offered`` for a toolkit, ``approval`` for Claude Code)."""
    from ...core.systems.registry import stage_titles

    example = stage_titles().get(stage_names[1], stage_names[1]) if len(stage_names) > 1 else "allow-listed"
    return f"/ filter: name, ns:tool, verdict or stage (e.g. hidden, {example})"
