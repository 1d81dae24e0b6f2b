"""``toolscope capture -- COMMAND`` ending a command that ignores the signal: after the grace
period the command and everything it started are killed (the real processes, read back with psutil)."""

from __future__ import annotations

import contextlib
import os
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


def _ended(process: psutil.Process, seconds: float) -> bool:
    """Whether ``process`` has ended within ``seconds``. Killed, the grandchild is an orphan: it is
    reaped by whoever adopts it, and until then it is a zombie (``is_running()`` stays true). The
    adopter is init, which may reap late on a loaded machine, or this worker when an in-process
    discovery made it a child subreaper (core/mcp/processes.py); then it is reaped here."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if process.status() == psutil.STATUS_ZOMBIE:
                if process.ppid() == os.getpid():
                    os.waitpid(process.pid, 0)
                return True
        except psutil.NoSuchProcess:
            return True
        time.sleep(0.02)
    return False


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
        assert _ended(grandchild, 10), grandchild
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_the_children_of_a_shell_that_dies_first_are_ended_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, signum: int
) -> None:
    """sh dies of the signal at once; its background sleep ignores SIGINT (a non-interactive
    shell's ``&`` job does) and is never sent SIGTERM by sh: both must still end."""
    monkeypatch.setattr(command, "GRACE_SECONDS", 1.5)
    child = subprocess.Popen(["sh", "-c", "sleep 300 & echo $! > grandchild; wait"], cwd=tmp_path)
    try:
        deadline = time.monotonic() + 30
        while (pid := _written_pid(tmp_path / "grandchild")) is None:
            assert time.monotonic() < deadline, "the command never started its grandchild"
            time.sleep(0.02)
        grandchild = psutil.Process(pid)
        command._end(child, signum)
        assert child.returncode == -signum  # the shell ended by the signal, not killed
        assert _ended(grandchild, 10), grandchild
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
        with contextlib.suppress(ProcessLookupError, NameError):
            os.kill(pid, signal.SIGKILL)
