"""``toolscope mcp``'s server: toolscope's answers served to an agent over MCP (stdio, the official SDK).

Three read-only tools, each answering in the words the CLI prints for the same subject
(``mcp_answers``): ``why_not(tool)`` is ``toolscope explain CONFIG TOOL``, ``tools()`` is
``toolscope tools CONFIG --wide`` and ``check()`` is ``toolscope check CONFIG``. The SDK's transport
writes to its own copy of the protocol's stdout (file descriptor 1 then points at stderr), and
stdin is read by ``cli.stdin_lines`` (cancellable, bounded). Nothing here starts a configured MCP
server unless the command line has ``--discover``.
"""

from __future__ import annotations

import io
import os
from collections.abc import Callable
from typing import Any

import typer

from ...core.text.clip import clip
from ...core.text.safe_text import inert
from .mcp_answers import Served, check_text, tools_text, why_not_text

INSTRUCTIONS = (
    "toolscope explains why this agent does or does not have a tool, from its configuration files. "
    "Call why_not(tool) when a tool you expected is missing or refused; tools() lists every tool with "
    "its verdict; check() reports configuration mistakes. The answers are read-only."
)


def _result(text: str, is_error: bool) -> Any:
    from mcp.types import CallToolResult

    # By the wire's names: mcp 1.x names the fields so, 2.x takes them as aliases.
    return CallToolResult.model_validate({"content": [{"type": "text", "text": text}], "isError": is_error})


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

    _backstop_interrupt()
    async with stdio_server(stdin=StdinLines(), stdout=_protocol_stdout()) as (read, write):  # type: ignore[arg-type]
        await server.run(read, write, server.create_initialization_options())


INTERRUPT_GRACE = 5.0
"""Seconds an interrupted server has to unwind before it exits 130 regardless."""


def _backstop_interrupt() -> None:
    """Ctrl+C (and SIGTERM, which arrives as Ctrl+C) ends the server within INTERRUPT_GRACE seconds.

    The event loop's own handler cancels the serving task, which then unwinds; under load with mcp 1.x
    that cancellation was once absorbed and the server kept serving (the AgentScope 2.0.6 lane's
    SIGINT test timed out after 60 s). The loop's handler still runs first; the timer only ends a
    server that has not ended by itself."""
    import signal
    import threading

    previous = signal.getsignal(signal.SIGINT)

    def on_interrupt(signum: int, frame: Any) -> None:
        timer = threading.Timer(INTERRUPT_GRACE, os._exit, (130,))
        timer.daemon = True
        timer.start()
        if callable(previous):
            previous(signum, frame)
        else:
            raise KeyboardInterrupt

    signal.signal(signal.SIGINT, on_interrupt)


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
