"""The per-tool verdict table of ``toolscope tools``, laid out for the terminal's width.

Layout (chosen to read like ``kubectl get`` / ``docker ps``): no borders, a header in
capitals, one line per tool, columns two spaces apart, every value whole. TOOL, NAMESPACE,
one mark per stage (✓ pass, ✗ fail, ? unknown, - not reached), VERDICT, then DECIDED BY:
the first failing stage's title and rule, on the rest of the line and shortened to fit
(``--wide`` prints it whole), or on a line of its own below the row when the terminal is
narrow. When even short stage headers leave no room for a namespace column next to whole
names, namespaces become heading lines; then the stage marks are one space apart; and when
the terminal is narrower still, long tool names wrap inside the TOOL column, so a row never
runs past the terminal's edge (80 columns fit every system's nine stages). Linear in the
number of tools.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ...core.model.presentation import MARK, NOT_REACHED
from ...core.systems.registry import STAGE_HEADERS
from ...core.text.safe_text import inert
from ..layout import Cell, Column, Layout, cells, column_widths, layout_table, table_width
from ..styles import STAGE_STYLE, VERDICT_STYLE

if TYPE_CHECKING:
    from ...core.model.verdicts import Evaluation

# Stage headers when the full titles leave too little room for the deciding rule (each system declares them).
STAGE_SHORT = STAGE_HEADERS
# ! is the TUI's alert colour; · is quiet.
MARK_STYLE = {"!": "bold red", "·": "dim"}
# The deciding rule goes on the row only when at least this many cells are left for it.
MIN_RULE = 40
# A TOOL column narrowed to fit the terminal keeps at least this many cells (names wrap inside it).
MIN_TOOL = 12


def verdict_layout(evaluation: Evaluation, width: int, *, wide: bool = False, hidden_only: bool = False) -> Layout:
    """The table of the evaluation's tools (``hidden_only``: those not visible) at ``width`` cells."""
    names = list(evaluation.stage_names)
    rows, notes, marks = _table_rows(evaluation, names, hidden_only)
    marked = any(mark.text != " " for mark in marks)
    # A row mark and its space take two cells in front of the table.
    titles, ws, with_namespace, gaps = _choose_titles(names, rows, width - 2 if marked else width, wide)
    return layout_table(
        _columns(names, titles, with_namespace),
        rows if with_namespace else [[r[0], *r[2:]] for r in rows],
        width,
        note=Column("DECIDED BY"),
        notes=notes,
        min_note=MIN_RULE,
        whole_notes=wide,
        groups=None if with_namespace else [r[1].text for r in rows],
        widths=ws,
        # The TUI's marks, only when a row has one: ! a later gate blocks it and there is a fix,
        # · hidden by design (core.model.attention).
        marks=marks if marked else None,
        gaps=gaps,
    )


_RowCells = tuple[list[Cell], Cell, bool, Cell]
"""A row of stages laid out: its stage and verdict cells, its rule, whether visible, its mark."""


def _table_rows(
    evaluation: Evaluation, names: list[str], hidden_only: bool
) -> tuple[list[list[Cell]], list[Cell], list[Cell]]:
    """The rows (tool, namespace, stage marks, verdict), their rules and their marks."""
    from ...core.model.verdicts import VerdictList

    rows: list[list[Cell]] = []
    notes: list[Cell] = []
    marks: list[Cell] = []
    # By row of stages (tools decided alike share one): marks, verdict and rule laid out once,
    # and a tool is its labels and its row's cells (no ToolVerdict per tool).
    table = VerdictList.of(evaluation.tools)
    decided: list[_RowCells | None] = [None] * len(table.rows)
    namespaces: dict[str, Cell] = {}
    for tool, row in zip(table.entries, table.row_of, strict=True):
        laid_out = decided[row]
        if laid_out is None:
            laid_out = decided[row] = _row_cells(table.rows[row], names)
        stage_cells, note_cell, visible, mark = laid_out
        if hidden_only and visible:
            continue
        namespace = namespaces.get(tool.namespace)
        if namespace is None:
            namespace = namespaces[tool.namespace] = Cell(inert(tool.namespace, single_line=True))
        rows.append([Cell(inert(tool.name, single_line=True), "bold"), namespace, *stage_cells])
        notes.append(note_cell)
        marks.append(mark)
    return rows, notes, marks


def _row_cells(stages: Any, names: list[str]) -> _RowCells:
    """One row of stages: a mark per stage (``NOT_REACHED`` past the deciding one), the verdict,
    the deciding rule, whether the tool is visible, and its attention mark."""
    from ...core.model.attention import attention, attention_mark
    from ...core.model.verdicts import first_failing, row_verdict
    from ...core.systems.registry import STAGE_TITLES

    verdict = row_verdict(stages)
    by_name = {stage.name: stage for stage in stages}
    stage_cells = [
        Cell(NOT_REACHED)
        if (stage := by_name.get(name)) is None
        else Cell(MARK[stage.passed], STAGE_STYLE[stage.passed])
        for name in names
    ]
    stage_cells.append(Cell(verdict, VERDICT_STYLE[verdict]))
    failing = first_failing(stages)
    rule = f"{STAGE_TITLES.get(failing.name, failing.name)}: {failing.rule}" if failing else ""
    mark_text = attention_mark(attention(stages))
    rule_cell = Cell(inert(rule, single_line=True), "dim" if failing and failing.passed is None else "")
    return stage_cells, rule_cell, failing is None, Cell(mark_text, MARK_STYLE.get(mark_text, ""))


def _columns(names: list[str], titles: Mapping[str, str], namespace: bool = True) -> list[Column]:
    return [
        Column("TOOL"),
        *([Column("NAMESPACE")] if namespace else []),
        *(Column(titles.get(n, n).upper()) for n in names),
        Column("VERDICT"),
    ]


def _choose_titles(
    names: list[str], rows: list[list[Cell]], width: int, wide: bool
) -> tuple[Mapping[str, str], list[int], bool, list[int] | None]:
    """Which stage titles, column widths, whether a namespace column, and the gaps between
    columns (None: two spaces each), for ``width`` cells.

    Preferred, in order: full titles with the rule on the row; short titles with the rule on
    the row; full titles with the rule below; short titles with the rule below; namespaces as
    heading lines instead of a column; then one space between the stage marks; and when not
    even that fits, the TOOL column as wide as is left, its longer names wrapped inside it."""
    from ...core.systems.registry import STAGE_TITLES

    # Measure once: the tool, namespace and verdict columns are the same in every variant,
    # a stage column is as wide as its header (a mark is one cell).
    tool_w, ns_w, *_, verdict_w = column_widths(_columns(names, STAGE_SHORT), rows)

    def widths(titles: Mapping[str, str], namespace: bool = True) -> list[int]:
        return [tool_w, *([ns_w] if namespace else []), *(cells(titles.get(n, n)) for n in names), verdict_w]

    def fits_inline(ws: list[int]) -> bool:
        return wide or width - table_width(ws) - 2 >= MIN_RULE

    full_ws, short_ws = widths(STAGE_TITLES), widths(STAGE_SHORT)
    if fits_inline(full_ws) or (not fits_inline(short_ws) and table_width(full_ws) <= width):
        return STAGE_TITLES, full_ws, True, None
    if fits_inline(short_ws) or table_width(short_ws) <= width:
        return STAGE_SHORT, short_ws, True, None
    plain_ws = widths(STAGE_SHORT, namespace=False)
    if table_width(plain_ws) <= width or wide:
        return STAGE_SHORT, plain_ws, False, None
    # TOOL, then one space between the stage columns and before VERDICT (headers still apart: the
    # last stage's header is wider than its mark). One cell more for TOOL keeps a whole name such
    # as Gemini CLI's mcp_time_get_current_time (25) or Claude Code's mcp__time__get_current_time
    # (27) on one line at 80 columns.
    gaps = [2, *[1] * len(names)]
    others = table_width(plain_ws, gaps) - tool_w
    plain_ws[0] = max(min(tool_w, width - others), MIN_TOOL)
    return STAGE_SHORT, plain_ws, False, gaps


# Why a stage hides a registered tool by design, by the stage that does (core.model.attention).
_BY_DESIGN = {
    "visible": "a group not active yet: the model turns it on with reset_tools",
    "discoverable": "a virtual tool code-execution mode keeps out of the native list",
}


def shortened_note(width: int, explain: str) -> str:
    """That the rules in the table were cut to the terminal's width, and where to read them whole."""
    return f"Rules cut to fit {width} columns: whole in {explain} or --wide"


def marks_legend(marks: frozenset[str], explain: str, stages: Sequence[str] = ()) -> str:
    """What the row marks shown (``Layout.marks``) mean, in one line (empty when there are none);
    ``stages``: the input's stage ids, so the by-design mark names only its own reasons."""
    parts = []
    if "!" in marks:
        parts.append(f"! registered, then blocked later ({explain} gives the fix)")
    if "·" in marks:
        reasons = [text for stage, text in _BY_DESIGN.items() if stage in stages] or list(_BY_DESIGN.values())
        parts.append(f"· hidden by design, not a config mistake ({'; '.join(reasons)})")
    return "; ".join(parts)
