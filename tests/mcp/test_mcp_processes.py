"""Process trees through psutil: descendants, and kill_known's pid-reuse check, on real processes."""

from __future__ import annotations

import subprocess
import sys
import time

from toolscope.core.mcp.processes import descendants, kill_known, start_time


def sleeper() -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])


def test_kill_known_never_signals_a_pid_whose_start_time_differs() -> None:
    # A recorded (pid, start) whose pid now names another process (pid reuse) must be left alone.
    process = sleeper()
    try:
        start = start_time(process.pid)
        assert start is not None
        kill_known({(process.pid, start - 5.0)})
        time.sleep(0.1)
        assert process.poll() is None, "kill_known killed a process that only shares the pid"
        kill_known({(process.pid, start)})
        assert process.wait(timeout=5) == -9
    finally:
        process.kill()
        process.wait()


def test_descendants_include_grandchildren_with_their_start_times() -> None:
    parent = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import subprocess, sys, time; subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'],"
            " start_new_session=True); time.sleep(60)",
        ]
    )
    try:
        deadline = time.monotonic() + 10
        found: set = set()
        while time.monotonic() < deadline and not found:
            found = descendants(parent.pid)
            time.sleep(0.05)
        assert len(found) == 1
        ((pid, start),) = found
        assert start == start_time(pid)
        kill_known(found)
    finally:
        parent.kill()
        parent.wait()
    assert not descendants(parent.pid)
