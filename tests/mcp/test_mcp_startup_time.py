"""Live discovery measures each server's start-up time (``ServerResult.startup_seconds``), and
``core.mcp.startup`` names the servers a client's first request goes without.

Real stdio servers (``tests/clis/rawmcp.py``, standard library only: it answers at once, or after
``--delay S``). Wide margins: a server that sleeps 8 s against a 4 s grace, one that sleeps 0 s;
no assertion on sub-second figures (the machine is loaded). Lane: it waits on processes.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from toolscope.core.mcp.config import config_from_dict
from toolscope.core.mcp.discovery import discover_sync
from toolscope.core.mcp.startup import StartupGrace, startup_verdicts

pytestmark = pytest.mark.lane

RAWMCP = str(Path(__file__).resolve().parents[1] / "clis" / "rawmcp.py")
GRACE = StartupGrace("A client", 4.0, "set WAIT_MS=20000")


def _server(*args: str) -> dict:
    return {"command": sys.executable, "args": [RAWMCP, *args]}


def test_slow_server_is_late_and_fast_one_is_not() -> None:
    config = config_from_dict({"mcpServers": {"slow": _server("--delay", "8", "a"), "fast": _server("b")}})
    result = discover_sync(config, 30.0)
    slow, fast = result.servers
    assert slow.ok and fast.ok, [s.error for s in result.servers]
    assert slow.startup_seconds is not None and slow.startup_seconds >= 8
    assert fast.startup_seconds is not None and fast.startup_seconds < slow.startup_seconds
    verdicts = startup_verdicts(result.servers, GRACE)
    assert [(v.server, v.late) for v in verdicts] == [("slow", True)]
    assert "goes without this server's tools" in verdicts[0].sentence()
    assert verdicts[0].fix().startswith("set WAIT_MS=20000")


def test_failed_server_has_no_startup_time() -> None:
    result = discover_sync(config_from_dict({"mcpServers": {"bad": _server("--fail")}}), 20.0)
    assert not result.servers[0].ok and result.servers[0].startup_seconds is None
    assert startup_verdicts(result.servers, GRACE) == ()
