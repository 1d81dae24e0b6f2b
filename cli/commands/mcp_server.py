"""``toolscope mcp``'s server: toolscope's answers served to an agent over MCP (stdio, the official SDK).

Three read-only tools, each answering in the words the CLI prints for the same subject:
``why_not(tool)`` is ``toolscope explain CONFIG TOOL``, ``tools()`` is ``toolscope tools CONFIG
--wide`` and ``check()`` is ``toolscope check CONFIG``. The commands' own answer functions print
through the renderers into a bounded buffer that stands in for stdout while they run; the SDK's
transport writes to its own copy of the protocol's stdout (file descriptor 1 then points at
stderr), and stdin is read by ``cli.stdin_lines`` (cancellable, bounded).

The subject is opened again for every call, so an edited configuration is answered as it is now.
Nothing here starts a configured MCP server unless the command line has ``--discover``.
"""

from __future__ import annotations

import contextlib
import io
import logging
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import typer

from ...core.model.errors import ToolscopeError
from ...core.text.clip import clip
from ...core.text.safe_text import inert
from .subject_options import SubjectOptions

MAX_ANSWER_CHARS = 60_000
"""The most characters one answer carries (about 15,000 tokens); the rest is counted, not kept."""
MAX_TOOL_NAME_CHARS = 512
"""The longest tool name ``why_not`` answers for (a name a model wrote; real ones are far shorter)."""
INSTRUCTIONS = (
    "toolscope explains why this agent does or does not have a tool, from its configuration files. "
    "Call why_not(tool) when a tool you expected is missing or refused; tools() lists every tool with "
    "its verdict; check() reports configuration mistakes. The answers are read-only."
)

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


def _result(text: str, is_error: bool) -> Any:
    from mcp.types import CallToolResult

    # By the wire's names: mcp 1.x names the fields so, 2.x takes them as aliases.
    return CallToolResult.model_validate({"content": [{"type": "text", "text": text}], "isError": is_error})


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


CallAnswer = Callable[[Served, dict[str, Any]], tuple[str, bool]]


def _why_not_call(served: Served, arguments: dict[str, Any]) -> tuple[str, bool]:
    tool = arguments.get("tool")
    if not isinstance(tool, str):
        return 'error: why_not needs "tool", the name of a tool (a string)', True
    return why_not_text(served, tool)


def _tools_call(served: Served, arguments: dict[str, Any]) -> tuple[str, bool]:
    hidden_only = arguments.get("hidden_only", False)
    if not isinstance(hidden_only, bool):
        return 'error: tools takes "hidden_only": true or false', True
    return tools_text(served, hidden_only)


def _check_call(served: Served, arguments: dict[str, Any]) -> tuple[str, bool]:
    return check_text(served)


CALLS: dict[str, CallAnswer] = {"why_not": _why_not_call, "tools": _tools_call, "check": _check_call}


async def respond(served: Served, name: str, arguments: dict[str, Any] | None) -> Any:
    """The CallToolResult for one call (answered in a worker thread: the loop keeps reading stdin)."""
    import anyio.to_thread

    answer = CALLS.get(name)
    if answer is None:
        shown = inert(clip(name, 100), single_line=True)
        return _result(f'error: toolscope mcp has no tool "{shown}"; its tools: {", ".join(CALLS)}', True)
    return _result(*await anyio.to_thread.run_sync(answer, served, arguments or {}))


def tool_list() -> list[Any]:
    """The three tools as ``tools/list`` describes them: read-only, closed-world."""
    from mcp.types import Tool

    hints = {"readOnlyHint": True, "destructiveHint": False, "idempotentHint": True, "openWorldHint": False}
    return [
        Tool.model_validate({"name": name, "description": text, "inputSchema": schema, "annotations": hints})
        for name, text, schema in TOOLS
    ]


def build_server(served: Served) -> Any:
    """The SDK's low-level server with the three tools (mcp 2.x takes handlers, mcp < 2 decorators)."""
    import inspect

    from mcp.server.lowlevel import Server

    if "on_call_tool" in inspect.signature(Server).parameters:

        async def list_tools(ctx: Any, params: Any) -> Any:
            from mcp.types import ListToolsResult

            return ListToolsResult(tools=tool_list())

        async def call_tool(ctx: Any, params: Any) -> Any:
            return await respond(served, params.name, params.arguments)

        return Server("toolscope", instructions=INSTRUCTIONS, on_list_tools=list_tools, on_call_tool=call_tool)
    legacy: Any = Server("toolscope", instructions=INSTRUCTIONS)  # pragma: no cover - mcp < 2

    async def listed() -> list[Any]:  # pragma: no cover
        return tool_list()

    async def called(name: str, arguments: dict[str, Any] | None) -> Any:  # pragma: no cover
        return await respond(served, name, arguments)

    legacy.list_tools()(listed)
    legacy.call_tool(validate_input=False)(called)
    return legacy


TOOLS: tuple[tuple[str, str, dict[str, Any]], ...] = (
    (
        "why_not",
        "Why TOOL is or is not available to this agent: toolscope's checklist, stage by stage, with the rule "
        "or configuration entry that decided each stage, ending at the fix (the exact entry to add, and where). "
        "The same text as `toolscope explain CONFIG TOOL`. An unknown name gets did-you-mean suggestions.",
        {
            "type": "object",
            "properties": {
                "tool": {
                    "type": "string",
                    "description": "The tool's name as the agent knows it (notify_user, github:create_issue, "
                    "mcp__server__tool).",
                }
            },
            "required": ["tool"],
        },
    ),
    (
        "tools",
        "Every tool of this agent's configuration: a mark per stage, the verdict (visible, hidden, ...) and the "
        "rule that decided it, as `toolscope tools CONFIG --wide` prints it.",
        {
            "type": "object",
            "properties": {
                "hidden_only": {
                    "type": "boolean",
                    "default": False,
                    "description": "Only the tools that are not visible.",
                }
            },
        },
    ),
    (
        "check",
        "toolscope's checks of this agent's configuration, as `toolscope check CONFIG` prints them: findings "
        "such as tools allow-listed but never registered, rules that match nothing, unknown names, duplicates.",
        {"type": "object", "properties": {}},
    ),
)
"""Each tool's name, description and input schema."""


def serve(served: Served) -> None:
    """Answer over stdin/stdout until stdin ends (exit 0) or Ctrl+C / SIGTERM (exit 130, or by the signal)."""
    import anyio

    try:
        anyio.run(_serve, build_server(served))
    except KeyboardInterrupt:
        raise typer.Exit(130) from None


async def _serve(server: Any) -> None:
    from mcp.server.stdio import stdio_server

    from ..stdin_lines import StdinLines

    async with stdio_server(stdin=StdinLines(), stdout=_protocol_stdout()) as (read, write):  # type: ignore[arg-type]
        await server.run(read, write, server.create_initialization_options())


def _protocol_stdout() -> Any:
    """The protocol's stdout: a copy of file descriptor 1, which itself then points at stderr, so that a
    stray write (a library's, a toolkit factory's) never lands in the protocol, and ``sys.stdout`` stays
    open after serving (mcp 1.x closes the stdout it wraps itself)."""
    import sys

    import anyio

    sys.stdout.flush()
    protocol = os.dup(1)
    os.dup2(2, 1)
    return anyio.wrap_file(io.TextIOWrapper(os.fdopen(protocol, "wb"), encoding="utf-8"))
