"""Shared CLI plumbing: consoles, error handling, JSON output, verdict tables.

Untrusted text (tool names, descriptions, rules quoting them) always goes through
``rich.text.Text`` built from plain strings after ``inert()``: never parsed as markup.
"""

from __future__ import annotations

import functools
import json
import sys
import traceback
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

import typer
from rich.cells import cell_len
from rich.console import Console
from rich.text import Text

from toolscope.core.errors import EXIT_INTERNAL, ToolscopeError
from toolscope.core.safe_text import inert
from toolscope.core.verdicts import STAGE_TITLES, Evaluation, ToolVerdict
from toolscope.layout import Cell, Column, Layout, layout_table, output_width, wrap_words

F = TypeVar("F", bound=Callable[..., Any])

SYMBOL = {True: "✓", False: "✗", None: "?"}
STYLE = {True: "green", False: "bold red", None: "yellow"}
VERDICT_STYLE = {"visible": "green", "hidden": "bold red", "unknown": "yellow"}


def stdout_console() -> Console:
    """Console for results, as wide as ``output_width()``: the terminal, COLUMNS, or a
    stable width when piped."""
    return Console(highlight=False, soft_wrap=False, width=output_width())


def print_lines(console: Console, lines: Iterable[list[tuple[str, str]]]) -> None:
    """Print laid-out lines of (text, style) segments, never re-wrapped. Without colour
    (piped, a file) they are written as plain text in one go: fast for 50k rows."""
    if console.color_system is None:
        console.file.write("".join("".join(text for text, _ in line) + "\n" for line in lines))
        return
    for line in lines:
        console.print(Text.assemble(*line), soft_wrap=True, crop=False)


def print_wrapped(console: Console, head: Text, body: str, style: str = "", *, indent: int | None = None) -> None:
    """``head`` then ``body`` (untrusted, made inert) wrapped at word boundaries; the
    continuation lines hang under the body's start (or at ``indent`` cells)."""
    hang = cell_len(head.plain) if indent is None else indent
    if hang > console.width // 2:
        hang = 4
    lines = wrap_words(inert(body), max(console.width - hang, 20))
    first = head.copy()
    if cell_len(head.plain) + cell_len(lines[0]) > console.width and head.plain.strip():
        # The head is longer than the hang: the body starts on the next line.
        console.print(first, soft_wrap=True, crop=False)
        first = Text(" " * hang)
    first.append(lines[0], style=style)
    console.print(first, soft_wrap=True, crop=False)
    for line in lines[1:]:
        console.print(Text(" " * hang).append(line, style=style), soft_wrap=True, crop=False)


def stderr_console() -> Console:
    """Console for errors and notes."""
    return Console(stderr=True, highlight=False, soft_wrap=True)


def handle_errors(func: F) -> F:
    """Turn ToolscopeErrors into one plain message on stderr and their exit code."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except ToolscopeError as exc:
            stderr_console().print(Text("error: " + inert(exc.render()), style="red"))
            raise typer.Exit(exc.exit_code) from None
        except (typer.Exit, typer.Abort, KeyboardInterrupt, SystemExit):
            raise
        except Exception:
            # A bug in toolscope, never the user's mistake: keep the traceback for the
            # report, and an exit code of its own so CI never reads it as "check failed".
            traceback.print_exc()
            stderr_console().print(
                Text(
                    "toolscope bug: the error above is toolscope's, not your input's; please report it "
                    f"(exit {EXIT_INTERNAL})",
                    style="red",
                )
            )
            raise typer.Exit(EXIT_INTERNAL) from None

    return wrapper  # type: ignore[return-value]


def print_json(payload: dict[str, Any]) -> None:
    """Write a JSON document to stdout (UTF-8, stable key order as built)."""
    sys.stdout.write(json.dumps(payload, indent=2, ensure_ascii=False) + "\n")


def plain(text: str, style: str = "", *, single_line: bool = False) -> Text:
    """A Text from untrusted plain text, control characters escaped, markup not parsed."""
    return Text(inert(text, single_line=single_line), style=style)


# Stage headers when the full titles leave too little room for the deciding rule.
STAGE_SHORT = {
    "registered": "REG",
    "allow_listed": "ALLOW",
    "discoverable": "DISC",
    "callable": "CALL",
    "visible": "VIS",
}
MARK_WORD = {True: "pass", False: "FAIL", None: "unknown"}


def verdict_layout(
    evaluation: Evaluation, tools: Iterable[ToolVerdict] | None, width: int, *, wide: bool = False
) -> Layout:
    """The per-tool table, ``kubectl get`` style: TOOL, NAMESPACE, a mark per stage
    (✓ pass, ✗ fail, ? unknown, - not reached), VERDICT, and DECIDED BY (the first
    failing stage's title and rule) on the rest of the line, shortened to fit, or on a
    line below the row when the terminal is narrow. Names are never cut or split."""
    names = list(evaluation.stage_names)
    rows: list[list[Cell]] = []
    notes: list[Cell] = []
    for tool in tools if tools is not None else evaluation.tools:
        cells = [Cell(inert(tool.name, single_line=True), "bold"), Cell(inert(tool.namespace, single_line=True))]
        for name in names:
            stage = tool.stage(name)
            cells.append(Cell("-") if stage is None else Cell(SYMBOL[stage.passed], STYLE[stage.passed]))
        cells.append(Cell(tool.verdict, VERDICT_STYLE[tool.verdict]))
        rows.append(cells)
        failing = tool.first_failing
        rule = f"{STAGE_TITLES.get(failing.name, failing.name)}: {failing.rule}" if failing else ""
        notes.append(Cell(inert(rule, single_line=True), "dim" if failing and failing.passed is None else ""))

    def columns(titles: dict[str, str], namespace: bool = True) -> list[Column]:
        return [
            Column("TOOL"),
            *([Column("NAMESPACE")] if namespace else []),
            *(Column(titles.get(n, n).upper()) for n in names),
            Column("VERDICT"),
        ]

    note = Column("DECIDED BY")
    # Preferred, in order: full titles with the rule on the row; short titles with the
    # rule on the row; full titles with the rule below; short titles with the rule below.
    full = layout_table(columns(STAGE_TITLES), rows, width, note=note, notes=notes, min_note=40, whole_notes=wide)
    if full.inline:
        return full
    short = layout_table(columns(STAGE_SHORT), rows, width, note=note, notes=notes, min_note=40)
    if short.inline or full.fixed <= width:
        return short if short.inline else full
    if short.fixed <= width:
        return short
    # Too narrow for a namespace column next to whole names: namespaces become headings.
    return layout_table(
        columns(STAGE_SHORT, namespace=False),
        [[r[0], *r[2:]] for r in rows],
        width,
        note=note,
        notes=notes,
        min_note=40,
        groups=[r[1].text for r in rows],
    )
