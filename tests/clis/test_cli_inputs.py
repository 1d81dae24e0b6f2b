"""claude-code:DIR and codex:DIR through the real CLI (subprocess), with real stdio MCP servers
(rawmcp.py, standard library only): bad files name file and line:column, wrong options are
refused, the traps give their finding and fix, and the CLI's files are never written.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

from cli_runner import RAW


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "toolscope", *args], cwd=cwd, capture_output=True, text=True, timeout=60
    )


def claude_home(tmp_path: Path, claude_json: object, settings: object | None = None) -> tuple[Path, Path]:
    home, proj = tmp_path / "home", tmp_path / "proj"
    (home / ".claude").mkdir(parents=True)
    proj.mkdir()
    (home / ".claude.json").write_text(claude_json if isinstance(claude_json, str) else json.dumps(claude_json))
    if settings is not None:
        (home / ".claude" / "settings.json").write_text(json.dumps(settings))
    return home, proj


def claude_options(home: Path, tmp_path: Path) -> tuple[str, ...]:
    """--home HOME and a managed-settings folder that does not exist (not this machine's)."""
    return ("--home", str(home), "--managed-dir", str(tmp_path / "none"))


def codex_options(tmp_path: Path, config_toml: str) -> tuple[str, ...]:
    """A CODEX_HOME holding this config.toml, and the options that point codex:DIR at it (and at
    a system folder that does not exist)."""
    (tmp_path / "cx").mkdir()
    (tmp_path / "cx" / "config.toml").write_text(config_toml)
    return ("--codex-home", str(tmp_path / "cx"), "--codex-system-dir", str(tmp_path / "none"))


def server(*tools: str) -> dict[str, object]:
    return {"command": sys.executable, "args": [str(RAW), *tools]}


def test_malformed_claude_json_names_file_and_line_column(tmp_path: Path) -> None:
    home, proj = claude_home(tmp_path, '{"mcpServers": {\n  "t": {"command": "x",}\n}}')
    done = run("tools", "claude-code:.", *claude_options(home, tmp_path), cwd=proj)
    assert done.returncode == 2
    assert ".claude.json" in done.stderr and "line 2, column" in done.stderr and "Traceback" not in done.stderr


def test_malformed_config_toml_names_file_and_line_column(tmp_path: Path) -> None:
    codex = codex_options(tmp_path, 'model = "gpt-4.1"\n[mcp_servers.t\ncommand = "x"\n')
    done = run("tools", "codex:.", *codex, cwd=tmp_path)
    assert done.returncode == 2
    assert "config.toml" in done.stderr and "line 2, column" in done.stderr and "Traceback" not in done.stderr


def test_files_cut_short_name_the_end_of_the_file(tmp_path: Path) -> None:
    codex = codex_options(tmp_path, 'model = "gpt-4.1"\n[mcp_servers.t]\nargs = ["a", ')
    done = run("tools", "codex:.", *codex, cwd=tmp_path)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "config.toml" in done.stderr and "line 3, column 14 (the end of the file)" in done.stderr, done.stderr
    home, proj = claude_home(tmp_path, '{"mcpServers": {"t": {"command": "x')
    done = run("tools", "claude-code:.", *claude_options(home, tmp_path), cwd=proj)
    assert done.returncode == 2 and ".claude.json" in done.stderr, done.stderr
    assert (
        "line 1, column 34: a string starts here and is never closed; the file ends at line 1, column 36" in done.stderr
    )


def test_options_of_the_other_cli_are_refused(tmp_path: Path) -> None:
    done = run("tools", "claude-code:.", "--codex-home", str(tmp_path), cwd=tmp_path)
    assert done.returncode == 2 and "--codex-home" in done.stderr
    done = run("tools", "codex:.", "--client-args", "-p", cwd=tmp_path)
    assert done.returncode == 2 and "--client-args" in done.stderr


def test_options_of_step_configs_are_refused(tmp_path: Path) -> None:
    """--workflow and --origin answer for AgentWorks steps: a CLI input refuses them as it refuses --step."""
    for flag, value in (("--step", "s"), ("--workflow", "workflow.json"), ("--origin", "external")):
        done = run("tools", "claude-code:.", flag, value, cwd=tmp_path)
        assert (
            done.returncode == 2
            and f"{flag}: is an AgentWorks option, and CONFIG is a Claude Code input" in done.stderr
        ), done.stderr


def test_deny_in_wrong_form_is_a_finding_with_the_normalised_form(tmp_path: Path) -> None:
    home, proj = claude_home(
        tmp_path,
        {"mcpServers": {"t": server("get-time", "convert_time")}},
        {"permissions": {"deny": ["mcp__t__convert-time"]}},
    )
    before = {p: hashlib.sha256(p.read_bytes()).hexdigest() for p in home.rglob("*") if p.is_file()}
    done = run("check", "claude-code:.", *claude_options(home, tmp_path), "--json", cwd=proj)
    assert done.returncode == 1, done.stderr
    kinds = {f["kind"]: f for f in json.loads(done.stdout)["findings"]}
    assert kinds["rule_matches_nothing"]["tool"] == "mcp__t__convert_time"
    assert {p: hashlib.sha256(p.read_bytes()).hexdigest() for p in home.rglob("*") if p.is_file()} == before


def test_explain_walks_to_the_fix_for_servers_in_settings_json(tmp_path: Path) -> None:
    home, proj = claude_home(tmp_path, {}, {"mcpServers": {"t": server("x")}})
    done = run("explain", "claude-code:.", "mcp__t__x", *claude_options(home, tmp_path), "--json", cwd=proj)
    assert done.returncode == 1, done.stderr
    answer = json.loads(done.stdout)
    assert answer["first_failing_stage"] == "source"
    assert ".mcp.json" in answer["fix"] and "claude mcp add" in answer["fix"]


def test_explain_tool_of_a_failed_server_walks_to_its_start(tmp_path: Path) -> None:
    # The server never listed its tools: its one row (mcp__t__*) answers for mcp__t__x, not a did-you-mean.
    home, proj = claude_home(tmp_path, {"mcpServers": {"t": {"command": sys.executable, "args": [str(RAW), "--fail"]}}})
    done = run("explain", "claude-code:.", "mcp__t__x", *claude_options(home, tmp_path), "--json", cwd=proj)
    answer = json.loads(done.stdout)
    assert answer["first_failing_stage"] == "connection", answer
    assert answer["fix"].startswith('make the server "t" start') and not answer["did_you_mean"]
    assert any("--expect visible:mcp__t__x" in e for s in answer["checklist"] for e in s["evidence"]), answer


def test_explain_allowed_tool_is_visible_in_print_mode(tmp_path: Path) -> None:
    home, proj = claude_home(tmp_path, {"mcpServers": {"t": server("x")}}, {"permissions": {"allow": ["mcp__t__*"]}})
    done = run(
        "explain", "claude-code:.", "mcp__t__x", *claude_options(home, tmp_path), "--client-args", "-p", cwd=proj
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "VISIBLE" in done.stdout and "deferred behind ToolSearch" in done.stdout


def test_codex_enabled_tools_typo_hides_the_server(tmp_path: Path) -> None:
    args = json.dumps([str(RAW), "convert_time"])
    common = codex_options(
        tmp_path,
        f'model = "gpt-5.5"\n[mcp_servers.time]\ncommand = {json.dumps(sys.executable)}\nargs = {args}\nenabled_tools = ["mcp__time__convert_time"]\n',
    )
    done = run("explain", "codex:.", "mcp__time__convert_time", *common, "--json", cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    answer = json.loads(done.stdout)
    assert answer["first_failing_stage"] == "tool_filter" and '"convert_time"' in answer["fix"]
    done = run("check", "codex:.", *common, "--json", cwd=tmp_path)
    assert "tool_filter_matches_nothing" in {f["kind"] for f in json.loads(done.stdout)["findings"]}


def test_codex_fixes_name_the_raw_server_and_tool(tmp_path: Path) -> None:
    # Codex's keys take the raw names ("my.srv", "get-time"), never the model's (mcp__my_srv, get_time).
    args = json.dumps([str(RAW), "get-time", "other"])
    common = codex_options(
        tmp_path,
        f'model = "gpt-4.1"\n[mcp_servers."my.srv"]\ncommand = {json.dumps(sys.executable)}\nargs = {args}\n'
        'enabled_tools = ["mcp__my_srv__get_time", "other"]\n',
    ) + ("--json",)
    hidden = json.loads(run("explain", "codex:.", "mcp__my_srv__get_time", *common, cwd=tmp_path).stdout)
    assert hidden["first_failing_stage"] == "tool_filter" and 'raw tool name "get-time"' in hidden["fix"]
    refused = json.loads(run("explain", "codex:.", "mcp__my_srv:other", *common, cwd=tmp_path).stdout)
    assert refused["first_failing_stage"] == "approval_policy", refused
    assert '[mcp_servers."my.srv".tools.other] approval_mode = "approve"' in refused["fix"]


def test_agentworks_claude_provider_bridge_denied_by_the_users_settings(tmp_path: Path) -> None:
    (tmp_path / ".claude").mkdir()
    (tmp_path / ".claude" / "settings.json").write_text(json.dumps({"permissions": {"deny": ["mcp__api-bridge__*"]}}))
    repo = Path(__file__).resolve().parents[2]
    config = str(repo / "sample_configs" / "seed" / "step_config.json")
    done = run("check", config, "--mode", "build", "--client-home", str(tmp_path), "--json", cwd=tmp_path)
    found = [f for f in json.loads(done.stdout)["findings"] if f["kind"] == "bridge_blocked"]
    assert found and found[0]["entry"] == "mcp__api-bridge__*", done.stdout
    clean = run("check", config, "--mode", "build", "--client-home", str(tmp_path / "nobody"), "--json", cwd=tmp_path)
    assert not [f for f in json.loads(clean.stdout)["findings"] if f["kind"] == "bridge_blocked"]
