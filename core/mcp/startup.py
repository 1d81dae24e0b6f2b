"""A server's start-up time against a client's start-up grace: which first requests go without it.

A coding CLI does not wait for every MCP server before its first model request: it waits a grace
after starting them, and a server that needs longer is missing from that request (its tools come,
if at all, in a later one). Live discovery measures each server's start-up
(``ServerResult.startup_seconds``: spawn or connect until the tool listing is complete); this
module compares it with a grace a system names. System-neutral: each system says what its client
waits and how to make it wait longer. Public API::

    StartupGrace(client, seconds, extend)                what a client waits, and the fix
    startup_verdicts(servers, grace) -> tuple[StartupVerdict, ...]   the late and the close ones
    StartupVerdict(server, seconds, late, grace).sentence()

Timings taken on a loaded machine are rough: a server is ``late`` only when it needed more than the
grace, and ``close`` (may or may not make it) when it needed more than ``CLOSE_SHARE`` of it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .results import ServerResult

CLOSE_SHARE = 0.6
"""A server that needs more than this share of the grace is named as close to it."""


@dataclass(frozen=True)
class StartupGrace:
    """What a client waits for its servers before the first model request, and how to extend it."""

    client: str
    """The client in words (``Claude Code 2.1.332``)."""
    seconds: float
    extend: str
    """The fix in words: the setting that makes the client wait longer."""


@dataclass(frozen=True)
class StartupVerdict:
    """One server measured against a grace: ``late`` (over it) or close to it."""

    server: str
    seconds: float
    late: bool
    grace: StartupGrace

    def sentence(self) -> str:
        """The verdict in words, with the measured time and the grace."""
        grace = self.grace
        if self.late:
            return (
                f"server {self.server!r} needed {self.seconds:.1f} s to start and list its tools; "
                f"{grace.client} sends its first request about {grace.seconds:g} s after starting "
                "servers, so that request goes without this server's tools"
            )
        return (
            f"server {self.server!r} needed {self.seconds:.1f} s to start and list its tools, close to "
            f"{grace.client}'s start-up grace of about {grace.seconds:g} s: on a busier machine its "
            "first request may go without them"
        )

    def fix(self) -> str:
        """What makes the first request wait for the server."""
        return f"{self.grace.extend}, or make the server start faster"


def startup_verdicts(servers: Iterable[ServerResult], grace: StartupGrace) -> tuple[StartupVerdict, ...]:
    """The servers (measured live) that are late for the grace or close to it, in their order."""
    out = []
    for server in servers:
        seconds = server.startup_seconds
        if seconds is None or seconds <= grace.seconds * CLOSE_SHARE:
            continue
        out.append(StartupVerdict(server.name, seconds, seconds > grace.seconds, grace))
    return tuple(out)
