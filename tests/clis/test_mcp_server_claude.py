"""``toolscope mcp`` inside the real Claude Code: the scripted model calls ``mcp__toolscope__why_not``,
Claude Code runs it against ``toolscope mcp`` (started from ``--mcp-config``), and the answer, the very
text ``toolscope explain`` prints, reaches the model's next request (read from the capture).

Slow lane (marker ``clis``): needs Claude Code 2.1.332 installed by ``.ci/clis.sh`` (``CLIS_NPM_DIR``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from cli_runner import bin_path, claude_env, message_text, run_captured, skip_unless_runnable

from toolscope.core.capture.reader import read_capture

pytestmark = [pytest.mark.clis, pytest.mark.timeout(600)]

SEED = Path(__file__).resolve().parents[2] / "sample_configs" / "seed" / "step_config.json"
SERVE = [sys.executable, "-m", "toolscope", "mcp", str(SEED), "--mode", "build"]
WIDTH = {"COLUMNS": "100"}
"""The server's width and explain's, the same whatever Claude Code passes its servers."""


def explain_text() -> str:
    """What ``toolscope explain`` prints for the seed's notify_user in mode build."""
    done = subprocess.run(
        [sys.executable, "-m", "toolscope", "explain", str(SEED), "notify_user", "--mode", "build"],
        env={**os.environ, **WIDTH},
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 1, done.stderr  # hidden: exit 1
    return done.stdout


def test_why_not_reaches_the_model(tmp_path: Path) -> None:
    skip_unless_runnable("claude", "Claude Code", False, "")
    (tmp_path / "proj").mkdir()
    (tmp_path / "home").mkdir()
    config = tmp_path / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {"toolscope": {"command": SERVE[0], "args": SERVE[1:], "env": WIDTH}}}))
    call = {"name": "mcp__toolscope__why_not", "arguments": {"tool": "notify_user"}}
    flags = ["--strict-mcp-config", "--mcp-config", str(config), "--allowedTools", "mcp__toolscope__why_not"]
    capture = run_captured(
        [str(bin_path("claude")), "-p", "why can I not call notify_user?", *flags],
        tmp_path,
        claude_env(tmp_path, {}),
        [{"tool_calls": [call]}, {"text": "done"}],
    )
    records = [r for r in read_capture(capture).records if r.protocol == "anthropic-messages"]
    client_out = (tmp_path / "client.out").read_text()
    name = call["name"]
    offered = [r for r in records if name in {t.name for t in r.tools} or name in r.deferred_names]
    assert offered, client_out
    after = records[records.index(offered[0]) + 1 :]
    assert after, client_out
    sent = message_text(after[0])
    expected = explain_text()
    assert "tool notify_user in mode build: HIDDEN" in expected
    # The tool result as the model received it: explain's text, whole (JSON-encoded in the capture).
    assert json.dumps(expected.strip(), ensure_ascii=False)[1:-1] in sent, sent[-3000:]
