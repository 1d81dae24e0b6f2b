"""Which folder is Claude Code's project, which settings apply, which model (observed with 2.1.332 in
``experiments/x_claude_scopes.py`` A_ and D_, re-run by the lane's ``git_subdir_*`` / ``worktree_*`` /
``model_*`` / ``setting_sources_*`` cases). Files only: no server is started here."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from toolscope.core.systems.claude_code.args import parse_client_args
from toolscope.core.systems.claude_code.files import load_claude_files
from toolscope.core.systems.claude_code.tools import session_model

GIT = ["git", "-c", "user.email=t@example.invalid", "-c", "user.name=t", "-c", "init.defaultBranch=main"]


def _write(path: Path, data: object) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data), encoding="utf-8")


def _repo(root: Path) -> Path:
    repo = root / "repo"
    repo.mkdir()
    subprocess.run([*GIT, "init", "-q"], cwd=repo, check=True)
    subprocess.run([*GIT, "commit", "-q", "--allow-empty", "-m", "i"], cwd=repo, check=True)
    return repo


def _files(cwd: Path, home: Path, client_args: str = "-p"):
    return load_claude_files(cwd, home, home / "none", parse_client_args(client_args))


def test_git_subdir_reads_the_roots_local_settings_and_the_cwds_project_settings(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    _write(repo / ".claude" / "settings.local.json", {"model": "claude-3-5-haiku-20241022"})
    _write(repo / ".claude" / "settings.json", {"model": "claude-opus-5-5"})
    _write(repo / "sub" / ".claude" / "settings.json", {"model": "claude-sonnet-4-5"})
    _write(repo / "sub" / ".claude" / "settings.local.json", {})
    files = _files(repo / "sub", tmp_path / "home")
    assert files.project_key == str(repo.resolve())
    shown = [(s.scope, s.file.path) for s in files.settings]
    assert shown == [
        ("project", repo / "sub" / ".claude" / "settings.json"),
        ("local", repo / ".claude" / "settings.local.json"),
        ("local", repo / "sub" / ".claude" / "settings.local.json"),
    ]
    # local beats project beats user; ANTHROPIC_MODEL beats them all; --model beats that
    assert session_model(files, parse_client_args("-p"), {}) == "claude-3-5-haiku-20241022"
    assert session_model(files, parse_client_args("-p"), {"ANTHROPIC_MODEL": "m-env"}) == "m-env"
    assert session_model(files, parse_client_args("-p --model m-flag"), {"ANTHROPIC_MODEL": "m-env"}) == "m-flag"


def test_user_model_loses_to_the_project_one(tmp_path: Path) -> None:
    home, proj = tmp_path / "home", tmp_path / "proj"
    _write(home / ".claude" / "settings.json", {"model": "claude-3-5-haiku-20241022"})
    _write(proj / ".claude" / "settings.json", {"model": "claude-sonnet-4-5"})
    assert session_model(_files(proj, home), parse_client_args("-p"), {}) == "claude-sonnet-4-5"


def test_a_worktree_is_keyed_by_its_main_repository(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    subprocess.run([*GIT, "worktree", "add", "-q", str(tmp_path / "wt")], cwd=repo, check=True)
    _write(repo / ".claude" / "settings.local.json", {"permissions": {"deny": ["mcp__a"]}})
    home = tmp_path / "home"
    _write(home / ".claude.json", {"projects": {str(repo): {"mcpServers": {"l": {"command": "x"}}}}})
    files = _files(tmp_path / "wt", home)
    assert files.project_key == str(repo.resolve())
    assert [s.file.path for s in files.settings_in("local")] == [repo / ".claude" / "settings.local.json"]
    assert [(s.name, s.scope) for s in files.servers] == [("l", "local")]


def test_setting_sources_keeps_only_the_named_scopes(tmp_path: Path) -> None:
    home, proj = tmp_path / "home", tmp_path / "proj"
    for path in (
        home / ".claude" / "settings.json",
        proj / ".claude" / "settings.json",
        proj / ".claude" / "settings.local.json",
    ):
        _write(path, {})
    assert [s.scope for s in _files(proj, home, "-p --setting-sources user").settings] == ["user"]
    assert [s.scope for s in _files(proj, home, "-p --setting-sources project,local").settings] == ["project", "local"]


def test_a_disabled_project_server_does_not_shadow_the_users_same_name(tmp_path: Path) -> None:
    from toolscope.core.systems.claude_code.servers import decide_servers

    home, proj = tmp_path / "home", tmp_path / "proj"
    _write(home / ".claude.json", {"mcpServers": {"t": {"command": "user"}}})
    _write(proj / ".mcp.json", {"mcpServers": {"t": {"command": "project"}}})
    _write(proj / ".claude" / "settings.local.json", {"disabledMcpjsonServers": ["t"]})
    decisions = {d.entry.scope: d for d in decide_servers(_files(proj, home), parse_client_args("-p"))}
    assert decisions["user"].passed
    assert decisions["project"].stages[-1].code == "approval.disabled"
