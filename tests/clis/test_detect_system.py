"""A plain folder as CONFIG: toolscope looks at which agents' files are in it (each system's markers
in core.systems.registry), through the real CLI (subprocess)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "toolscope", *args], cwd=cwd, capture_output=True, text=True, timeout=60
    )


def claude_project(tmp_path: Path) -> tuple[Path, tuple[str, ...]]:
    """A project with a .mcp.json, and options pointing Claude Code at an empty home."""
    home, proj = tmp_path / "home", tmp_path / "proj"
    (home / ".claude").mkdir(parents=True)
    (home / ".claude.json").write_text("{}")
    proj.mkdir()
    (proj / ".mcp.json").write_text(json.dumps({"mcpServers": {}}))
    return proj, ("--home", str(home), "--managed-dir", str(tmp_path / "none"))


def codex_options(tmp_path: Path) -> tuple[str, ...]:
    (tmp_path / "cx").mkdir()
    (tmp_path / "cx" / "config.toml").write_text('model = "gpt-5"\n')
    return ("--codex-home", str(tmp_path / "cx"), "--codex-system-dir", str(tmp_path / "none"))


def test_a_folder_with_claude_code_files_is_claude_code(tmp_path: Path) -> None:
    proj, options = claude_project(tmp_path)
    plain = run("tools", str(proj), *options, "--json", cwd=tmp_path)
    prefixed = run("tools", f"claude-code:{proj}", *options, "--json", cwd=tmp_path)
    assert plain.returncode == 0, plain.stderr
    assert json.loads(plain.stdout)["input"] == "claude_code"
    assert plain.stdout == prefixed.stdout


def test_a_claude_folder_is_enough(tmp_path: Path) -> None:
    proj, options = claude_project(tmp_path)
    (proj / ".mcp.json").unlink()
    (proj / ".claude").mkdir()
    done = run("tools", str(proj), *options, "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["input"] == "claude_code"


def test_a_folder_with_codex_files_is_codex(tmp_path: Path) -> None:
    proj = tmp_path / "proj"
    (proj / ".codex").mkdir(parents=True)
    options = codex_options(tmp_path)
    plain = run("tools", str(proj), *options, "--json", cwd=tmp_path)
    assert plain.returncode == 0, plain.stderr
    assert json.loads(plain.stdout)["input"] == "codex"
    assert plain.stdout == run("tools", f"codex:{proj}", *options, "--json", cwd=tmp_path).stdout


def test_a_folder_with_two_agents_files_names_the_prefixes(tmp_path: Path) -> None:
    proj, _ = claude_project(tmp_path)
    (proj / ".codex").mkdir()
    done = run("tools", "proj", cwd=tmp_path)
    assert done.returncode == 2
    assert "several agents" in done.stderr
    assert "claude-code:proj" in done.stderr and "codex:proj" in done.stderr
    assert ".mcp.json" in done.stderr and ".codex/" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_folder_with_no_agents_files_says_what_it_looked_for(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    done = run("tools", "empty", cwd=tmp_path)
    assert done.returncode == 2
    assert "no agent's files" in done.stderr
    assert ".mcp.json" in done.stderr and ".claude/" in done.stderr and ".codex/" in done.stderr
    assert "claude-code:DIR" in done.stderr and "codex:DIR" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_near_miss_prefix_gets_a_did_you_mean(tmp_path: Path) -> None:
    (tmp_path / "proj").mkdir()
    for given, meant in (("claude:proj", "claude-code:proj"), ("claude:", "claude-code:"), ("codx:proj", "codex:proj")):
        done = run("tools", given, cwd=tmp_path)
        assert done.returncode == 2, given
        assert f"did you mean {meant}?" in done.stderr, done.stderr
        assert "Traceback" not in done.stderr


def test_a_factory_is_not_a_near_miss(tmp_path: Path) -> None:
    """``module:function`` whose module looks like a prefix stays a toolkit factory."""
    done = run("tools", "claude:build", cwd=tmp_path)
    assert "did you mean" not in done.stderr
    assert done.returncode == 2
