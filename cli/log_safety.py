"""Log lines written by libraries (AgentScope, the MCP SDK) are untrusted text too.

AgentScope logs a failing MCP client's error (the server's own words) through its ``as``
logger, and the MCP SDK logs what it could not parse, with a traceback. Both go straight to
the terminal. ``install()`` puts a filter on those loggers and on Python's last-resort
handler that renders every record inert (escape characters shown as ``\\x1b``) and drops
SDK tracebacks: discovery reports what went wrong as the server's failure reason instead.
"""

from __future__ import annotations

import logging

from ..core.text.safe_text import inert

_LIBRARY_LOGGERS = ("as", "mcp", "httpx", "anyio")


class InertRecords(logging.Filter):
    """Makes a log record's message inert; with ``drop_tracebacks`` also removes its traceback."""

    def __init__(self, drop_tracebacks: bool = False) -> None:
        super().__init__()
        self.drop_tracebacks = drop_tracebacks

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a malformed record must not break logging
            message = str(record.msg)
        record.msg = inert(message, single_line=True)
        record.args = None
        if self.drop_tracebacks or record.exc_info or record.exc_text:
            # A traceback repeats the server's text unescaped (and is noise for the user).
            record.exc_info = None
            record.exc_text = None
            record.stack_info = None
        return True


_FILTER = InertRecords(drop_tracebacks=True)


def install() -> None:
    """Filter the library loggers and the last-resort handler (idempotent)."""
    for name in _LIBRARY_LOGGERS:
        logger = logging.getLogger(name)
        if _FILTER not in logger.filters:
            logger.addFilter(_FILTER)
    # The SDK's JSON parse errors are logged with logger.exception: keep them off the screen.
    for name in ("mcp", "client"):  # "client" is the SDK session's logger name
        logging.getLogger(name).setLevel(logging.CRITICAL)
    last_resort = logging.lastResort
    if last_resort is not None and _FILTER not in last_resort.filters:
        last_resort.addFilter(_FILTER)
