"""``toolscope mcp``'s answers: the words ``explain``, ``tools --wide`` and ``check`` print for the
served subject, as text (``mcp_server`` serves them).

The commands' own answer functions print through the renderers into a bounded buffer that stands
in for stdout while they run. The subject is opened again for every answer, so an edited
configuration is answered as it is now.
"""

from __future__ import annotations

import contextlib
import io
import logging
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass, replace

import typer

from ...core.model.errors import ToolscopeError
from ...core.text.safe_text import inert
from .subject_options import SubjectOptions

MAX_ANSWER_CHARS = 60_000
"""The most characters one answer carries (about 15,000 tokens); the rest is counted, not kept."""
MAX_TOOL_NAME_CHARS = 512
"""The longest tool name ``why_not`` answers for (a name a model wrote; real ones are far shorter)."""
_ANSWERING = threading.Lock()
"""One answer at a time: while it runs, ``sys.stdout`` is its buffer."""
log = logging.getLogger(__name__)


class BoundedText(io.TextIOBase):
    """A text stream keeping its first ``limit`` characters and counting the rest."""

    def __init__(self, limit: int) -> None:
        super().__init__()
        self._parts: list[str] = []
        self._room = limit
        self.dropped = 0

    def writable(self) -> bool:
        return True

    def isatty(self) -> bool:
        return False

    def write(self, text: str) -> int:
        kept = text[: max(self._room, 0)]
        self._parts.append(kept)
        self._room -= len(kept)
        self.dropped += len(text) - len(kept)
        return len(text)

    def getvalue(self) -> str:
        """What was kept, and a line saying how much was not."""
        kept = "".join(self._parts)
        if not self.dropped:
            return kept
        return kept + f"\n… [{self.dropped:,} more characters not sent: toolscope mcp answers are capped]\n"


@dataclass(frozen=True)
class Served:
    """What ``toolscope mcp`` answers about: CONFIG (None: the working directory's agent) and its options."""

    config: str | None
    mode: str | None
    options: SubjectOptions

    @property
    def target(self) -> str:
        """CONFIG, or the working directory, whose agent files say which system it is."""
        return self.config if self.config is not None else "."

    def validate(self) -> None:
        """Open the subject once, so that a mistake on the command line is exit 2 before serving.
        Without CONFIG a working directory with no agent's files is not a mistake: each answer says so."""
        try:
            subjects = self.options.open_workflow(self.target)
            (subjects[0] if subjects else self.options.open_subject(self.target)).resolve_mode(self.mode)
        except ToolscopeError as exc:
            if self.config is not None:
                raise
            from ..output import print_error

            print_error("toolscope mcp: " + inert(self.no_config(exc)))

    def no_config(self, exc: ToolscopeError) -> str:
        """The answer when no CONFIG was given and the working directory names no agent."""
        return (
            f"no agent configuration found: toolscope mcp was started without CONFIG, so it looked in its "
            f"working directory ({os.getcwd()}): {exc.render()}\n"
            "Start it with CONFIG: toolscope mcp claude-code:DIR, codex:DIR, a step config or a toolkit spec."
        )

    def answer(self, print_answer: Callable[[], object]) -> tuple[str, bool]:
        """What ``print_answer`` prints, and whether it is an error (bad input, a toolscope bug)."""
        printed = BoundedText(MAX_ANSWER_CHARS)
        with _ANSWERING, contextlib.redirect_stdout(printed):  # type: ignore[type-var]
            try:
                print_answer()
            except typer.Exit:
                pass  # exit 1: a negative answer (hidden, a check failed), printed like any other
            except ToolscopeError as exc:
                return self._error_text(exc), True
            except Exception as exc:
                return _failure_text(exc), True
        return printed.getvalue(), False

    def _error_text(self, exc: ToolscopeError) -> str:
        text = self.no_config(exc) if self.config is None and _about_target(exc, self.target) else exc.render()
        return "error: " + inert(text)


def _about_target(exc: ToolscopeError, target: str) -> bool:
    """Whether the error is about CONFIG itself (what it is), not an option."""
    return getattr(exc, "source", None) == target


def _failure_text(exc: Exception) -> str:
    """The answer for an exception that is not a ToolscopeError: the user's (a path, their code) or a bug."""
    from ..output import users_failure

    theirs = users_failure(exc)
    if theirs is not None:
        return "error: " + inert(theirs.render())
    log.exception("toolscope mcp: toolscope bug")
    return inert(
        f"toolscope bug: {type(exc).__name__}: {exc} (the server's stderr has the traceback; please report it)"
    )


NESTED_ENV = "TOOLSCOPE_MCP_SERVER"
"""Set in the server's environment, so that a server it starts (``--discover``) knows it is nested."""


def served_from(config: str | None, mode: str | None, options: SubjectOptions) -> Served:
    """What to serve, checked once. Only ``--discover`` starts a configured server: the user's own
    definitions include this server itself (``claude mcp add``). A ``toolscope mcp`` started by
    another one's ``--discover`` (it is among the servers it lists) never starts any: no recursion."""
    from ...core.mcp.start_policy import never_start_own_definitions

    never_start_own_definitions()
    if os.environ.get(NESTED_ENV):
        return Served(config, mode, replace(options, discover=False))
    os.environ[NESTED_ENV] = "1"
    served = Served(config, mode, options)
    served.validate()
    return served


def why_not_text(served: Served, tool: str) -> tuple[str, bool]:
    """``toolscope explain CONFIG TOOL``'s words for ``tool``."""
    if len(tool) > MAX_TOOL_NAME_CHARS:
        return (
            f"error: the tool name is {len(tool):,} characters long; toolscope answers for names of at most {MAX_TOOL_NAME_CHARS}",
            True,
        )
    from .explain import explain_config

    return served.answer(lambda: explain_config(served.target, tool, served.mode, served.options))


def tools_text(served: Served, hidden_only: bool) -> tuple[str, bool]:
    """``toolscope tools CONFIG --wide [--hidden]``'s words: every rule whole."""
    from .tools import tools_of_config

    return served.answer(
        lambda: tools_of_config(served.target, served.mode, served.options, hidden_only=hidden_only, wide=True)
    )


def check_text(served: Served) -> tuple[str, bool]:
    """``toolscope check CONFIG``'s words (in the --mode given, else every mode)."""
    from .check import check_config
    from .check_answer import CheckRequest

    modes = (served.mode,) if served.mode is not None else ()
    return served.answer(lambda: check_config(served.target, CheckRequest(modes=modes), served.options))
