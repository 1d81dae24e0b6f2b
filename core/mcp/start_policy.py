"""Which MCP servers toolscope may start, and what a server it did not start reads like.

The words (the flag, the rule code, the phrases, the fix) are ``core.model.opt_in``'s, so that
answers can use them without importing MCP code; this module adds the result of a server left
unstarted. Public API::

    not_started(name, protocol="stdio") -> ServerResult   (and everything of ``core.model.opt_in``)
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
    "not_started",
    "not_started_fix",
    "not_started_reason",
    "server_phrase",
]


def not_started(name: str, protocol: str = "stdio") -> ServerResult:
    """The result of a server toolscope did not start: its tools are unknown."""
    return ServerResult(name=name, protocol=protocol, ok=False, error=not_started_reason(), started=False)
