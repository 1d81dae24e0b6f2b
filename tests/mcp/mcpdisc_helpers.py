"""Helpers for the MCP discovery tests (unique module name: tests/ has no packages)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any

FIXTURE = str(Path(__file__).resolve().parent / "fixture_server.py")


def fixture(*args: str, **extra: Any) -> dict[str, Any]:
    """A stdio config entry running the fixture server with these arguments."""
    return {"command": sys.executable, "args": [FIXTURE, *args], **extra}


def write_config(path: Path, servers: dict[str, Any]) -> Path:
    """Write ``{"mcpServers": servers}`` to path and return it."""
    path.write_text(json.dumps({"mcpServers": servers}, indent=2), encoding="utf-8")
    return path


def children_of(pid: int) -> set[int]:
    """PIDs whose parent is pid (from /proc), zombies included."""
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # pid (comm) state ppid ...; comm may contain spaces, so split after the last ')'.
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[1]) == pid:
            found.add(int(entry.name))
    return found


def is_running(pid: int) -> bool:
    """True when pid exists and is not a zombie (a dead, unreaped process is not running)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] not in {"Z", "X"}


def free_port() -> int:
    """A TCP port that was free a moment ago."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def http_fixture(*args: str):
    """Run the fixture server over HTTP (``--http``/``--sse`` in args take the port); yield port."""
    port = free_port()
    argv = [sys.executable, FIXTURE, *[str(port) if a == "PORT" else a for a in args]]
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            with socket.socket() as sock:
                if sock.connect_ex(("127.0.0.1", port)) == 0:
                    break
            if proc.poll() is not None:
                raise RuntimeError(f"fixture HTTP server exited with {proc.returncode}")
            time.sleep(0.05)
        else:
            raise RuntimeError("fixture HTTP server did not start")
        yield port
    finally:
        os.killpg(proc.pid, 9)
        proc.wait()
