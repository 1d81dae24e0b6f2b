"""The virtualized per-tool table: renders only the rows on screen (Line API).

A DataTable with 50,000 rows takes seconds to build; this widget keeps the rows as a
plain list and draws each visible line on demand in ``render_line``.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from textual.binding import Binding
from textual.events import Click
from textual.geometry import Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from ...core.model.attention import ALERT_MARK, BY_DESIGN_MARK
from ...core.model.enums import Verdict
from ...core.model.presentation import MARK, NOT_REACHED, VERDICT_LABEL
from ...core.model.verdicts import Stage, ToolVerdict
from ...core.systems.registry import STAGE_TITLES
from ...core.text.safe_text import inert
from ..palette import palette_for
from ..rows import (
    GroupRow,
    RowList,
    ToolKey,
    count_of,
    is_hidden_by_design,
    is_registered_but_hidden,
    tool_key,
)
from .grid_layout import MARKS_WIDTH, VERDICT_WIDTH, WITH_STAGE_TITLE, GridLayout, column, fit, short_title

_DIM = Style(dim=True)
_BOLD = Style(bold=True)


class ToolGrid(ScrollView, can_focus=True):
    """One line per tool: marks, name, namespace, a ✓/✗/? per stage, verdict, deciding rule."""

    HELP = "Move with ↑/↓ (or j/k), PgUp/PgDn, Home/End. The selected tool's trace is below."

    BINDINGS = [
        Binding("up,k", "cursor(-1)", "Up", show=False, id="grid-up"),
        Binding("down,j", "cursor(1)", "Down", show=False, id="grid-down"),
        Binding("pageup", "page(-1)", "Page up", show=False, id="grid-page-up"),
        Binding("pagedown", "page(1)", "Page down", show=False, id="grid-page-down"),
        Binding("home", "jump(0)", "First", show=False, id="grid-first"),
        Binding("end", "jump(-1)", "Last", show=False, id="grid-last"),
    ]

    COMPONENT_CLASSES = {
        "tool-grid--header",
        "tool-grid--cursor",
        "tool-grid--group",
        "tool-grid--alert",
        "tool-grid--changed",
    }

    # The cursor row is drawn in one colour pair (marks keep their shape and bold): green or
    # red marks on the cursor colour were unreadable (1.2:1). Focused, the header row turns
    # to the accent colour too, so the focused pane is visible without colour (reverse).
    DEFAULT_CSS = """
    ToolGrid { height: 1fr; overflow-x: hidden; }
    ToolGrid > .tool-grid--header { text-style: bold; background: $panel; }
    ToolGrid:focus > .tool-grid--header { text-style: bold reverse; }
    ToolGrid > .tool-grid--cursor { background: $accent 30%; color: $foreground; text-style: bold; }
    ToolGrid:focus > .tool-grid--cursor { background: $accent; color: auto 100%; text-style: bold; }
    ToolGrid > .tool-grid--group { text-style: bold; color: $text-muted; }
    ToolGrid > .tool-grid--alert { background: $error-muted; }
    ToolGrid > .tool-grid--changed { text-style: italic; }
    """

    class Highlighted(Message):
        """The cursor moved to a tool (or to no tool)."""

        def __init__(self, tool: ToolVerdict | None) -> None:
            self.tool = tool
            super().__init__()

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.rows: RowList = RowList.empty()
        self.layout_: GridLayout = GridLayout((), 5, 10)
        self.changed: frozenset[ToolKey] = frozenset()
        self.cursor = 0
        self._changed_rows: list[int] | None = None

    # -- data -------------------------------------------------------------------------

    def show_rows(self, rows: RowList, layout: GridLayout, changed: frozenset[ToolKey]) -> None:
        """Replace the rows; keeps the selected tool selected when it is still shown."""
        position = self._position_in(rows)
        self.rows = rows
        self.layout_ = layout
        self.changed = changed
        self._changed_rows = None
        self.cursor = position if position is not None else 0
        self.cursor = self._nearest_tool_row(self.cursor, 1) or 0
        self._update_virtual_size()
        self._scroll_cursor_into_view()
        self.refresh()
        self.post_message(self.Highlighted(self.selected_tool))

    def _position_in(self, rows: RowList) -> int | None:
        """Where the selected tool is in ``rows``: the same tool, else (after a mode switch) the
        first with its namespace and name; None when it is not shown there."""
        old = self.rows
        selected = old.tool_index(self.cursor)
        if selected is None or old.table is None:
            return None
        if rows.table is old.table:
            return rows.position_of(selected)
        return rows.position_of_key(old.table.key(selected))

    @property
    def selected_tool(self) -> ToolVerdict | None:
        """The tool under the cursor."""
        if self.rows.tool_index(self.cursor) is None:
            return None
        row = self.rows[self.cursor]
        return row if isinstance(row, ToolVerdict) else None

    # -- movement ---------------------------------------------------------------------

    def _tool_row_from(self, start: int, step: int) -> int | None:
        """The first tool row at or after ``start`` going in direction ``step`` (None: only headings)."""
        index = start
        while 0 <= index < len(self.rows):
            if self.rows.is_tool(index):
                return index
            index += step
        return None

    def _nearest_tool_row(self, index: int, step: int) -> int | None:
        """A tool row near ``index``: onwards in direction ``step``, else back the other way.

        Headings are never selected: moving up from the first tool of the first group stays on it.
        """
        found = self._tool_row_from(index, step)
        return found if found is not None else self._tool_row_from(index, -step)

    def move_to(self, index: int, step: int = 1) -> None:
        """Put the cursor on row ``index`` (skipping headings in direction ``step``)."""
        if not self.rows:
            return
        index = max(0, min(index, len(self.rows) - 1))
        target = self._nearest_tool_row(index, step)
        if target is not None and target != self.cursor:
            self.cursor = target
            self._scroll_cursor_into_view()
            self.refresh()
            self.post_message(self.Highlighted(self.selected_tool))

    def changed_rows(self) -> list[int]:
        """Indices of the rows marked Δ, in display order (computed on first use per set of rows)."""
        if self._changed_rows is None:
            table = self.rows.table
            changed = table.indices_of(self.changed) if table is not None and self.changed else frozenset()
            self._changed_rows = self.rows.positions_of(changed) if changed else []
        return self._changed_rows

    def jump_changed(self, direction: int) -> bool:
        """Move to the next (1) or previous (-1) Δ row, wrapping around; False when there is none."""
        rows = self.changed_rows()
        if not rows:
            return False
        after = bisect.bisect_right(rows, self.cursor) if direction > 0 else bisect.bisect_left(rows, self.cursor) - 1
        self.move_to(rows[after % len(rows)], direction)
        return True

    def action_cursor(self, delta: int) -> None:
        """Move the cursor by ``delta`` rows."""
        self.move_to(self.cursor + delta, 1 if delta > 0 else -1)

    def action_page(self, direction: int) -> None:
        """Move the cursor by a screenful."""
        self.action_cursor(direction * max(self._visible_rows - 1, 1))

    def action_jump(self, index: int) -> None:
        """First (0) or last (-1) row."""
        self.move_to(len(self.rows) - 1 if index < 0 else 0, -1 if index < 0 else 1)

    @property
    def _visible_rows(self) -> int:
        """Rows on screen below the header: the content region, scrollbars excluded."""
        return max(self.scrollable_content_region.height - 1, 1)

    def _scroll_cursor_into_view(self) -> None:
        visible = self._visible_rows
        top = int(self.scroll_y)
        if self.cursor < top:
            self.scroll_to(y=self.cursor, animate=False, immediate=True)
        elif self.cursor >= top + visible:
            self.scroll_to(y=self.cursor - visible + 1, animate=False, immediate=True)

    def on_click(self, event: Click) -> None:
        """Select the clicked row."""
        if event.y >= 1:
            self.move_to(int(self.scroll_y) + event.y - 1)

    def on_resize(self) -> None:
        """Keep the virtual width in step with the widget, and the cursor on screen."""
        self._update_virtual_size()
        self._scroll_cursor_into_view()

    def _update_virtual_size(self) -> None:
        # Header line + one line per row. The width is that of the content region (the
        # vertical scrollbar excluded): as wide as the widget, it made a horizontal
        # scrollbar appear that covered the last visible row.
        self.virtual_size = Size(self.scrollable_content_region.width, len(self.rows) + 1)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """No sideways scrolling: the rows always fit the width (hidden from F1 too)."""
        if action in ("scroll_left", "scroll_right", "page_left", "page_right"):
            return False
        return True

    # -- rendering --------------------------------------------------------------------

    def render_line(self, y: int) -> Strip:
        """Line 0 is the column header; the others are rows from the scroll offset."""
        width = self.scrollable_content_region.width
        if y == 0:
            return self._header_strip(width)
        index = int(self.scroll_y) + y - 1
        if index >= len(self.rows):
            return Strip.blank(width, self.rich_style)
        row = self.rows[index]
        if isinstance(row, GroupRow):
            base = self.get_component_rich_style("tool-grid--group")
            text = f"▼ {inert(row.namespace, single_line=True)}  ({count_of(row.total, 'tool')}, {row.hidden:,} not visible)"
            return Strip([Segment(fit(text, width), base)], width)
        return self._tool_strip(row, index, width)

    def _header_strip(self, width: int) -> Strip:
        style = self.get_component_rich_style("tool-grid--header")
        layout = self.layout_.fitted(width)
        text = " " * MARKS_WIDTH + column("tool", layout.name_width) + column("namespace", layout.namespace_width)
        for name in layout.stage_names:
            text += fit(short_title(name), layout.stage_width(name))
        text += fit("verdict", VERDICT_WIDTH) + "decided by"
        return Strip([Segment(fit(text, width), style)], width)

    def _row_style(self, alert: bool, changed: bool, on_cursor: bool) -> Style:
        """The row's base style: the widget's, then the alert, changed and cursor layers."""
        base = self.rich_style
        if alert:
            base = base + self.get_component_rich_style("tool-grid--alert")
        if changed:
            base = base + self.get_component_rich_style("tool-grid--changed")
        if on_cursor:
            base = base + self.get_component_rich_style("tool-grid--cursor")
        return base

    def _tool_strip(self, tool: ToolVerdict, index: int, width: int) -> Strip:
        layout = self.layout_.fitted(width)
        alert = is_registered_but_hidden(tool)
        changed = tool_key(tool) in self.changed
        on_cursor = index == self.cursor
        base = self._row_style(alert, changed, on_cursor)
        if on_cursor:
            # The cursor row's own colour: only failing marks stay bold on it.
            stage_style, verdict_style = _cursor_stage_style, _cursor_verdict_style
        else:
            palette = palette_for(self.app)
            stage_style, verdict_style = palette.stage, palette.verdict
        segments = [
            _mark_segment(tool, alert, base, stage_style),
            Segment(("Δ" if changed else " ") + " ", base),
            Segment(column(tool.name, layout.name_width), base + Style(bold=True)),
            Segment(column(tool.namespace, layout.namespace_width), base),
        ]
        segments += _stage_segments(tool, layout, base, stage_style)
        verdict = tool.verdict
        label = VERDICT_LABEL[verdict]
        # Only the word is styled (reverse under NO_COLOR): the padding stays plain.
        segments.append(Segment(label, base + verdict_style(verdict)))
        segments.append(Segment(fit("", VERDICT_WIDTH - len(label)), base))
        rest = max(width - sum(cell_len(segment.text) for segment in segments), 0)
        failing = tool.first_failing
        reason = _reason(failing, layout, rest) if failing else ""
        segments.append(Segment(fit(reason, rest), base + _DIM if not failing else base))
        return Strip(segments, width).crop(0, width)


def _cursor_stage_style(passed: bool | None) -> Style:
    return _BOLD if passed is False else Style()


def _cursor_verdict_style(verdict: str) -> Style:
    return _BOLD if verdict != Verdict.VISIBLE else Style()


def _mark_segment(tool: ToolVerdict, alert: bool, base: Style, stage_style: Callable[[bool | None], Style]) -> Segment:
    """The row's first cell: registered-but-hidden (loud), hidden by design (quiet), or blank."""
    if alert:
        return Segment(ALERT_MARK, base + stage_style(False))
    if is_hidden_by_design(tool):
        # A by-design mark is quiet (dimmed): it explains, it does not ask for a fix.
        return Segment(BY_DESIGN_MARK, base + _DIM)
    return Segment(" ", base)


def _stage_segments(
    tool: ToolVerdict, layout: GridLayout, base: Style, stage_style: Callable[[bool | None], Style]
) -> list[Segment]:
    """One cell per stage column: the stage's mark, or the not-reached mark (dimmed)."""
    segments = []
    for name in layout.stage_names:
        stage = tool.stage(name)
        stage_width = layout.stage_width(name)
        if stage is None:
            segments.append(Segment(fit(" " + NOT_REACHED, stage_width), base + _DIM))
        else:
            segments.append(Segment(fit(" " + MARK[stage.passed], stage_width), base + stage_style(stage.passed)))
    return segments


def _reason(failing: Stage, layout: GridLayout, rest: int) -> str:
    """The failing stage's rule, after its title when there is room for it."""
    if rest >= WITH_STAGE_TITLE:
        stage_title = f"{STAGE_TITLES.get(failing.name, failing.name)}: "
    else:  # the ✗ column says which stage; without the stage columns, a short title does
        stage_title = "" if layout.stage_names else f"{short_title(failing.name)}: "
    return stage_title + failing.rule
