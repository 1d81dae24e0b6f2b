"""A long capture replay (``step TOOLKIT --capture``) shows its progress on a terminal's stderr,
redrawn at a bounded rate, and ends with the count of requests replayed."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
from pathlib import Path

FIXTURE = Path(__file__).parent / "fixtures" / "agentscope_seed.capture.jsonl"
TOOLKIT = "sample_configs/agentscope/toolkit.yaml"


def _long_capture(path: Path, requests: int) -> None:
    """The recorded seed capture's requests, repeated (renumbered) up to ``requests``."""
    recorded = [json.loads(line) for line in FIXTURE.read_text().splitlines()]
    lines = [json.dumps({**recorded[i % len(recorded)], "index": i + 1}) for i in range(requests)]
    path.write_text("\n".join(lines) + "\n")


def _stderr_on_a_terminal(command: list[str]) -> tuple[int, str]:
    controller, terminal = pty.openpty()
    try:
        done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=terminal, timeout=300)
        os.close(terminal)
        terminal = -1
        chunks = []
        while True:
            try:
                chunk = os.read(controller, 65536)
            except OSError:  # the other side is closed: everything was read
                break
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        os.close(controller)
        if terminal != -1:
            os.close(terminal)
    return done.returncode, b"".join(chunks).decode("utf-8")


def test_a_capture_replay_shows_its_progress_and_a_final_count(tmp_path: Path) -> None:
    capture = tmp_path / "long.jsonl"
    _long_capture(capture, 400)
    status, stderr = _stderr_on_a_terminal(
        [sys.executable, "-m", "toolscope", "step", TOOLKIT, "--capture", str(capture)]
    )
    assert status == 0, stderr
    draws = [part for part in stderr.split("\r") if part.startswith("replaying request ")]
    assert draws and draws[-1].startswith("replaying request 400/400 (Ctrl-C stops)"), stderr[-500:]
    assert len(draws) <= 400 // 2 + 2  # redrawn at most five times a second, not once per request
    assert "replayed 400 requests" in stderr


def test_a_short_capture_replay_draws_nothing_on_a_terminal() -> None:
    """Four requests replay at once: a "replayed 4 requests" line sat above check's answer."""
    status, stderr = _stderr_on_a_terminal(
        [sys.executable, "-m", "toolscope", "step", TOOLKIT, "--capture", str(FIXTURE)]
    )
    assert status == 0, stderr
    assert "replay" not in stderr, stderr
