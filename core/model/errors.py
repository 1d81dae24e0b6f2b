"""Errors that toolscope reports to the user, with the exit code each one maps to.

Two families, kept apart on purpose: ``InputError`` is the user's input being wrong
(exit 2) and ``UserCodeError`` is the user's own code raising (exit 3). Anything else
that escapes is a toolscope bug and is allowed to show its traceback.
"""

from __future__ import annotations

import traceback
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

EXIT_OK = 0
EXIT_NEGATIVE = 1
EXIT_BAD_INPUT = 2
EXIT_USER_CODE = 3
EXIT_INTERNAL = 70
"""A toolscope bug (EX_SOFTWARE): never a user mistake, never a negative answer."""
EXIT_CAPTURE_INCOMPLETE = 74
"""EX_IOERR: ``capture`` answered a request whose line it could not write (a full disk, ``ulimit -f``)."""
EXIT_INTERRUPTED = 130
"""128 + SIGINT: stopped by Ctrl+C (``serve``, ``capture`` serving, a replay), as a shell reports it."""
EXIT_STDOUT_CLOSED = 141
"""128 + SIGPIPE: the reader of stdout went away (``| head``), as a shell reports it."""


@dataclass(frozen=True)
class Problem:
    """One thing wrong with an input: where (a path inside the document) and what."""

    location: str
    """Where inside the document, e.g. ``steps[0].agent_configs.selected_tools[2]``, or ``3:14``."""
    message: str
    """What was expected."""


class ToolscopeError(Exception):
    """Base class of the errors that the CLI turns into a message and an exit code."""

    exit_code = EXIT_BAD_INPUT

    def render(self) -> str:
        """The message shown to the user (plain text, no markup)."""
        return str(self)


@dataclass
class InputError(ToolscopeError):
    """The user's input is wrong: a file, an option, a name.

    ``source`` names the file (or the option) and ``problems`` say where and what.
    """

    source: str
    summary: str
    problems: list[Problem] = field(default_factory=list)

    def __post_init__(self) -> None:
        super().__init__(self.render())

    def render(self) -> str:
        head = f"{self.source}: {self.summary}" if self.source else self.summary
        lines = [head]
        for problem in self.problems[:20]:
            where = f"{problem.location}: " if problem.location else ""
            lines.append(f"  {where}{problem.message}")
        if len(self.problems) > 20:
            lines.append(f"  … and {len(self.problems) - 20} more")
        return "\n".join(lines)


class UserCodeError(ToolscopeError):
    """The user's own code (a toolkit factory) raised; shown as theirs, exit 3."""

    exit_code = EXIT_USER_CODE

    def __init__(self, what: str, exc: BaseException, user_root: Path | None = None) -> None:
        self.what = what
        self.exc = exc
        self.user_root = user_root
        self.process_output: tuple[str, ...] = ()
        """The last stderr lines of processes the code started, when they explain the failure."""
        super().__init__(self.render())

    def add_process_output(self, lines: list[str]) -> None:
        """Quote what a process the user's code started printed last, when the error is one
        that hides it (an MCP server that exited at once: "Connection closed" in a TaskGroup)."""
        leaf = _leaf(self.exc)
        if lines and (leaf is not self.exc or "connection closed" in str(leaf).lower()):
            self.process_output = tuple(lines[-5:])
            self.args = (self.render(),)

    def render(self) -> str:
        frames = traceback.extract_tb(self.exc.__traceback__)
        # Show the innermost frame that is the user's, not toolscope's or a library's.
        own = [f for f in frames if is_user_frame(f.filename, self.user_root)]
        where = ""
        if own:
            last = own[-1]
            where = f" (at {last.filename}:{last.lineno}, in {last.name})"
        # An exception group ("unhandled errors in a TaskGroup") says nothing: name its cause.
        leaf = _leaf(self.exc)
        kind = type(leaf).__name__
        inside = f" (inside {type(self.exc).__name__})" if leaf is not self.exc else ""
        text = f"{self.what}: your code raised {kind}: {leaf}{inside}{where}"
        if "connection closed" in str(leaf).lower():
            text += "; an MCP server it started exited or closed its pipes before the handshake"
        if self.process_output:
            text += "; the process printed last: " + " | ".join(self.process_output)
        return text


def _leaf(exc: BaseException) -> BaseException:
    """The first innermost exception of nested exception groups."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    return exc


def is_user_frame(filename: str, user_root: Path | None) -> bool:
    """True for frames of the user's code: not toolscope's, not site-packages."""
    normalized = filename.replace("\\", "/")
    if "site-packages" in normalized or "/lib/python" in normalized:
        return False
    package_root = Path(__file__).resolve().parents[2]  # the folder holding core/, cli/, tui/
    for own_dir in ("core", "cli", "tui", "toolscope"):
        if normalized.startswith(str(package_root / own_dir).replace("\\", "/") + "/"):
            return False
    if user_root is not None:
        return normalized.startswith(str(user_root).replace("\\", "/"))
    return True


def unknown_mode_error(what: str, mode: str, modes: Sequence[str], near: str | None = None) -> InputError:
    """The InputError naming --mode for a mode no subject knows: a did-you-mean from ``near``
    (default: ``mode`` as typed) and the modes there are. ``what`` names the system's modes."""
    from ..text.suggest import close_matches

    close = close_matches(mode if near is None else near, modes, n=1)
    hint = f" (did you mean {close[0]}?)" if close else ""
    return InputError("--mode", f"unknown {what} '{mode}'{hint}", [Problem("", "expected one of: " + ", ".join(modes))])
