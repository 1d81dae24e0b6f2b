"""Hostile corpus: processes and user code.

SIGTERM during ``discover`` ends every server and its descendants (a grandchild in a session
of its own too); a factory cannot corrupt ``--json`` stdout nor fake a green ``check`` with
``os._exit(0)``. Everything runs the real CLI in a subprocess: signals and file descriptors
are the point.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(not os.path.isdir("/proc"), reason="process checks read /proc (Linux)")

SERVER = """
import os, subprocess, sys, time
pidfile, exit_at_once = sys.argv[1], sys.argv[2] == "exit"
child = subprocess.Popen(["sleep", "300"])
own_session = subprocess.Popen(["sleep", "301"], start_new_session=True)
with open(pidfile + ".tmp", "w") as fh:
    fh.write(f"{os.getpid()} {child.pid} {own_session.pid}")
os.rename(pidfile + ".tmp", pidfile)
if exit_at_once:
    os._exit(0)  # the grandchildren are orphans at once
time.sleep(300)
"""


def toolscope(*args: str, **kwargs) -> subprocess.Popen:  # noqa: ANN003
    return subprocess.Popen(
        [sys.executable, "-m", "toolscope", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kwargs
    )


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] not in {"Z", "X"}
    except (FileNotFoundError, ProcessLookupError):
        return False


def wait_for(path: Path, limit: float = 20) -> None:
    deadline = time.monotonic() + limit
    while not path.exists():
        assert time.monotonic() < deadline, f"{path} never appeared"
        time.sleep(0.02)


def server_config(tmp_path: Path, mode: str) -> tuple[Path, Path]:
    script = tmp_path / "server.py"
    script.write_text(SERVER)
    pids = tmp_path / "pids"
    config = tmp_path / "mcp.json"
    config.write_text(
        json.dumps({"mcpServers": {"s": {"command": sys.executable, "args": [str(script), str(pids), mode]}}})
    )
    return config, pids


def test_sigterm_during_discover_ends_every_server_process(tmp_path: Path) -> None:
    config, pids = server_config(tmp_path, "hang")
    process = toolscope("discover", str(config), "--timeout", "60")
    try:
        wait_for(pids)
        time.sleep(0.3)  # a watchdog tick or more: the grandchild has been seen
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=20)
    finally:
        process.kill()
    assert process.returncode == -signal.SIGTERM, process.stderr.read() if process.stderr else ""
    numbers = [int(n) for n in pids.read_text().split()]
    deadline = time.monotonic() + 5
    while any(alive(pid) for pid in numbers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert [pid for pid in numbers if alive(pid)] == []


def test_orphans_of_a_server_that_exits_at_once_are_ended(tmp_path: Path) -> None:
    config, pids = server_config(tmp_path, "exit")
    process = toolscope("discover", str(config), "--timeout", "10")
    _out, err = process.communicate(timeout=60)
    assert process.returncode == 1, err
    numbers = [int(n) for n in pids.read_text().split()]
    assert [pid for pid in numbers if alive(pid)] == []


FACTORY = """
import os, subprocess, sys, threading, time
from agentscope.tool import Toolkit

def late_printer():
    time.sleep(0.05)
    print("late print from a thread", flush=True)

def build():
    os.write(1, b"raw bytes on fd 1\\n")
    subprocess.run(["echo", "a child process on fd 1"], check=True)
    threading.Thread(target=late_printer).start()
    return Toolkit()

def exits():
    os._exit(0)
"""


@pytest.fixture
def factory(tmp_path: Path) -> Path:
    path = tmp_path / "factory_mod.py"
    path.write_text(textwrap.dedent(FACTORY))
    return path


@pytest.mark.agentscope
@pytest.mark.parametrize("command", [["tools", "--json"], ["check", "--json"]])
def test_factory_output_never_reaches_json_stdout(factory: Path, command: list[str]) -> None:
    process = toolscope(command[0], f"{factory}:build", *command[1:])
    out, err = process.communicate(timeout=120)
    assert process.returncode in (0, 1), err
    json.loads(out)  # one JSON document, nothing else
    assert "raw bytes on fd 1" in err and "a child process on fd 1" in err


@pytest.mark.agentscope
def test_os_exit_zero_in_a_factory_is_never_a_green_check(factory: Path) -> None:
    process = toolscope("check", f"{factory}:exits", "--expect", "visible:anything")
    _out, err = process.communicate(timeout=120)
    assert process.returncode == 3, err
    assert "os._exit(0)" in err


# --- discovery failure reasons say what happened ------------------------------------------

RAW_SERVER = Path(__file__).resolve().parent / "raw_mcp_server.py"


def test_discovery_failure_reasons_are_accurate(tmp_path: Path) -> None:
    config = tmp_path / "mcp.json"
    modes = ("badlist", "loop", "nonutf8", "banner")
    config.write_text(
        json.dumps({"mcpServers": {m: {"command": sys.executable, "args": [str(RAW_SERVER), m]} for m in modes}})
    )
    process = toolscope("discover", str(config), "--json", "--timeout", "20")
    out, err = process.communicate(timeout=60)
    assert process.returncode == 1, err
    errors = {server["name"]: server["error"] for server in json.loads(out)["servers"]}
    assert (
        errors["badlist"]
        == "tools/list failed: the server's answer is not valid MCP (tools: Input should be a valid list)"
    )
    assert errors["loop"] == "tools/list failed: pagination loop: cursor 'same' returned twice"
    assert errors["nonutf8"] == "initialize failed: the server wrote bytes that are not UTF-8 on stdout"
    assert errors["banner"] is None  # a banner on stdout is skipped, as the SDK does
    assert "Traceback" not in err and "Failed to parse" not in err
