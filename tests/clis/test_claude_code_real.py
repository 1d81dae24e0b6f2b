"""The Claude Code model against the real binary: for every matrix case, the real ``claude -p`` runs
under ``toolscope capture``, then ``toolscope tools claude-code:DIR --capture FILE --json`` runs as a
subprocess, and every request must agree: the MCP tools offered (in full or deferred, by name) and,
for a scripted call, whether the binary ran it.

Slow lane (marker ``clis``): needs Claude Code 2.1.332 installed by ``.ci/clis.sh``
(``CLIS_NPM_DIR``); skipped otherwise. Where they disagree, the binary is right.
"""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest
from claude_matrix import CASES, Case
from cli_runner import (
    bin_path,
    capture_problems,
    claude_env,
    git_setup,
    run_captured,
    skip_unless_runnable,
    toolscope_check,
    toolscope_tools,
    write_case,
)

from toolscope.core.capture.reader import read_capture

pytestmark = [pytest.mark.clis, pytest.mark.timeout(600)]  # one real CLI run takes 5-60 s, more on a loaded machine


def _args(case: Case, root: Path) -> list[str]:
    return [a.replace("$D", str(root)) for a in case.args]


def run_case(case: Case, root: Path) -> tuple[list[str], dict[str, Any]]:
    """Run the binary under capture, then toolscope on the same files: (problems, the tools document)."""
    claude = bin_path("claude")
    git_setup(root, case.git, case.worktrees)
    write_case(case.files, root)
    env = {k: v.replace("$PY", sys.executable) for k, v in claude_env(root, case.env).items() if k not in case.unset}
    replies = [{"tool_calls": [{"name": case.call}]}, {"text": "done"}] if case.call else None
    capture = run_captured([str(claude), "-p", "hi", *_args(case, root)], root, env, replies, cwd=case.cwd)
    if case.read_before:
        _restore(case, root)
    records = [r for r in read_capture(capture).records if r.protocol == "anthropic-messages"]
    assert records, (root / "client.out").read_text()
    if case.call:
        assert len(records) >= 2, (root / "client.out").read_text()
    options = ["--home", str(root / "home"), "--managed-dir", str(root / "etc" / "claude-code")]
    options += ["--client-args", shlex.join(["-p", *_args(case, root)])]
    document = toolscope_tools("claude-code:.", options, capture, env, root / case.cwd)
    return capture_problems(document, case.call), document


def _restore(case: Case, root: Path) -> None:
    """The files as they were before the run: Claude Code's first run from a subfolder moves
    ``~/.claude.json``'s enable/disable lists into the git root's ``.claude/settings.local.json``."""
    for repo in case.git:
        moved = root / repo / ".claude" / "settings.local.json"
        if moved.exists() and f"{repo}/.claude/settings.local.json" not in case.files:
            moved.unlink()
    write_case(case.files, root)


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_prediction_equals_capture(case: Case, tmp_path: Path) -> None:
    skip_unless_runnable("claude", "Claude Code", case.managed, "/etc/claude-code")
    problems, document = run_case(case, tmp_path)
    assert problems == [], problems
    assert document["capture"]["agrees"] is True
    # A value ${VAR} took from the environment is never written into a report.
    secrets = [v for k, v in case.env.items() if "SECRET" in k]
    assert not [s for s in secrets if s in json.dumps(document, ensure_ascii=False)]


def test_mcp_config_beside_managed_mcp_exits_before_any_request(tmp_path: Path) -> None:
    """Claude Code exits 1 before any request; toolscope's check names the cause and its fix."""
    skip_unless_runnable("claude", "Claude Code", True, "/etc/claude-code")
    files = {
        "home/.claude.json": {"mcpServers": {"u": {"command": "$PY", "args": ["$RAW", "x"]}}},
        "etc/claude-code/managed-mcp.json": {"mcpServers": {"m": {"command": "$PY", "args": ["$RAW", "y"]}}},
        "cfg.json": {"mcpServers": {"d": {"command": "$PY", "args": ["$RAW", "z"]}}},
    }
    write_case(files, tmp_path)
    env = claude_env(tmp_path, {})
    flags = ["--mcp-config", str(tmp_path / "cfg.json")]
    capture = run_captured([str(bin_path("claude")), "-p", "hi", *flags], tmp_path, env, None)
    out = (tmp_path / "client.out").read_text()
    assert "enterprise MCP config is present" in out, out
    assert not [r for r in read_capture(capture).records if r.protocol == "anthropic-messages"]
    options = ["--home", str(tmp_path / "home"), "--managed-dir", str(tmp_path / "etc" / "claude-code")]
    done = toolscope_check(
        ["claude-code:.", *options, "--client-args", shlex.join(["-p", *flags])], env, tmp_path / "proj"
    )
    kinds = [f["kind"] for f in done["findings"]]
    assert kinds.count("mcp_config_fatal") == 1, kinds
    fatal = next(f for f in done["findings"] if f["kind"] == "mcp_config_fatal")
    assert "exit 1" in fatal["message"] and "drop --mcp-config" in fatal["message"]


def test_check_names_a_server_slower_than_the_grace_with_its_fix(tmp_path: Path) -> None:
    """The same setup as the case ``slow_server_missing_from_first_request`` (which the binary confirmed):
    ``check --discover`` measures the server and names the cause and the fix. Wide margin: 7 s against 1.5 s."""
    case = next(c for c in CASES if c.id == "slow_server_missing_from_first_request")
    write_case(case.files, tmp_path)
    env = {k: v for k, v in claude_env(tmp_path, {}).items() if k not in case.unset}
    options = ["--home", str(tmp_path / "home"), "--managed-dir", str(tmp_path / "none"), "--client-args", "-p"]
    done = toolscope_check(["claude-code:.", *options, "--discover"], env, tmp_path / "proj")
    slow = [f for f in done["findings"] if f["kind"] == "slow_server" and f["severity"] == "error"]
    # Only the slow one for sure: on a loaded machine the fast one may measure close to the grace too.
    assert "slow" in [f["entry"] for f in slow], done["findings"]
    slow = [f for f in slow if f["entry"] == "slow"]
    assert "CLAUDE_CODE_MCP_STARTUP_WAIT_MS" in slow[0]["message"] and "first request" in slow[0]["message"]
