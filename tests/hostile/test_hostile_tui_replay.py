"""Hostile corpus: a long recorded session in the terminal app, in a real tmux pane.

``inspect --session`` on a session of thousands of turns (the real recording tiled) used to
show a blank screen for the whole replay and to quit only once it was over (14-55 s after
``q`` or SIGTERM). The view now paints first, shows the replay's progress in the turn list's
title, and ``q`` or SIGTERM (``os.kill`` on the real process) end it between two turns.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_hostile_user_code import TOOLKIT, long_session  # noqa: E402  (the real recording, tiled)

pytestmark = [pytest.mark.agentscope, pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")]


class Pane:
    """A private tmux server (its own socket) running one command in an 80x24 pane."""

    def __init__(self, socket: str, command: list[str]) -> None:
        self.socket = socket
        self.tmux("new-session", "-d", "-x", "80", "-y", "24", "-s", "t", " ".join(command))

    def tmux(self, *args: str) -> str:
        return subprocess.run(
            ["tmux", "-L", self.socket, *args], capture_output=True, text=True, timeout=10, check=False
        ).stdout

    def text(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", "t")

    def pid(self) -> int:
        return int(self.tmux("display-message", "-p", "-t", "t", "#{pane_pid}").strip())

    def wait_for(self, needle: str, seconds: float) -> bool:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if needle in self.text():
                return True
            time.sleep(0.1)
        return False

    def close(self) -> None:
        self.tmux("kill-server")


def _running(pid: int) -> bool:
    """Whether the app's process still runs. An ended one can linger as a zombie: tmux's server
    exits with its last pane, so the process is reaped later by whoever adopts it, and
    ``os.kill(pid, 0)`` still succeeds on it (seen in the full suite, never alone)."""
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


@pytest.mark.parametrize("how", ["q", "SIGTERM"])
def test_a_long_session_paints_its_progress_and_quits_at_once(tmp_path: Path, how: str) -> None:
    session = long_session(tmp_path / "long.json", 1500)  # 3,000 reset_tools calls
    script = f"cd {tmp_path} && exec {sys.executable} -m toolscope inspect {TOOLKIT} --session {session}"
    pane = Pane(f"toolscope-test-{os.getpid()}-{how}", ["sh", "-c", repr(script)])
    try:
        pid = pane.pid()
        # Start-up on a loaded machine (AgentScope's import alone is seconds): a wide bound.
        assert pane.wait_for("reset_tools calls (q quits)", 90), pane.text()
        assert "replaying" in pane.text()
        sent = time.monotonic()
        if how == "q":
            pane.tmux("send-keys", "-t", "t", "q")
        else:
            os.kill(pid, signal.SIGTERM)
        while time.monotonic() - sent < 10:
            if not _running(pid):
                break
            time.sleep(0.05)
        else:
            pytest.fail(f"still running 10 s after {how}:\n{pane.text()}")
        assert time.monotonic() - sent < 5
        assert "Traceback" not in pane.text()
    finally:
        pane.close()
