"""The OpenCode model on files, without starting servers (cheap): precedence as the binary does it,
rule order, what removes a schema, the config the binary refuses, agents, the edit tools by model.
Every expectation here was observed with the real 1.18.33 (tests/opencode runs the same setups
against it)."""

from __future__ import annotations

import json
from pathlib import Path

from toolscope.core.systems.opencode.jsonc import strip_jsonc, substitute
from toolscope.core.systems.opencode.rules import Rule, call_rule, matches, removing
from toolscope.core.systems.opencode.subject import load_opencode_subject

SAMPLE = Path(__file__).resolve().parents[3] / "sample_configs" / "opencode" / "notes-app"


def _project(tmp_path: Path, files: dict[str, object], git: bool = True) -> tuple[Path, Path]:
    home, proj = tmp_path / "home", tmp_path / "proj"
    home.mkdir(parents=True)
    proj.mkdir(parents=True, exist_ok=True)
    if git:
        (proj / ".git").mkdir()
    for rel, content in files.items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content if isinstance(content, str) else json.dumps(content), encoding="utf-8")
    return home, proj


def _open(
    tmp_path: Path, files: dict[str, object], cwd: str = "proj", args: str = "", env: dict[str, str] | None = None
):  # type: ignore[no-untyped-def]
    home, _ = _project(tmp_path, files)
    environ = {"HOME": str(home), **(env or {})}
    return load_opencode_subject(
        tmp_path / cwd, home=home, client_args=args, managed_dir=tmp_path / "etc", environ=environ
    )


def _command(subject, server: str) -> list[str]:  # type: ignore[no-untyped-def]
    return subject.layers.merged["mcp"][server]["command"]


def srv(*tools: str) -> dict[str, object]:
    return {"type": "local", "command": ["x", *tools]}


def test_outer_dot_opencode_beats_inner_and_home_beats_project(tmp_path: Path) -> None:
    subject = _open(
        tmp_path,
        {
            "proj/.opencode/opencode.json": {"mcp": {"s": srv("outer")}},
            "proj/packages/web/.opencode/opencode.json": {"mcp": {"s": srv("inner")}},
        },
        cwd="proj/packages/web",
    )
    assert _command(subject, "s") == ["x", "outer"]
    subject = _open(
        tmp_path / "b",
        {
            "home/.opencode/opencode.json": {"mcp": {"s": srv("home")}},
            "proj/opencode.json": {"mcp": {"s": srv("proj")}},
        },
    )
    assert _command(subject, "s") == ["x", "home"]


def test_project_files_inner_wins_and_stop_at_git_root(tmp_path: Path) -> None:
    subject = _open(
        tmp_path,
        {
            "opencode.json": {"mcp": {"up": srv("a")}},
            "proj/opencode.json": {"mcp": {"s": srv("root")}},
            "proj/api/opencode.jsonc": '{"mcp": {"s": {"type": "local", "command": ["x", "api"],},}} // c',
        },
        cwd="proj/api",
    )
    assert _command(subject, "s") == ["x", "api"]
    assert "up" not in subject.layers.merged["mcp"]


def test_config_content_beats_project_and_enabled_override(tmp_path: Path) -> None:
    content = json.dumps({"mcp": {"s": {"enabled": False}}})
    subject = _open(
        tmp_path, {"proj/.opencode/opencode.json": {"mcp": {"s": srv("a")}}}, env={"OPENCODE_CONFIG_CONTENT": content}
    )
    rows = subject.evaluate(None).tools
    assert rows[0].name == "s_*" and rows[0].first_failing.code == "enabled.false"


def test_claude_format_entry_invalidates_the_config(tmp_path: Path) -> None:
    subject = _open(tmp_path, {"proj/opencode.json": {"mcp": {"github": {"command": "npx", "args": []}}}})
    assert subject.invalid and 'no "type"' in subject.invalid[0]
    assert all(t.first_failing.code == "config.invalid" for t in subject.evaluate(None).tools)
    assert [f.kind for f in subject.findings([None])][:1] == ["config_invalid"]


def test_env_and_file_substitution() -> None:
    text, bad, taken = substitute(
        '{"a": "{env:X}", "b": "{file:nope.txt}"}\n// "{file:skip.txt}"',
        {"X": "v"},
        Path("/nonexistent"),
        Path("/nonexistent"),
    )
    assert '"a": "v"' in text and "{file:skip.txt}" in text and len(bad) == 1 and taken == {"v"}
    assert json.loads(strip_jsonc('{"a": [1, 2,], // x\n "b": "//not a comment",}')) == {
        "a": [1, 2],
        "b": "//not a comment",
    }


def test_rule_order_last_match_and_scoped_deny() -> None:
    def rules(*items: tuple[str, str, str]) -> list[Rule]:
        return [Rule(p, pat, act, "f") for p, pat, act in items]

    assert removing("s_beta", rules(("s_*", "*", "deny"), ("s_beta", "*", "allow")))[0] is False
    assert removing("s_beta", rules(("s_beta", "*", "allow"), ("s_*", "*", "deny")))[0] is True
    scoped = rules(("s_alpha", "*", "deny"), ("s_alpha", "safe*", "allow"))
    assert removing("s_alpha", scoped)[0] is False
    assert call_rule("s_alpha", scoped).action == "deny"  # type: ignore[union-attr]
    assert removing("write", rules(("edit", "*", "deny")))[0] is True
    assert not matches("s_alpha", "S_*") and not matches("s_alpha", "s") and matches("s_alpha", "s_alph?")


def test_tools_false_undone_by_later_allow_and_agent_maps(tmp_path: Path) -> None:
    files = {
        "proj/opencode.json": {
            "tools": {"bash": False, "grep": False},
            "permission": {"*": "allow"},
            "agent": {"x": {"tools": {"grep": False}}},
        }
    }
    subject = _open(tmp_path, files, args="--agent x")
    verdicts = {t.name: t.verdict for t in subject.evaluate(None).tools}
    assert verdicts["bash"] == "visible" and verdicts["grep"] == "hidden"


def test_subagent_falls_back_and_gpt5_gets_apply_patch(tmp_path: Path) -> None:
    provider = {"provider": {"p": {"models": {"g": {"id": "gpt-5"}, "o": {"id": "gpt-oss-120b"}}}}}
    subject = _open(tmp_path, {"proj/opencode.json": provider}, args="--agent general -m p/g")
    assert subject.agent == "build" and "subagent" in (subject.agent_warning or "")
    names = {t.name for t in subject.evaluate(None).tools}
    assert "apply_patch" in names and "edit" not in names
    subject = _open(tmp_path / "b", {"proj/opencode.json": provider}, args="-m p/o")
    assert "edit" in {t.name for t in subject.evaluate(None).tools}


def test_explain_on_the_sample_names_the_shared_edit_permission() -> None:
    from typer.testing import CliRunner

    from toolscope.cli.app import app

    done = CliRunner().invoke(app, ["explain", f"opencode:{SAMPLE}", "edit"], env={"COLUMNS": "200"})
    assert done.exit_code == 1, done.output
    assert 'share the "edit" permission' in done.output and "opencode.jsonc:10" in done.output


def test_check_findings_for_a_rule_matching_nothing_and_a_scoped_deny(tmp_path: Path) -> None:
    files = {"proj/opencode.json": {"permission": {"bahs": "deny", "bash": {"*": "deny", "git *": "allow"}}}}
    subject = _open(tmp_path, files)
    kinds = {f.kind: f for f in subject.findings([None])}
    assert "bahs" in kinds["rule_matches_nothing"].message and "opencode.json:1" in kinds["rule_matches_nothing"].source
    # A built-in's scoped rules are checked against the call's argument: not a trap, and bash stays offered.
    assert "deny_keeps_schema" not in kinds
    bash = next(t for t in subject.evaluate(None).tools if t.name == "bash")
    assert bash.verdict == "visible" and bash.stages[-1].code == "callable.by_argument"
