"""The Gemini CLI model on files written in a temporary home and project, the servers' tools from a
snapshot (no process starts): each trap of the reference gives the stage, the finding and the fix
the binary's behaviour calls for (the same configurations run against the real binary in
``test_gemini_real.py``, lane ``gemini``). Cheap: in-process, no MCP server started.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from toolscope.cli.app import app
from toolscope.core.systems.gemini_cli.launch import redacted_env
from toolscope.core.systems.gemini_cli.naming import sent_name, wildcard_misses
from toolscope.core.systems.gemini_cli.subject import load_gemini_subject

OFFLINE = {"security": {"auth": {"selectedType": "gemini-api-key"}}}


def snapshot(path: Path, **servers: tuple[str, ...]) -> Path:
    document = {
        "schema": "toolscope.mcp-snapshot/1",
        "taken_at": "2026-12-02T05:00:00+00:00",
        "toolscope_version": "0.1.0",
        "timeout": 10.0,
        "elapsed": 0.1,
        "servers": [
            {"name": name, "protocol": "stdio", "ok": True, "error": None, "elapsed": 0.01,
             "tools": [{"name": t, "description": f"tool {t}"} for t in tools]}
            for name, tools in servers.items()
        ],
    }  # fmt: skip
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


def setup(tmp_path: Path, user: dict[str, Any], workspace: dict[str, Any] | None = None, trusted: bool = True) -> Path:
    home, proj = tmp_path / "home", tmp_path / "proj"
    (home / ".gemini").mkdir(parents=True)
    (proj / ".gemini").mkdir(parents=True)
    (home / ".gemini" / "settings.json").write_text(json.dumps({**OFFLINE, **user}, indent=1))
    if workspace is not None:
        (proj / ".gemini" / "settings.json").write_text(json.dumps(workspace, indent=1))
    if trusted:
        (home / ".gemini" / "trustedFolders.json").write_text(json.dumps({str(proj.resolve()): "TRUST_FOLDER"}))
    return proj


def srv(**extra: Any) -> dict[str, Any]:
    return {"command": "never-started-by-these-tests", **extra}


def verdicts(
    tmp_path: Path, args: str = "-p hi", mode: str | None = None, **servers: tuple[str, ...]
) -> dict[str, Any]:
    subject = load_gemini_subject(
        tmp_path / "proj", tmp_path / "home", tmp_path / "etc", args, snapshot(tmp_path / "snap.json", **servers), {}
    )
    return {t.name: t for t in subject.evaluate(mode).tools}


def sent(found: dict[str, Any]) -> set[str]:
    return {name for name, t in found.items() if (p := t.stage("policy")) is not None and p.passed}


def test_tools_core_even_empty_hides_trusted_mcp_tools_and_leads_the_findings(tmp_path: Path) -> None:
    setup(tmp_path, {"tools": {"core": []}, "mcpServers": {"t": srv(trust=True)}})
    found = verdicts(tmp_path, t=("x",))
    assert sent(found) == set()
    assert found["mcp_t_x"].stage("policy").code == "policy.core_wildcard"
    subject = load_gemini_subject(
        tmp_path / "proj", tmp_path / "home", tmp_path / "etc", "-p hi --yolo", tmp_path / "snap.json", {}
    )
    assert (
        subject.evaluate(None).loaded.mode == "yolo"
        and sent({t.name: t for t in subject.evaluate(None).tools}) == set()
    )
    findings = subject.findings([None])
    assert findings[0].kind == "tools_core_hides_mcp" and '"mcp_t_*"' in findings[0].message
    assert "~/.gemini/settings.json:" in (findings[0].source or "")
    assert 'add "mcp_t_*"' in (subject.fix_for(subject.evaluate(None).tools[0]) or "")


def test_tools_core_naming_the_server_keeps_its_tools(tmp_path: Path) -> None:
    setup(
        tmp_path,
        {"tools": {"core": ["read_file", "mcp_t_*"]}, "mcpServers": {"t": srv(trust=True), "u": srv(trust=True)}},
    )
    assert sent(verdicts(tmp_path, t=("x",), u=("y",))) == {"mcp_t_x"}


def test_headless_sends_nothing_unallowed_interactive_asks(tmp_path: Path) -> None:
    setup(tmp_path, {"mcpServers": {"s": srv(), "t": srv(trust=True)}})
    headless = verdicts(tmp_path, s=("x",), t=("y",))
    assert sent(headless) == {"mcp_t_y"}
    assert headless["mcp_s_x"].stage("policy").code == "policy.headless_default"
    assert sent(verdicts(tmp_path, "", s=("x",), t=("y",))) == {"mcp_s_x", "mcp_t_y"}
    assert sent(verdicts(tmp_path, "-p hi --approval-mode plan", s=("x",), t=("y",))) == set()


def test_user_policy_deny_at_100_loses_to_trust_201_wins(tmp_path: Path) -> None:
    setup(tmp_path, {"mcpServers": {"t": srv(trust=True)}})
    policies = tmp_path / "home" / ".gemini" / "policies"
    policies.mkdir()
    rules = '[[rule]]\ntoolName = "mcp_t_x"\ndecision = "deny"\npriority = 100\n\n'
    rules += '[[rule]]\nmcpName = "t"\ntoolName = "y"\ndecision = "deny"\npriority = 201\n'
    (policies / "p.toml").write_text(rules)
    subject = load_gemini_subject(
        tmp_path / "proj", tmp_path / "home", tmp_path / "etc", "-p hi", snapshot(tmp_path / "s.json", t=("x", "y")), {}
    )
    assert sent({t.name: t for t in subject.evaluate(None).tools}) == {"mcp_t_x"}
    assert any(f.kind == "policy_rule_loses" and "mcp_t_x" in f.message for f in subject.findings([None]))


def test_a_policy_file_with_one_bad_rule_is_skipped_whole(tmp_path: Path) -> None:
    setup(tmp_path, {"mcpServers": {"t": srv(trust=True)}})
    policies = tmp_path / "home" / ".gemini" / "policies"
    policies.mkdir()
    (policies / "p.toml").write_text(
        '[[rule]]\ntoolName = "mcp_t_x"\ndecision = "deny"\npriority = 500\n\n[[rule]]\nmcpName = "t"\ndecision = "allow"\npriority = 1\n'
    )
    assert sent(verdicts(tmp_path, t=("x",))) == {"mcp_t_x"}


def test_mcp_allowed_is_the_intersection_of_every_file(tmp_path: Path) -> None:
    setup(
        tmp_path,
        {"mcp": {"allowed": ["a", "b"]}, "mcpServers": {"a": srv(), "b": srv(), "c": srv()}},
        {"mcp": {"allowed": ["b", "c"]}},
    )
    found = verdicts(tmp_path, a=("x",), b=("y",), c=("z",))
    assert sent(found) == {"mcp_b_y"}
    assert found["mcp_a_*"].stage("server_gate").code == "gate.not_allowed"
    assert ".gemini/settings.json:" in (found["mcp_a_*"].stage("server_gate").source or "")


def test_untrusted_folder_exits_55_headless_and_skip_trust_drops_the_workspace(tmp_path: Path) -> None:
    setup(tmp_path, {"mcpServers": {"u": srv(trust=True)}}, {"mcpServers": {"w": srv(trust=True)}}, trusted=False)
    found = verdicts(tmp_path, u=("x",), w=("y",))
    assert (
        found["mcp_u_x" if "mcp_u_x" in found else "mcp_u_*"].stage("folder_trust").code == "trust.untrusted_headless"
    )
    skipped = verdicts(tmp_path, "-p hi --skip-trust", u=("x",), w=("y",))
    assert sent(skipped) == {"mcp_u_x"}
    assert skipped["mcp_w_*"].stage("gemini_settings").code == "settings.workspace_ignored"


def test_sent_names_are_sanitised_cut_and_miss_the_server_wildcard() -> None:
    assert sent_name("my server", "x") == "mcp_my_server_x" and wildcard_misses("my server", "x")
    assert sent_name("mcp_gh", "x") == "mcp_gh_x" and wildcard_misses("mcp_gh", "x")
    assert sent_name("a.b", "get-x") == "mcp_a.b_get-x" and not wildcard_misses("my_srv", "t")
    long = sent_name("a-very-long-server-name-for-truncation", "some_rather_long_tool_name_here")
    assert len(long) == 63 and long == "mcp_a-very-long-server-name-fo...ome_rather_long_tool_name_here"


def test_trust_on_a_sanitised_server_name_is_a_finding(tmp_path: Path) -> None:
    setup(tmp_path, {"mcpServers": {"my server": srv(trust=True)}})
    subject = load_gemini_subject(
        tmp_path / "proj",
        tmp_path / "home",
        tmp_path / "etc",
        "-p hi",
        snapshot(tmp_path / "s.json", **{"my server": ("x",)}),
        {},
    )
    assert sent({t.name: t for t in subject.evaluate(None).tools}) == set()
    assert any(f.kind == "server_wildcard_misses" for f in subject.findings([None]))


def test_token_like_variables_are_stripped_from_stdio_servers(tmp_path: Path) -> None:
    setup(tmp_path, {"security": {"environmentVariableRedaction": {"allowed": ["MY_API_KEY"]}}})
    from toolscope.core.systems.gemini_cli.args import GeminiArgs
    from toolscope.core.systems.gemini_cli.files import load_gemini_files

    files = load_gemini_files(tmp_path / "proj", tmp_path / "home", None, GeminiArgs(), {})
    env, dropped = redacted_env({"GITHUB_TOKEN": "t", "PATH": "/bin", "MY_API_KEY": "k", "DB_PASSWORD": "p"}, files)
    assert env == {"PATH": "/bin", "MY_API_KEY": "k"} and set(dropped) == {"GITHUB_TOKEN", "DB_PASSWORD"}


def test_a_workspace_server_is_not_started_without_discover(tmp_path: Path) -> None:
    proj = setup(tmp_path, {}, {"mcpServers": {"w": {"command": "sh", "args": ["-c", f"touch {tmp_path}/ran"]}}})
    subject = load_gemini_subject(proj, tmp_path / "home", tmp_path / "etc", "-p hi", None, {})
    assert not (tmp_path / "ran").exists()
    assert subject.evaluate(None).tools[0].stage("connection").code == "connection.not_started"


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        ("--approval-mode nope", "not a Gemini CLI approval mode"),
        ("--yolo --approval-mode plan", "gemini exits 1"),
        ('-m "x', "cannot be split"),
    ],
)
def test_bad_client_args_exit_2(tmp_path: Path, args: str, expected: str) -> None:
    proj = setup(tmp_path, {})
    done = CliRunner().invoke(
        app, ["tools", f"gemini-cli:{proj}", "--home", str(tmp_path / "home"), "--client-args", args]
    )
    assert done.exit_code == 2 and expected in done.output


def test_bad_settings_json_names_file_and_line(tmp_path: Path) -> None:
    proj = setup(tmp_path, {})
    (tmp_path / "home" / ".gemini" / "settings.json").write_text('{"mcpServers": {\n  "t": {"command": "x",}\n}}')
    done = CliRunner().invoke(app, ["tools", f"gemini-cli:{proj}", "--home", str(tmp_path / "home")])
    assert done.exit_code == 2 and "settings.json" in done.output and "line 2" in done.output


def test_a_system_settings_file_under_a_world_writable_folder_is_skipped(tmp_path: Path) -> None:
    proj = setup(tmp_path, {"mcpServers": {"t": srv(trust=True)}})
    (tmp_path / "sys").mkdir()
    (tmp_path / "sys").chmod(0o777)
    (tmp_path / "sys" / "settings.json").write_text(json.dumps({"tools": {"core": []}}))
    environ = {"GEMINI_CLI_SYSTEM_SETTINGS_PATH": str(tmp_path / "sys" / "settings.json")}
    snap = snapshot(tmp_path / "s.json", t=("x",))
    subject = load_gemini_subject(proj, tmp_path / "home", None, "-p hi", snap, environ)
    assert sent({t.name: t for t in subject.evaluate(None).tools}) == {"mcp_t_x"}  # its folder is world-writable
