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

from ..core.model.enums import Severity
from ..core.model.errors import EXIT_INTERNAL, EXIT_USER_CODE, ToolscopeError

if TYPE_CHECKING:
    from pydantic import BaseModel
    from rich.console import Console
    from rich.text import Text

    from ..core.model.subject import Subject
    from ..core.model.verdicts import Finding, LoadedInput

F = TypeVar("F", bound=Callable[..., Any])


def stdout_console() -> Console:
    """Console for results, as wide as ``output_width()``: the terminal, COLUMNS, or a
    stable width when piped."""
    from .inert_console import InertConsole
    from .layout import output_width

    return InertConsole(highlight=False, soft_wrap=False, width=output_width())


def print_lines(console: Console, lines: Iterable[list[tuple[str, str]]]) -> None:
    """Print laid-out lines of (text, style) segments, never re-wrapped. Without colour
    (piped, a file) they are written as plain text in one go: fast for 50k rows."""
    if console.color_system is None:
        from ..core.text.safe_text import inert

        # The fast path skips the console's rendering, so it makes the text inert itself.
        text = inert("".join("".join(text for text, _ in line) + "\n" for line in lines))
        if console.file is sys.stdout:
            from ..core.outputs.stdout import write_stdout_text

            write_stdout_text(text)  # whole, or BrokenPipeError: never a silently cut table
        else:
            console.file.write(text)
        return
    from rich.text import Text

    for line in lines:
        console.print(Text.assemble(*line), soft_wrap=True, crop=False)


def print_wrapped(console: Console, head: Text, body: str, style: str = "", *, indent: int | None = None) -> None:
    """``head`` then ``body`` (untrusted, made inert) wrapped at word boundaries; the
    continuation lines hang under the body's start (or at ``indent`` cells)."""
    from rich.cells import cell_len
    from rich.text import Text

    from ..core.text.safe_text import inert
    from .layout import wrap_words

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
    from .inert_console import InertConsole

    return InertConsole(stderr=True, highlight=False, soft_wrap=True)


def print_error(text: str) -> None:
    """An error on stderr, word-wrapped at the terminal's width (a word is never split, as in
    every other output): continuation lines hang under their line's text."""
    from rich.text import Text

    from .layout import output_width, wrap_words

    width = output_width(stream=sys.stderr)
    lines: list[str] = []
    for line in text.split("\n"):
        body = line.lstrip(" ")
        indent = len(line) - len(body)
        wrapped = wrap_words(body, max(width - indent - 2, 20))
        lines.append(" " * indent + wrapped[0])
        lines += [" " * (indent + 2) + rest for rest in wrapped[1:]]
    stderr_console().print(Text("\n".join(lines), style="red"))


def handle_errors(func: F) -> F:
    """Turn ToolscopeErrors into one plain message on stderr and their exit code."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        from . import log_safety

        log_safety.install()  # library log lines repeat server text: inert too
        try:
            result = func(*args, **kwargs)
            # The last buffered lines: a reader gone by now is caught below, not at interpreter exit.
            sys.stdout.flush()
        except typer.Exit as exc:
            if exc.exit_code == 0:
                _fail_if_user_code_exited()
            raise
        except ToolscopeError as exc:
            from rich.text import Text

            from ..core.text.safe_text import inert

            print_error("error: " + inert(exc.render()))
            raise typer.Exit(exc.exit_code) from None
        except (typer.Abort, KeyboardInterrupt, SystemExit):
            raise
        except BaseException as exc:
            from ..core.systems.agentscope.user_code_guard import UserExitCalled

            if isinstance(exc, UserExitCalled):  # os._exit in user code, outside the factory call
                _fail_if_user_code_exited()
            if not isinstance(exc, Exception):
                raise
            from . import closed_stdout

            if closed_stdout.caused_by_closed_stdout(exc):  # `toolscope tools … | head`
                closed_stdout.stop_quietly()
            theirs = users_failure(exc)
            if theirs is not None:  # a path too long (exit 2); a loaded factory's tool or group raised (exit 3)
                from rich.text import Text

                from ..core.text.safe_text import inert

                print_error("error: " + inert(theirs.render()))
                raise typer.Exit(theirs.exit_code) from None
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
        finally:
            _release_user_code_guards()
        _fail_if_user_code_exited()
        return result

    return wrapper  # type: ignore[return-value]


def users_failure(exc: BaseException) -> ToolscopeError | None:
    """The user's error behind an exception that is not a ToolscopeError, else None (a toolscope bug):
    a path too long (exit 2), a loaded factory's tool or group that raised (exit 3)."""
    from ..core.inputs.input_files import user_path_error

    return user_path_error(exc) or _user_code_failure(exc)


def _user_code_failure(exc: BaseException) -> ToolscopeError | None:
    # Only when a factory was loaded (its module is imported then): a spec's toolkit runs no user code.
    if "toolscope.core.systems.agentscope.user_code" not in sys.modules:
        return None
    from ..core.systems.agentscope.user_code import failure_in_user_code

    return failure_in_user_code(exc)


def _release_user_code_guards() -> None:
    # The os._exit guard, the threading hook and the stdout guard end with the command that needed them.
    guard = sys.modules.get("toolscope.core.systems.agentscope.user_code_guard")
    if guard is not None:
        guard.release()


def _fail_if_user_code_exited() -> None:
    # A factory (or a thread it started) called os._exit: never report success after that.
    from ..core.systems.agentscope.user_code_guard import exit_calls

    calls = exit_calls()
    if calls:
        from rich.text import Text

        code, thread = calls[0]
        stderr_console().print(
            Text(
                f"error: the toolkit factory's code called os._exit({code}) (thread {thread!r}); toolscope's answer is not trustworthy",
                style="red",
            )
        )
        raise typer.Exit(EXIT_USER_CODE)


def print_document(document: BaseModel) -> None:
    """Write a ``--json`` document (a ``core.schemas`` model) to stdout."""
    from ..core.outputs.stdout import write_stdout
    from ..core.schemas.base import render

    write_stdout(render(document).encode("utf-8"))


def plain(text: str, style: str = "", *, single_line: bool = False) -> Text:
    """A Text from untrusted plain text, control characters escaped, markup not parsed."""
    from rich.text import Text

    from ..core.text.safe_text import inert

    return Text(inert(text, single_line=single_line), style=style)


def print_findings(findings: Iterable[Finding], console: Console | None = None) -> None:
    """Each finding: severity and kind, then its message below (untrusted parts printed inert)."""
    from rich.text import Text

    console = console or stdout_console()
    for finding in findings:
        # The kind on the first line, the message below it, indented and wrapped at word
        # boundaries: a finding kind is a code to search for and must not be split.
        style = "bold red" if finding.severity == Severity.ERROR else "yellow"
        console.print(Text(f"{finding.severity:<7} {finding.kind}", style=style), soft_wrap=True, crop=False)
        message = finding.message + (f" [{finding.source}]" if finding.source else "")
        print_wrapped(console, Text("        "), message)


def era_sentence(loaded: LoadedInput) -> str | None:
    """AgentWorks: ``era: allow-list era (GetToolsForWorkshopMode)``, the era the answer is true for
    (and the product era's origin); None for toolkits."""
    if loaded.era is None:
        return None
    from ..core.systems.agentworks.era import Era

    origin = next((f"; origin {value}" for key, value in loaded.extra if key == "origin"), "")
    return f"era: {Era(loaded.era).label}{origin}"


def mode_sentence(subject: Subject, given: str | None, resolved: str | None) -> str:
    """Which mode a command used and why: named with --mode (and what it canonicalized to),
    the config's default, or none because the config has no modes."""
    if resolved is None:
        return "mode: none (this config has no modes)"
    if given is None:
        return f"mode: {resolved} (the default; choose another with --mode: {', '.join(subject.mode_names)})"
    if given != resolved:
        return f"mode: {resolved} (--mode {given} canonicalizes to {resolved})"
    return f"mode: {resolved} (--mode)"
