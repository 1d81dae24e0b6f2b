"""Shared CLI plumbing: consoles, error handling, JSON output, verdict tables.

Untrusted text (tool names, descriptions, rules quoting them) always goes through
``rich.text.Text`` built from plain strings after ``inert()``: never parsed as markup.

Every command module imports this one, so it stays cheap: Rich and the verdict model
are imported by the functions that draw with them (``tools --json`` never loads Rich).
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, TypeVar

import typer

from toolscope.core.enums import Severity
from toolscope.core.errors import EXIT_INTERNAL, ToolscopeError

if TYPE_CHECKING:
    from pydantic import BaseModel
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    from toolscope.core.verdicts import Evaluation, Finding, Stage, ToolVerdict

F = TypeVar("F", bound=Callable[..., Any])

SYMBOL = {True: "✓", False: "✗", None: "?"}
STYLE = {True: "green", False: "bold red", None: "yellow"}
VERDICT_STYLE = {"visible": "green", "hidden": "bold red", "unknown": "yellow"}


def stdout_console() -> Console:
    """Console for results; wide enough that tables don't wrap names when piped."""
    from rich.console import Console

    return Console(highlight=False, soft_wrap=False, width=None if sys.stdout.isatty() else 160)


def stderr_console() -> Console:
    """Console for errors and notes."""
    from rich.console import Console

    return Console(stderr=True, highlight=False, soft_wrap=True)


def handle_errors(func: F) -> F:
    """Turn ToolscopeErrors into one plain message on stderr and their exit code."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except ToolscopeError as exc:
            from rich.text import Text

            from toolscope.core.safe_text import inert

            stderr_console().print(Text("error: " + inert(exc.render()), style="red"))
            raise typer.Exit(exc.exit_code) from None
        except (typer.Exit, typer.Abort, KeyboardInterrupt, SystemExit):
            raise
        except Exception:
            import traceback

            from rich.text import Text

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


def print_document(document: BaseModel) -> None:
    """Write a ``--json`` document (a ``core.schemas`` model) to stdout."""
    from toolscope.core.schemas.base import render

    sys.stdout.write(render(document))


def plain(text: str, style: str = "", *, single_line: bool = False) -> Text:
    """A Text from untrusted plain text, control characters escaped, markup not parsed."""
    from rich.text import Text

    from toolscope.core.safe_text import inert

    return Text(inert(text, single_line=single_line), style=style)


def stage_cell(stage: Stage | None) -> Text:
    """A table cell for one stage: symbol plus word, readable without colour."""
    from rich.text import Text

    if stage is None:
        return Text("-")
    word = {True: "pass", False: "FAIL", None: "unknown"}[stage.passed]
    return Text(f"{SYMBOL[stage.passed]} {word}", style=STYLE[stage.passed])


def verdict_table(evaluation: Evaluation, tools: Iterable[ToolVerdict] | None = None) -> Table:
    """The per-tool table: one column per stage, then the verdict and the deciding rule."""
    from rich.table import Table
    from rich.text import Text

    from toolscope.core.verdicts import STAGE_TITLES

    table = Table(show_lines=False, header_style="bold", expand=False)
    table.add_column("tool", overflow="fold")
    table.add_column("namespace", overflow="fold")
    for name in evaluation.stage_names:
        table.add_column(STAGE_TITLES.get(name, name), no_wrap=True)
    table.add_column("verdict", no_wrap=True)
    table.add_column("decided by", overflow="fold", max_width=70)
    for tool in tools if tools is not None else evaluation.tools:
        failing = tool.first_failing
        table.add_row(
            plain(tool.name, "bold", single_line=True),
            plain(tool.namespace, single_line=True),
            *(stage_cell(tool.stage(name)) for name in evaluation.stage_names),
            Text(tool.verdict, style=VERDICT_STYLE[tool.verdict]),
            plain(f"{STAGE_TITLES.get(failing.name, failing.name)}: {failing.rule}")
            if failing
            else Text("", style="dim"),
        )
    return table


def print_findings(findings: Iterable[Finding], console: Console | None = None) -> None:
    """One line per finding: severity, kind, message (untrusted parts printed inert)."""
    from rich.text import Text

    console = console or stdout_console()
    for finding in findings:
        style = "bold red" if finding.severity == Severity.ERROR else "yellow"
        line = Text(f"{finding.severity:<7} {finding.kind}: ", style=style)
        line.append_text(plain(finding.message))
        if finding.source:
            line.append_text(plain(f" [{finding.source}]", "dim"))
        console.print(line)
