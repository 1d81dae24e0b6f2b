"""Hostile corpus: MCP servers that flood, never end, or fail in ways easy to misname.

Every case runs the real CLI (``toolscope discover``) in a subprocess against a real server
process (stdio) or a real socket on 127.0.0.1 (HTTP). Resource figures come from the
kernel: the CLI's peak RSS (``VmHWM``) and the blocks it dirtied on disk (``os.wait4``).
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import NamedTuple

import pytest

from toolscope.core.mcp.eras import modern_sdk

pytestmark = pytest.mark.skipif(not os.path.isdir("/proc"), reason="rusage and process checks (Linux)")

RAW_SERVER = Path(__file__).resolve().parent / "raw_mcp_server.py"
HANDSHAKE = "server/discover" if modern_sdk() else "initialize"

FLOOD = """
import os
chunk = (b"x" * 4095 + b"\\n") * 256
while True:
    os.write(2, chunk)
"""


def run_cli(*args: str, env: dict[str, str] | None = None, limit: float = 120) -> tuple[int, str, str, float, Usage]:
    """Run ``toolscope ARGS``; (exit code, stdout, stderr, wall seconds, what the CLI used)."""
    started = time.monotonic()
    process = subprocess.Popen(
        [sys.executable, "-m", "toolscope", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, **(env or {})},
    )
    # Read both pipes in threads: wait4 must reap the process itself to get its rusage.
    out: list[bytes] = []
    err: list[bytes] = []
    readers = [
        threading.Thread(target=lambda: out.append(process.stdout.read())),  # type: ignore[union-attr]
        threading.Thread(target=lambda: err.append(process.stderr.read())),  # type: ignore[union-attr]
    ]
    for reader in readers:
        reader.start()
    deadline = time.monotonic() + limit
    peak = 0
    while True:
        peak = max(peak, high_water_kib(process.pid))
        pid, status, usage = os.wait4(process.pid, os.WNOHANG)
        if pid:
            break
        if time.monotonic() > deadline:
            process.kill()
            pytest.fail(f"toolscope {' '.join(args)} did not end within {limit}s")
        time.sleep(0.02)
    wall = time.monotonic() - started
    process.returncode = os.waitstatus_to_exitcode(status)
    for reader in readers:
        reader.join(10)
    return process.returncode, out[0].decode(), err[0].decode(), wall, Usage(peak, usage.ru_oublock)


class Usage(NamedTuple):
    peak_rss_kib: int
    """The CLI's own peak RSS (VmHWM). Not wait4's ru_maxrss: that one also counts the memory of
    the process that forked it (a test worker of hundreds of MB), recorded when it exec'd."""
    blocks_written: int
    """512-byte blocks the CLI dirtied on disk (ru_oublock)."""


def high_water_kib(pid: int) -> int:
    """VmHWM of a running process (monotonic: sampled until it exits, the last sample is near its peak)."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def config(tmp_path: Path, servers: dict[str, object]) -> Path:
    path = tmp_path / "mcp.json"
    path.write_text(json.dumps({"mcpServers": servers}), encoding="utf-8")
    return path


def errors_of(stdout: str) -> dict[str, dict]:
    return {server["name"]: server for server in json.loads(stdout)["servers"]}


# --- class 4: bounds ------------------------------------------------------------------------


def test_a_stderr_flood_keeps_the_timeout_and_bounded_memory_and_disk(tmp_path: Path) -> None:
    """The issue: ``--timeout 2`` took 8.5 s and 4.2 GB, the stderr log unbounded and read back whole."""
    script = tmp_path / "flood.py"
    script.write_text(FLOOD)
    path = config(tmp_path, {"flood": {"command": sys.executable, "args": [str(script)]}})
    code, out, err, wall, usage = run_cli(
        "discover", str(path), "--json", "--timeout", "2", env={"TMPDIR": str(tmp_path)}
    )
    assert code == 1, err
    flood = errors_of(out)["flood"]
    assert flood["error"].startswith(f"timed out after 2s waiting for {HANDSHAKE} (stderr: xxx")
    assert len(flood["error"]) < 400  # the last line's end, not the flood
    # The server's own time is the timeout plus teardown (2.1 s on a quiet machine); the room
    # above that is for a 2-core machine shared by many test workers (load 16 seen), where the
    # reader thread draining gigabytes competes for the CPU.
    assert flood["elapsed"] < 4.0, flood["elapsed"]
    # The whole CLI, Python start-up included (about 3 s of it under that load).
    assert wall < 20, wall
    assert usage.peak_rss_kib < 250 * 1024, f"peak RSS {usage.peak_rss_kib / 1024:.0f} MiB"
    # No temporary file swallows the flood (it was gigabytes): under 16 MiB dirtied on disk.
    assert usage.blocks_written * 512 < 16 * 1024 * 1024, usage.blocks_written
    assert "Traceback" not in err


ENDLESS = {
    # A JSON answer that never closes its list of tools.
    "json": (
        b"application/json",
        b'{"jsonrpc": "2.0", "id": 0, "result": {"tools": [',
        b'{"name": "t", "inputSchema": {"type": "object"}},' * 1024,
    ),
    # An event stream of small, valid notifications that never gets to the answer.
    "sse": (
        b"text/event-stream",
        b"",
        b'event: message\ndata: {"jsonrpc": "2.0", "method": "notifications/message", '
        b'"params": {"level": "info", "data": "still working"}}\n\n' * 256,
    ),
}


@contextmanager
def endless_server(kind: str = "json") -> Iterator[int]:
    """A socket on 127.0.0.1 answering every HTTP request with a body that never ends."""
    content_type, head, item = ENDLESS[kind]
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    listener.settimeout(0.2)
    stop = threading.Event()
    served: list[int] = []

    def serve(conn: socket.socket) -> None:
        with conn:
            conn.settimeout(5)
            data = b""
            while b"\r\n\r\n" not in data:
                chunk = conn.recv(65536)
                if not chunk:
                    return
                data += chunk
            conn.sendall(b"HTTP/1.0 200 OK\r\nContent-Type: " + content_type + b"\r\n\r\n" + head)
            sent = 0
            try:
                while not stop.is_set():
                    conn.sendall(item)
                    sent += len(item)
            except OSError:
                pass  # the client hung up: what the cap is for
            served.append(sent)

    def accept() -> None:
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            threading.Thread(target=serve, args=(conn,), daemon=True).start()

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield listener.getsockname()[1]
    finally:
        stop.set()
        listener.close()
        thread.join(5)


@pytest.mark.parametrize(
    ("kind", "cap", "shown"), [("json", None, "64 MiB"), ("json", "2", "2 MiB"), ("sse", "1", "1 MiB")]
)
def test_an_http_body_that_never_ends_is_cut_at_the_cap(tmp_path: Path, kind: str, cap: str | None, shown: str) -> None:
    """The issue: a JSON body that never ends was buffered at 700 MB/s until the timeout. An
    event stream of small events (each under the SDK's 1 MiB event cap) is cut the same way."""
    env = {"TOOLSCOPE_MCP_MAX_BODY_MIB": cap} if cap else {}
    with endless_server(kind) as port:
        path = config(tmp_path, {"endless": {"url": f"http://127.0.0.1:{port}/mcp"}})
        code, out, err, wall, usage = run_cli("discover", str(path), "--json", "--timeout", "60", env=env)
    assert code == 1, err
    endless = errors_of(out)["endless"]
    # The SDK handles each small event (about 1,500 a second here), so its 10 s server/discover
    # probe may give up first: then the cap is met while it waits for initialize.
    phases = (HANDSHAKE, "initialize") if kind == "sse" else (HANDSHAKE,)
    assert endless["error"] in [
        f"{phase} failed: the server's answer is larger than {shown} (the cap; TOOLSCOPE_MCP_MAX_BODY_MIB sets it)"
        for phase in phases
    ]
    assert endless["elapsed"] < 45, endless["elapsed"]  # cut at the cap, before the 60 s timeout
    assert usage.peak_rss_kib < 500 * 1024, f"peak RSS {usage.peak_rss_kib / 1024:.0f} MiB"
    assert "Traceback" not in err


def test_a_bad_body_cap_is_bad_input_before_any_server_starts(tmp_path: Path) -> None:
    marker = tmp_path / "started"
    path = config(tmp_path, {"s": {"command": "touch", "args": [str(marker)]}})
    code, _out, err, _wall, _usage = run_cli("discover", str(path), env={"TOOLSCOPE_MCP_MAX_BODY_MIB": "lots"})
    assert code == 2
    assert "TOOLSCOPE_MCP_MAX_BODY_MIB" in err and "expected a positive number of MiB" in err and "'lots'" in err
    assert not marker.exists()
    assert "Traceback" not in err


# --- class 6: each failure gets its own truthful reason -------------------------------------

EXPECTED = {
    "closeout": f"{HANDSHAKE} failed: the server closed its stdout but kept running, so it can never answer",
    "deep": "tools/list failed: the server wrote a message nested too deeply to read "
    "(past the JSON parser's depth limit) on stdout",
    "notjson": f"{HANDSHAKE} failed: the server wrote a line that is not JSON on stdout: "
    '"Starting \\x1b[31mserver\\x1b[0m on port 8080"',
    "exit0": f"failed to start: process exited cleanly (code 0) before answering {HANDSHAKE}",
    "sigkill": "crashed: process was killed by SIGKILL (signal 9) during tools/list",
    "sigterm": "crashed: process was killed by SIGTERM (signal 15) during tools/list",
}


def test_each_failure_gets_its_own_reason(tmp_path: Path) -> None:
    modes = [*EXPECTED, "stray", "strayonce"]
    path = config(tmp_path, {m: {"command": sys.executable, "args": [str(RAW_SERVER), m]} for m in modes})
    code, out, err, _wall, _usage = run_cli("discover", str(path), "--json", "--timeout", "20")
    assert code == 1, err
    servers = errors_of(out)
    for mode, reason in EXPECTED.items():
        assert servers[mode]["error"] == reason, mode
    # An answer to no request of ours: named with its id, after a 2 s grace, long before the timeout.
    stray = servers["stray"]
    assert stray["error"].startswith(f"{HANDSHAKE} failed: the server answered request id 10")
    assert "which no request had" in stray["error"]
    assert stray["elapsed"] < 10, stray["elapsed"]
    # One stray answer, then real ones: forgiven, even when the next answer takes longer than the grace.
    assert servers["strayonce"]["error"] is None and [t["name"] for t in servers["strayonce"]["tools"]] == ["t"]
    # The server that closed its stdout is found out at once, not after the SDK's 2 s + 2 s shutdown.
    assert servers["closeout"]["elapsed"] < 4, servers["closeout"]["elapsed"]
    assert "exited with code -15" not in out  # the SDK's own SIGTERM is never a server's crash
    assert "Traceback" not in err and "Failed to parse" not in err


def test_a_non_json_line_is_inert_in_the_terminal(tmp_path: Path) -> None:
    path = config(tmp_path, {"notjson": {"command": sys.executable, "args": [str(RAW_SERVER), "notjson"]}})
    code, out, err, _wall, _usage = run_cli("discover", str(path), "--timeout", "20")
    assert code == 1, err
    assert "\x1b" not in out
    assert '"Starting \\x1b[31mserver\\x1b[0m on port 8080"' in out.replace("\n    ", " ")
