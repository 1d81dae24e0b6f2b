"""The opt-in to starting MCP servers (``--discover``), in words: the flag, the codes, the phrases.

Modelling a project must never execute it (DESIGN §1 E, README "Guarantees"): a server named by
files toolscope was pointed at starts only when the user opts in for that run with
``--discover``, or when the user's own settings already define it (each system says which
files count: ``claude_code.subject``, ``codex.subject``; an AgentWorks registry's
``mcp_config`` never counts). A server left unstarted is never silently missing: its result is
``core.mcp.start_policy.not_started`` (``ok`` False, ``started`` False) and every answer says "unknown, not started"
and names the flag.

Public API::

    DISCOVER_FLAG, NOT_STARTED_CODE
    not_started_reason(subject="") -> str
    not_started_fix(server) -> str
    server_phrase(server, reason) -> str
    header_extra(skipped) -> ((NOT_STARTED_KEY, text),) or ()
"""

from __future__ import annotations

from ..text.counts import counted

DISCOVER_FLAG = "--discover"
"""The opt-in: start the MCP servers the modelled system itself would start, for this run."""

NOT_STARTED_CODE = "connection.not_started"
"""The rule code of a connection stage whose server toolscope did not start."""
NOT_STARTED_PREFIX = "not started: "
NOT_STARTED_KEY = "MCP not started"
"""The ``LoadedInput.extra`` key naming how many servers were not started; the TUI header shows it
first on its second line (``tui.widgets.input_header``)."""


def not_started_reason(subject: str = "") -> str:
    """Why a server's tools are unknown: it was not started, and how to get them."""
    named = f" {subject}" if subject else ""
    return (
        f"{NOT_STARTED_PREFIX}toolscope starts the MCP servers{named} only with {DISCOVER_FLAG} "
        "(it runs their commands), or reads their tools from --snapshot"
    )


def not_started_fix(server: str) -> str:
    """The fix of a server toolscope did not start: the opt-in, and what it means."""
    return (
        f'give {DISCOVER_FLAG} to start "{server}" and list its tools (toolscope then runs its command, '
        "as the CLI would), or --snapshot with a saved listing (`toolscope discover CONFIG -o FILE`)"
    )


def header_extra(skipped: int) -> tuple[tuple[str, str], ...]:
    """The header's word on servers not started (none when every server started)."""
    if not skipped:
        return ()
    servers = counted(skipped, "server")
    return ((NOT_STARTED_KEY, f"{servers}, tools unknown: {DISCOVER_FLAG} starts them"),)


def server_phrase(server: str, reason: str) -> str:
    """``server "x" failed: <reason>``, or ``server "x" not started: …`` when toolscope did not start it."""
    if reason.startswith(NOT_STARTED_PREFIX):
        return f'server "{server}" {reason}'
    return f'server "{server}" failed: {reason}'
