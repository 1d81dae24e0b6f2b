"""Codex's project folders, names, flags and fatal configs as toolscope models them (quick suite: real files and
real git repositories, no server started). The real binary's answers for the same setups are the lane's
(``codex_matrix.ROUND2``, ``test_codex_real.py``); these pin the model's pieces cheaply."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from toolscope.core.model.errors import InputError
from toolscope.core.systems.codex.args import parse_codex_args
from toolscope.core.systems.codex.folders import project_folders
from toolscope.core.systems.codex.layers import parse_override
from toolscope.core.systems.codex.subject import load_codex_subject
from toolscope.core.systems.codex.tools import namespace_of

NOWHERE = '[mcp_servers.{name}]\ncommand = "/nonexistent/server"\n'


def git(cwd: Path, *args: str) -> None:
    env = {"PATH": "/usr/bin:/bin", "HOME": str(cwd), "GIT_CONFIG_NOSYSTEM": "1"}
    base = ["git", "-c", "user.email=x@x", "-c", "user.name=x", "-c", "init.defaultBranch=main"]
    subprocess.run([*base, *args], cwd=cwd, env=env, check=True, capture_output=True, timeout=60)


def repo(path: Path) -> Path:
    path.mkdir(parents=True)
    git(path, "init", "-q")
    (path / "f").write_text("x", encoding="utf-8")
    git(path, "add", "f")
    git(path, "commit", "-qm", "x")
    return path


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def trust(path: Path) -> str:
    return f'[projects."{path}"]\ntrust_level = "trusted"\n'


def subject(cwd: Path, home: Path, **kwargs: object):  # type: ignore[no-untyped-def]
    cwd.mkdir(parents=True, exist_ok=True)
    return load_codex_subject(cwd, codex_home=home, system_dir=home / "no-etc", environ={"HOME": str(home)}, **kwargs)


def served(found) -> set[str]:  # type: ignore[no-untyped-def]
    return set(found.merged.servers)


def test_every_codex_folder_from_the_git_root_down_each_under_its_own_trust(tmp_path: Path) -> None:
    root = repo(tmp_path / "repo")
    write(root / ".codex/config.toml", NOWHERE.format(name="atroot"))
    write(root / "sub/.codex/config.toml", NOWHERE.format(name="atsub"))
    home = tmp_path / "home"
    cwd = root / "sub" / "deeper"
    for trusted, expected in (("", set()), ("repo", {"atroot", "atsub"}), ("repo/sub", {"atsub"})):
        write(home / "config.toml", trust(tmp_path / trusted) if trusted else "# none\n")
        assert served(subject(cwd, home)) == expected, trusted
    write(home / "config.toml", trust(cwd))  # the cwd's own entry does not count
    found = subject(cwd, home)
    assert served(found) == set()
    untrusted = [f.message for f in found.findings([None]) if f.kind == "untrusted_ignored"]
    assert untrusted and all(f'[projects."{root}"]' in m and "the git root" in m for m in untrusted)


def test_a_worktree_is_trusted_by_its_main_repository(tmp_path: Path) -> None:
    main = repo(tmp_path / "repo")
    git(main, "worktree", "add", "-q", str(tmp_path / "wt"), "-b", "w")
    write(tmp_path / "wt/.codex/config.toml", NOWHERE.format(name="inwt"))
    folders = project_folders(tmp_path / "wt" / "sub")
    assert (folders.root, folders.main, folders.worktree) == (tmp_path / "wt", main, True)
    home = tmp_path / "home"
    write(home / "config.toml", trust(main))
    assert served(subject(tmp_path / "wt" / "sub", home)) == {"inwt"}


def test_names_and_overrides_as_codex_splits_them() -> None:
    assert [namespace_of(n) for n in ("a/b", "a@b", "a:b", "my.srv-x")] == ["mcp__a_b"] * 3 + ["mcp__my_srv_x"]
    assert parse_override('mcp_servers."a.b".enabled=false') == {"mcp_servers": {'"a': {'b"': {"enabled": False}}}}
    args = parse_codex_args("exec --profile work -c 'mcp_servers.x.enabled=false' -m o3 --enable f hi")
    assert args.profile == "work"
    assert args.overrides == ("mcp_servers.x.enabled=false", 'model="o3"', "features.f=true")
    with pytest.raises(InputError, match="--profile"):
        parse_codex_args("--profile ../x")


def test_profile_file_sits_between_config_and_project(tmp_path: Path) -> None:
    root = repo(tmp_path / "proj")
    home = tmp_path / "home"
    write(home / "config.toml", NOWHERE.format(name="v") + 'args = ["a"]\nenabled = false\n')  # none started
    write(home / "p.config.toml", trust(root) + NOWHERE.format(name="v") + 'args = ["b"]\n' + NOWHERE.format(name="w"))
    write(root / ".codex/config.toml", '[mcp_servers.w]\nargs = ["d"]\n')
    found = subject(root, home, client_args="--profile p")
    assert found.merged.servers["v"]["args"][0] == ["b"]
    assert found.merged.servers["w"]["args"][0] == ["d"]  # the profile's trust entry counts
    assert served(subject(root, home, client_args="--profile nope")) == {"v"}


@pytest.mark.parametrize(
    ("config", "client_args", "words"),
    [
        ('profile = "p"\n', None, 'sets profile = "p"'),
        ('[profiles.p]\nmodel = "o3"\n', "--profile p", "[profiles.p]"),
        ("[mcp_servers.empty]\nenabled = true\n", None, "neither command nor url"),
    ],
)
def test_what_codex_refuses_ends_the_run(tmp_path: Path, config: str, client_args: str | None, words: str) -> None:
    home = tmp_path / "home"
    write(home / "config.toml", config)
    found = subject(tmp_path / "proj", home, client_args=client_args)
    refused = [f.message for f in found.findings([None]) if f.kind == "config_refused"]
    assert len(refused) == 1 and words in refused[0] and "the run ends" in refused[0]
    assert all(t.first_failing is None or t.first_failing.code != "context.full" for t in found.evaluate(None).tools)


def test_a_profiles_table_without_the_flag_is_fine(tmp_path: Path) -> None:
    home = tmp_path / "home"
    write(home / "config.toml", '[profiles.p]\nmodel = "o3"\n')
    assert [f for f in subject(tmp_path / "proj", home).findings([None]) if f.kind == "config_refused"] == []
