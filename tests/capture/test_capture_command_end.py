"""``toolscope capture -- COMMAND`` ending a command that ignores the signal: after the grace
period the command and everything it started are killed (the real processes, read back with psutil)."""

from __future__ import annotations

import signal
import subprocess
import time
from pathlib import Path

import psutil
import pytest

from toolscope.core.capture import command


def _written_pid(path: Path) -> int | None:
    try:
        text = path.read_text().strip()
    except FileNotFoundError:
        return None
    return int(text) if text.isdigit() else None


def test_a_command_that_ignores_sigterm_is_killed_with_its_grandchild(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(command, "GRACE_SECONDS", 0.3)
    # sh ignores SIGTERM, and so does the sleep it starts (an ignored signal stays ignored across exec).
    child = subprocess.Popen(["sh", "-c", "trap '' TERM; sleep 300 & echo $! > grandchild; wait"], cwd=tmp_path)
    try:
        deadline = time.monotonic() + 30
        while (pid := _written_pid(tmp_path / "grandchild")) is None:
            assert time.monotonic() < deadline, "the command never started its grandchild"
            time.sleep(0.02)
        grandchild = psutil.Process(pid)
        started = time.monotonic()
        command._end(child, signal.SIGTERM)
        assert time.monotonic() - started < 10
        assert child.returncode == -signal.SIGKILL  # it outlived the grace period and was killed
        grandchild.wait(timeout=10)  # reaped by init once killed; raises TimeoutExpired if it lives on
        assert not grandchild.is_running()
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
