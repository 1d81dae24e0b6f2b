"""A misspelled --mode on a coding-agent CLI input, through the real CLI (subprocess): exit 2,
the option named, a did-you-mean, and the modes there are (as AgentWorks and AgentScope inputs do)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def _tools(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "toolscope", "tools", *args],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_a_misspelled_codex_approval_policy_gets_a_did_you_mean(tmp_path: Path) -> None:
    (tmp_path / "cx").mkdir()
    done = _tools(
        tmp_path,
        "codex:.",
        "--codex-home",
        str(tmp_path / "cx"),
        "--codex-system-dir",
        str(tmp_path / "none"),
        "--mode",
        "on-requst",
    )
    assert done.returncode == 2, done.stderr
    assert "unknown Codex approval policy 'on-requst' (did you mean on-request?)" in done.stderr, done.stderr
    assert "never, on-request, untrusted" in done.stderr and "Traceback" not in done.stderr


def test_a_misspelled_claude_code_permission_mode_gets_a_did_you_mean(tmp_path: Path) -> None:
    home = tmp_path / "home"
    (home / ".claude").mkdir(parents=True)
    (home / ".claude.json").write_text("{}")
    done = _tools(
        tmp_path, "claude-code:.", "--home", str(home), "--managed-dir", str(tmp_path / "none"), "--mode", "planm"
    )
    assert done.returncode == 2, done.stderr
    assert "unknown Claude Code permission mode 'planm' (did you mean plan?)" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr
