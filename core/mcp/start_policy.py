"""Which MCP servers toolscope may start, and what a server it did not start reads like.

The words (the flag, the rule code, the phrases, the fix) are ``core.model.opt_in``'s, so that
answers can use them without importing MCP code; this module adds the result of a server left
unstarted. Public API::

    not_started(name, protocol="stdio") -> ServerResult   (and everything of ``core.model.opt_in``)
    own_definitions_start() -> bool; never_start_own_definitions()
"""

from __future__ import annotations

from ..model.opt_in import (
    DISCOVER_FLAG,
    NOT_STARTED_CODE,
    NOT_STARTED_KEY,
    NOT_STARTED_PREFIX,
    header_extra,
    not_started_fix,
    not_started_reason,
    server_phrase,
)
from .results import ServerResult

__all__ = [
    "DISCOVER_FLAG",
    "NOT_STARTED_CODE",
    "NOT_STARTED_KEY",
    "NOT_STARTED_PREFIX",
    "header_extra",
    "never_start_own_definitions",
    "not_started",
    "own_definitions_start",
    "not_started_fix",
    "not_started_reason",
    "server_phrase",
]


def not_started(name: str, protocol: str = "stdio") -> ServerResult:
    """The result of a server toolscope did not start: its tools are unknown."""
    return ServerResult(name=name, protocol=protocol, ok=False, error=not_started_reason(), started=False)


_own_definitions_start = [True]


def own_definitions_start() -> bool:
    """Whether a server the user's own settings define starts without ``--discover`` (each system
    says which definitions are the user's own)."""
    return _own_definitions_start[0]


def never_start_own_definitions() -> None:
    """From now on, in this process, only ``--discover`` starts a server. ``toolscope mcp`` calls it: it
    is itself one of the user's own servers (``claude mcp add``), and would otherwise start itself."""
    _own_definitions_start[0] = False
