"""Terminal layout: the output width, word wrapping that never splits a word, and
borderless column tables in the style of ``kubectl get`` / ``docker ps``.

Everything here works on plain strings that were already made inert; widths are in
terminal cells (``rich.cells.cell_len``), so wide characters keep columns aligned.
The table is laid out in one pass over the rows (linear in their number): 50,000
tools print as fast as they can be written.
"""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from rich.cells import cell_len

# When stdout is not a terminal and COLUMNS is not set: a fixed width, so piped output
# (files, CI logs, grep) is the same wherever it is produced.
PIPED_WIDTH = 120
GAP = "  "
ELLIPSIS = "…"


def output_width(*, stream=None) -> int:  # a text stream
    """The width to lay out for: COLUMNS when set, the terminal's width on a terminal,
    else ``PIPED_WIDTH``."""
    columns = os.environ.get("COLUMNS", "").strip()
    if columns.isdigit() and int(columns) > 0:
        return int(columns)
    stream = stream or sys.stdout
    try:
        if stream.isatty():
            return os.get_terminal_size(stream.fileno()).columns or PIPED_WIDTH
    except (OSError, ValueError, AttributeError):
        pass
    return PIPED_WIDTH


def wrap_words(text: str, width: int) -> list[str]:
    """Greedy word wrap at spaces. A word longer than the width stays whole on its own
    line (a name, path or rule code is never broken in the middle)."""
    width = max(width, 1)
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split(" "):
            if not line:
                line = word
            elif cell_len(line) + 1 + cell_len(word) <= width:
                line += " " + word
            else:
                lines.append(line)
                line = word
        lines.append(line)
    return lines


def shorten(text: str, width: int) -> tuple[str, bool]:
    """``text`` cut to ``width`` cells at a word boundary, ending in ``…``; and whether
    it was cut. A cut inside a single overlong word keeps its start."""
    if (len(text) if text.isascii() else cell_len(text)) <= width:
        return text, False
    if width <= 1:
        return ELLIPSIS[:width], True
    budget = width - 1
    cut = text[:budget]
    while cell_len(cut) > budget:  # wide characters
        cut = cut[:-1]
    space = cut.rfind(" ")
    if space >= budget // 2:
        cut = cut[:space]
    return cut.rstrip(" ,;:(") + ELLIPSIS, True


def pad(text: str, width: int, justify: str = "left") -> str:
    """``text`` padded with spaces to ``width`` cells (never cut)."""
    gap = width - cells(text)
    if gap <= 0:
        return text
    return " " * gap + text if justify == "right" else text + " " * gap


@dataclass
class Cell:
    """One cell: its plain text and a Rich style name (empty for none)."""

    text: str
    style: str = ""


@dataclass
class Column:
    """A column: its header, and whether its cells are right-aligned."""

    header: str
    justify: str = "left"


@dataclass
class Layout:
    """A laid-out table: each line is a list of (text, style) segments."""

    lines: list[list[tuple[str, str]]] = field(default_factory=list)
    shortened: bool = False
    fixed: int = 0  # cells taken by the columns before the note
    inline: bool = False  # the note is on the row's line
    row_lines: list[int] = field(default_factory=list)  # which lines are rows (not headings or notes)
    marks: frozenset[str] = frozenset()  # the row marks shown (see ``layout_table``'s ``marks``)


def cells(text: str) -> int:
    """Terminal cells ``text`` takes (ASCII: its length, without Rich's per-character work)."""
    return len(text) if text.isascii() else _wide_cells(text)


@functools.lru_cache(maxsize=4096)  # stage marks and verdict words repeat on every row
def _wide_cells(text: str) -> int:
    return cell_len(text)


def column_widths(columns: Sequence[Column], rows: Sequence[Sequence[Cell]]) -> list[int]:
    """Each column's width: its widest cell or header. One pass over the rows."""
    widths = [cells(c.header) for c in columns]
    for row in rows:
        for i, cell in enumerate(row):
            n = cells(cell.text)
            if n > widths[i]:
                widths[i] = n
    return widths


def table_width(widths: Sequence[int], gaps: Sequence[int] | None = None) -> int:
    """Cells taken by columns of these widths, two spaces apart (``gaps``: the spaces after each
    column but the last)."""
    if gaps is None:
        return sum(widths) + len(GAP) * (len(widths) - 1)
    return sum(widths) + sum(gaps[: len(widths) - 1])


# Where a name too long for its column may wrap: after the last double underscore
# (mcp__server__), else after the last of these.
_NAME_BREAKS = "_-./"  # not ":": a line ending in one reads as a heading (namespace:)


def wrap_name(text: str, width: int) -> list[str]:
    """``text`` in pieces of at most ``width`` cells, each ending where a name's parts meet
    (``mcp__time__`` / ``get_current_time``), cut hard only when a part is longer than the width."""
    width = max(width, 1)
    pieces: list[str] = []
    while cells(text) > width:
        fitting = text[:width]
        while cells(fitting) > width:  # wide characters
            fitting = fitting[:-1]
        fitting = fitting or text[0]  # a wide character in a one-cell column: it overflows
        double = fitting.rfind("__") + 2
        single = max(fitting.rfind(c) for c in _NAME_BREAKS) + 1
        end = double if double >= 3 else single if single > 0 else len(fitting)
        pieces.append(text[:end])
        text = text[end:]
    return [*pieces, text] if text or not pieces else pieces


def layout_table(
    columns: Sequence[Column],
    rows: Sequence[Sequence[Cell]],
    width: int,
    *,
    note: Column | None = None,
    notes: Sequence[Cell] | None = None,
    min_note: int = 24,
    indent: int = 4,
    whole_notes: bool = False,
    groups: Sequence[str] | None = None,
    widths: Sequence[int] | None = None,
    marks: Sequence[Cell] | None = None,
    gaps: Sequence[int] | None = None,
) -> Layout:
    """Lay out ``rows`` as aligned columns, two spaces apart, one line per row.

    Every column is as wide as its widest cell: values are never cut or split. The
    optional last ``note`` column (a sentence, like the rule that decided a verdict)
    gets the rest of the line, shortened at a word boundary with ``…``; when less than
    ``min_note`` cells are left it goes on a line of its own below the row, indented.
    ``whole_notes`` never shortens it (``--wide``). ``groups`` (one label per row)
    prints a heading line each time the label changes, instead of a column. ``widths``
    (from ``column_widths``) saves measuring the rows again; a first column given narrower than
    its widest cell wraps its longer values inside it (``wrap_name``), on lines of their own
    below the row. ``marks`` (one single-cell mark per row, like the TUI's ``!``) go in front
    of each row, one space before it; every other line is indented to match. ``gaps``: the
    spaces after each column but the last (two each when not given).
    """
    if marks is not None:
        inner = layout_table(
            columns, rows, width - 2, note=note, notes=notes, min_note=min_note, indent=indent,
            whole_notes=whole_notes, groups=groups, widths=widths, gaps=gaps,
        )  # fmt: skip
        return _with_marks(inner, marks)
    widths = list(widths) if widths is not None else column_widths(columns, rows)
    fixed = table_width(widths, gaps)
    note_width = width - fixed - len(GAP)
    inline = note is not None and (whole_notes or note_width >= min_note)
    out = Layout(fixed=fixed, inline=inline)
    writer = _RowWriter(out, widths, columns, gaps)
    writer.header(columns, note if inline else None)
    add = writer.adder(inline, width, note_width, min_note, indent, whole_notes)
    row_notes: Sequence[Cell | None] = notes if notes is not None else [None] * len(rows)
    if groups is None:
        for row, row_note in zip(rows, row_notes, strict=False):
            add(row, row_note)
    else:
        _add_grouped(out, add, rows, row_notes, groups)
    _strip_trailing_spaces(out.lines)
    return out


def _add_grouped(
    out: Layout,
    add: Callable[[Sequence[Cell], Cell | None], None],
    rows: Sequence[Sequence[Cell]],
    notes: Sequence[Cell | None],
    groups: Sequence[str],
) -> None:
    """The rows, with a heading line each time the group label changes."""
    group = None
    for index, row in enumerate(rows):
        if groups[index] != group:
            group = groups[index]
            out.lines.append([(group + ":", "bold underline")])
        add(row, notes[index])


class _RowWriter:
    """Appends rows to ``out``: each cell padded to its column's width, two spaces apart."""

    def __init__(
        self, out: Layout, widths: list[int], columns: Sequence[Column], gaps: Sequence[int] | None = None
    ) -> None:
        self.out = out
        self.widths = widths
        self.right = [c.justify == "right" for c in columns]
        self.last = len(widths) - 1
        self.gaps = [GAP] * len(widths) if gaps is None else [" " * gap for gap in gaps] + [GAP]

    def header(self, columns: Sequence[Column], note: Column | None) -> None:
        """The header line (with the note column's header when notes go on the row)."""
        note_cell = (note.header, "bold") if note is not None else None
        self.out.lines.append(self.line([(c.header, "bold") for c in columns], note_cell))

    def line(self, texts: Sequence[tuple[str, str]], note_cell: tuple[str, str] | None) -> list[tuple[str, str]]:
        """One line's segments; the last column unpadded unless a note follows it."""
        segments: list[tuple[str, str]] = []
        widths, right, gaps = self.widths, self.right, self.gaps
        for i, (text, style) in enumerate(texts):
            if text.isascii():
                body = text.rjust(widths[i]) if right[i] else text.ljust(widths[i])
            else:
                body = pad(text, widths[i], "right" if right[i] else "left")
            segments += ((body, style), (gaps[i], ""))
        segments.pop()  # no gap after the last column
        if note_cell is not None:
            segments += ((GAP, ""), note_cell)
        elif segments and not right[self.last]:
            segments[-1] = texts[self.last]  # the last column needs no padding
        return segments

    def adder(
        self, inline: bool, width: int, note_width: int, min_note: int, indent: int, whole_notes: bool
    ) -> Callable[[Sequence[Cell], Cell | None], None]:
        """``add_inline`` or ``add_below``, with the widths their notes are shortened to."""
        if inline:
            return functools.partial(self.add_inline, note_width=None if whole_notes else note_width)
        return functools.partial(self.add_below, indent=indent, below=max(width - indent, min_note))

    def add_inline(self, row: Sequence[Cell], note: Cell | None, *, note_width: int | None) -> None:
        """The row with its note at the end of the line (shortened to ``note_width``; None: whole)."""
        out = self.out
        text = note.text if note is not None else ""
        if text and note_width is not None:
            text, cut = shorten(text, note_width)
            out.shortened |= cut
        out.row_lines.append(len(out.lines))
        note_cell = (text, note.style) if text and note is not None else None
        self.add_row(row, note_cell)

    def add_row(self, row: Sequence[Cell], note_cell: tuple[str, str] | None) -> None:
        """The row's line; a first cell wider than its column goes on in lines below it."""
        texts = [(c.text, c.style) for c in row]
        first, style = texts[0] if texts else ("", "")
        if not texts or cells(first) <= self.widths[0]:
            self.out.lines.append(self.line(texts, note_cell))
            return
        head, *rest = wrap_name(first, self.widths[0])
        self.out.lines.append(self.line([(head, style), *texts[1:]], note_cell))
        self.out.lines.extend([(piece, style)] for piece in rest)

    def add_below(self, row: Sequence[Cell], note: Cell | None, *, indent: int, below: int) -> None:
        """The row, then its note on a line of its own, indented (shortened to ``below``)."""
        out = self.out
        out.row_lines.append(len(out.lines))
        self.add_row(row, None)
        if note is not None and note.text:
            text, cut = shorten(note.text, below)
            out.shortened |= cut
            out.lines.append([(" " * indent, ""), (text, note.style)])


def _strip_trailing_spaces(lines: list[list[tuple[str, str]]]) -> None:
    """No line ends in spaces (nor in segments of spaces only)."""
    for line in lines:
        while line and not line[-1][0].strip():
            line.pop()
        if line:
            text, style = line[-1]
            line[-1] = (text.rstrip(" "), style)


def _with_marks(out: Layout, marks: Sequence[Cell]) -> Layout:
    """``out`` with each row's mark (and a space) in front; the other lines move over to match."""
    mark_of = dict(zip(out.row_lines, marks, strict=True))
    blank = Cell(" ")
    for number, line in enumerate(out.lines):
        if line:
            mark = mark_of.get(number, blank)
            line[:0] = [(mark.text, mark.style), (" ", "")]
    out.fixed += 2
    out.marks = frozenset(mark.text for mark in marks) - {" "}
    return out
