"""Discovery never starts every server at once (issue #31): at most ``MAX_CONCURRENT_SERVERS``
stdio processes are alive together, and each still gets its whole timeout from its own start.

Each server here is a real process that logs when it starts and ends and lives 0.6 s (it speaks
no MCP: its listing fails when it exits, which frees its turn); the log says how many overlapped.
"""

from __future__ import annotations

import time
from pathlib import Path

from toolscope.core.mcp.config import config_from_dict
from toolscope.core.mcp.discovery import MAX_CONCURRENT_SERVERS, discover_sync

SERVERS = 3 * MAX_CONCURRENT_SERVERS


def _intervals(log: Path) -> list[tuple[float, float]]:
    starts: dict[str, float] = {}
    ends: dict[str, float] = {}
    for line in log.read_text().split("\n"):
        if line:
            event, name, when = line.split()
            (starts if event == "start" else ends)[name] = float(when)
    return [(starts[name], ends[name]) for name in starts]


def _most_alive_at_once(intervals: list[tuple[float, float]]) -> int:
    events = sorted([(start, 1) for start, _ in intervals] + [(end, -1) for _, end in intervals])
    alive = most = 0
    for _when, change in events:
        alive += change
        most = max(most, alive)
    return most


def test_servers_start_a_bounded_number_at_a_time(tmp_path: Path) -> None:
    log = tmp_path / "log"
    script = 'echo "start $0 $(date +%s.%N)" >> "$1"; sleep 0.6; echo "end $0 $(date +%s.%N)" >> "$1"'
    servers = {f"s{i:02d}": {"command": "sh", "args": ["-c", script, f"s{i:02d}", str(log)]} for i in range(SERVERS)}
    started = time.monotonic()
    result = discover_sync(config_from_dict({"mcpServers": servers}, "cap test"), timeout=30.0)
    elapsed = time.monotonic() - started
    assert [s.name for s in result.servers] == sorted(servers)  # every server answered for, in config order
    intervals = _intervals(log)
    assert len(intervals) == SERVERS
    assert _most_alive_at_once(intervals) <= MAX_CONCURRENT_SERVERS
    assert elapsed < 30.0  # three waves of 0.6 s, far from one timeout
