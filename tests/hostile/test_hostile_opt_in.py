"""Issue 31, class 1: pointing toolscope at a project never runs what the project names.

Each project names a real MCP server (the official SDK's, ``tests/mcp/fixture_server.py``) that
writes a marker file the moment it starts. Through the real CLI (a subprocess): without
``--discover`` no command (tools, explain, check, report, inspect --screenshot) creates the
marker, and says the tools are unknown, naming the flag; with it, the marker appears exactly
when the modelled CLI itself would start the server. Also the environment each CLI gives its
servers (observed with the binaries: see ``core.systems.claude_code.launch`` / ``codex.launch``)
and ``${VAR}`` (class 3): a value from the environment never reaches a report.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

FIXTURE = str(Path(__file__).resolve().parents[1] / "mcp" / "fixture_server.py")
SEED = Path(__file__).resolve().parents[2] / "sample_configs" / "seed"


def server(marker: Path, *args: str, **extra: object) -> dict[str, object]:
    return {"command": sys.executable, "args": [FIXTURE, "--marker", str(marker), *args], **extra}


def toolscope(*args: str, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("TOOLSCOPE_", "TS_"))}
    return subprocess.run(
        [sys.executable, "-m", "toolscope", *args],
        cwd=cwd,
        env={**base, "COLUMNS": "200", **(env or {})},
        capture_output=True,
        text=True,
        timeout=120,
    )


def write(path: Path, data: object) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data))


@pytest.fixture
def claude(tmp_path: Path) -> tuple[Path, list[str]]:
    """An empty home and project; the options that point claude-code:. at them."""
    (tmp_path / "home" / ".claude").mkdir(parents=True)
    (tmp_path / "home" / "work" / "proj").mkdir(parents=True)
    write(tmp_path / "home" / ".claude.json", {})
    options = ["--home", str(tmp_path / "home"), "--managed-dir", str(tmp_path / "none")]
    return tmp_path / "home" / "work" / "proj", options


COMMANDS = [
    ("tools",),
    ("explain", "mcp__evil__alpha"),
    ("check",),
    ("report", "--format", "json", "-o", "-"),
    ("inspect", "--screenshot", "shot.svg", "--force"),
]


def svg_text(path: Path) -> str:
    """The words of a screenshot."""
    import html
    import re

    return html.unescape(" ".join(re.findall(r"<text[^>]*>([^<]*)</text>", path.read_text()))).replace("\xa0", " ")


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c[0])
def test_a_projects_mcp_json_server_starts_only_with_discover(claude: tuple[Path, list[str]], command) -> None:
    proj, options = claude
    marker = proj.parent / "marker"
    write(proj / ".mcp.json", {"mcpServers": {"evil": server(marker)}})
    name, *rest = command
    done = toolscope(name, "claude-code:.", *rest, *options, "--client-args", "-p", cwd=proj)
    assert done.returncode in (0, 1), done.stderr
    assert not marker.exists(), f"{name} started the project's server without --discover"
    shown = svg_text(proj / "shot.svg") if name == "inspect" else done.stdout
    assert "--discover" in shown, shown  # the TUI header too
    if name in ("tools", "check"):
        assert "not started" in done.stdout
    with_opt_in = toolscope(name, "claude-code:.", *rest, *options, "--client-args", "-p", "--discover", cwd=proj)
    assert with_opt_in.returncode in (0, 1), with_opt_in.stderr
    assert marker.exists(), f"{name} --discover did not start a server claude -p starts"


def test_without_discover_the_verdict_is_unknown_not_started_and_check_has_no_false_findings(
    claude: tuple[Path, list[str]],
) -> None:
    proj, options = claude
    marker = proj.parent / "marker"
    write(proj / ".mcp.json", {"mcpServers": {"evil": server(marker)}})
    # A rule naming a tool of the unstarted server must not be "a rule that matches nothing".
    write(proj / ".claude" / "settings.local.json", {"permissions": {"deny": ["mcp__evil__alpha"]}})
    tools = json.loads(toolscope("tools", "claude-code:.", *options, "--client-args", "-p", "--json", cwd=proj).stdout)
    (row,) = tools["tools"]
    assert (row["tool"], row["verdict"], row["first_failing_stage"]) == ("mcp__evil__*", "unknown", "connection")
    check = json.loads(toolscope("check", "claude-code:.", *options, "--client-args", "-p", "--json", cwd=proj).stdout)
    kinds = {f["kind"]: f for f in check["findings"]}
    assert "rule_matches_nothing" not in kinds
    assert kinds["mcp_not_started"]["severity"] == "warning" and "--discover" in kinds["mcp_not_started"]["message"]
    assert check["ok"] is True
    explain = json.loads(
        toolscope(
            "explain", "claude-code:.", "mcp__evil__alpha", *options, "--client-args", "-p", "--json", cwd=proj
        ).stdout
    )
    assert "--discover" in explain["fix"]
    assert not marker.exists()


def _mcp_json(proj: Path, marker: Path) -> None:
    write(proj / ".mcp.json", {"mcpServers": {"evil": server(marker)}})


def _disabled(proj: Path, marker: Path) -> None:
    """The approval dialog's default answer, in the project's local settings."""
    _mcp_json(proj, marker)
    write(proj / ".claude" / "settings.local.json", {"disabledMcpjsonServers": ["evil"]})


def _in_settings_json(proj: Path, marker: Path) -> None:
    """A file Claude Code never reads servers from."""
    write(proj / ".claude" / "settings.json", {"mcpServers": {"evil": server(marker)}})


def _denied(proj: Path, marker: Path) -> None:
    """A server policy in the user's settings."""
    _mcp_json(proj, marker)
    write(proj.parents[1] / ".claude" / "settings.json", {"deniedMcpServers": [{"serverName": "evil"}]})


@pytest.mark.parametrize(
    ("setup", "session"),
    [
        # interactive (no -p): a .mcp.json server nobody approved stays "Pending approval"
        pytest.param(_mcp_json, [], id="pending"),
        pytest.param(_disabled, ["--client-args", "-p"], id="disabledMcpjsonServers"),
        pytest.param(_in_settings_json, ["--client-args", "-p"], id="settings.json"),
        pytest.param(_denied, ["--client-args", "-p"], id="deniedMcpServers"),
    ],
)
def test_discover_never_starts_what_claude_code_would_not(claude: tuple[Path, list[str]], setup, session) -> None:
    proj, options = claude
    marker = proj.parent / "marker"
    setup(proj, marker)
    done = toolscope("tools", "claude-code:.", *options, *session, "--discover", cwd=proj)
    assert done.returncode == 0, done.stderr
    assert not marker.exists()


@pytest.mark.parametrize("where", ["parent", "home"])
def test_parent_and_home_mcp_json_start_only_with_discover(claude: tuple[Path, list[str]], where: str) -> None:
    proj, options = claude
    marker = proj.parent / "marker"
    folder = proj.parent if where == "parent" else proj.parents[1]  # ~/work/.mcp.json or ~/.mcp.json
    write(folder / ".mcp.json", {"mcpServers": {"evil": server(marker)}})
    for command in (("tools",), ("check",), ("explain", "mcp__evil__alpha")):
        toolscope(*command[:1], "claude-code:.", *command[1:], *options, "--client-args", "-p", cwd=proj)
        assert not marker.exists(), command
    toolscope("tools", "claude-code:.", *options, "--client-args", "-p", "--discover", cwd=proj)
    # claude -p 2.1.332 connects both: every .mcp.json from the cwd up, ~/.mcp.json too when the cwd is under ~.
    assert marker.exists()


def test_the_users_own_servers_start_without_discover(claude: tuple[Path, list[str]]) -> None:
    """~/.claude.json's user and local scopes are what the user added (`claude mcp add`)."""
    proj, options = claude
    home = proj.parents[1]
    user, local = proj.parent / "user-marker", proj.parent / "local-marker"
    write(
        home / ".claude.json",
        {"mcpServers": {"mine": server(user)}, "projects": {str(proj): {"mcpServers": {"here": server(local)}}}},
    )
    done = toolscope("tools", "claude-code:.", *options, "--client-args", "-p", "--json", cwd=proj)
    verdicts = {t["tool"]: t["verdict"] for t in json.loads(done.stdout)["tools"]}
    assert user.exists() and local.exists()
    assert verdicts["mcp__mine__alpha"] == "hidden" and verdicts["mcp__here__alpha"] == "hidden"  # -p refuses calls


def test_an_agentworks_registry_mcp_config_is_not_run_on_load(tmp_path: Path) -> None:
    marker = tmp_path / "marker"
    for name in ("step_config.json", "toolscope.registry.yaml"):
        (tmp_path / name).write_text((SEED / name).read_text())
    registry = tmp_path / "toolscope.registry.yaml"
    registry.write_text(registry.read_text().replace("name: seed world", "name: seed world\nmcp_config: mcp.json", 1))
    write(tmp_path / "mcp.json", {"mcpServers": {"github": server(marker, "--tools", "create_issue")}})
    config = str(tmp_path / "step_config.json")
    for command in (
        ("tools", config),
        ("check", config),
        ("explain", config, "create_issue"),
        ("report", config, "-f", "json", "-o", "-"),
        ("inspect", config, "--screenshot", "shot.svg"),  # its header names the flag
    ):
        done = toolscope(*command, cwd=tmp_path)
        assert done.returncode in (0, 1), done.stderr
        assert not marker.exists(), command
    assert "MCP not started: 1 server, tools unknown: --discover starts them" in svg_text(tmp_path / "shot.svg")
    done = toolscope("check", config, "--json", cwd=tmp_path)
    findings = json.loads(done.stdout)["findings"]
    assert [f["severity"] for f in findings if f["kind"] == "mcp_not_started"] == ["warning"]
    assert not [f for f in findings if f["kind"] in ("mcp_outage", "dead_rule")], findings
    explain = toolscope("explain", config, "create_issue", "--json", cwd=tmp_path)
    assert "--discover" in json.loads(explain.stdout)["fix"]
    done = toolscope("tools", config, "--discover", cwd=tmp_path)
    assert done.returncode == 0 and marker.exists()


def descriptions(report_json: str) -> dict[str, str]:
    """Each tool's description in a ``report --format json`` document."""
    found: dict[str, str] = {}

    def walk(node: object) -> None:
        if isinstance(node, dict):
            if isinstance(node.get("tool"), str) and isinstance(node.get("description"), str):
                found[node["tool"]] = node["description"]
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(json.loads(report_json))
    return found


def _codex(tmp_path: Path, user: str, project: str = "", trusted: bool = True) -> tuple[Path, list[str]]:
    proj, home = tmp_path / "proj", tmp_path / "cx"
    (proj / ".codex").mkdir(parents=True)
    home.mkdir()
    trust = f'[projects."{proj}"]\ntrust_level = "trusted"\n' if trusted else ""
    (home / "config.toml").write_text('model = "gpt-4.1"\n' + user + trust)
    if project:
        (proj / ".codex" / "config.toml").write_text(project)
    return proj, ["--codex-home", str(home), "--codex-system-dir", str(tmp_path / "none")]


def _toml_server(name: str, marker: Path, *args: str) -> str:
    argv = json.dumps([FIXTURE, "--marker", str(marker), *args])
    return f"[mcp_servers.{name}]\ncommand = {json.dumps(sys.executable)}\nargs = {argv}\n"


def test_codex_trusted_project_server_starts_only_with_discover(tmp_path: Path) -> None:
    marker = tmp_path / "marker"
    proj, options = _codex(tmp_path, "", _toml_server("evil", marker))
    for command in (("tools",), ("check",), ("explain", "mcp__evil__alpha")):
        done = toolscope(command[0], "codex:.", *command[1:], *options, cwd=proj)
        assert done.returncode in (0, 1) and not marker.exists(), command
        assert "--discover" in done.stdout
    toolscope("tools", "codex:.", *options, "--discover", cwd=proj)
    assert marker.exists()


def test_codex_never_starts_an_untrusted_or_refused_server(tmp_path: Path) -> None:
    marker = tmp_path / "marker"
    proj, options = _codex(tmp_path, "", _toml_server("evil", marker), trusted=False)
    toolscope("tools", "codex:.", *options, "--discover", cwd=proj)
    assert not marker.exists()
    # requirements.toml admits only "other": Codex says "disabled: requirements" and starts nothing.
    system = tmp_path / "etc"
    system.mkdir()
    (system / "requirements.toml").write_text('[mcp_servers.other.identity]\ncommand = "x"\n')
    (tmp_path / "cx" / "config.toml").write_text('model = "gpt-4.1"\n' + _toml_server("mine", marker))
    done = toolscope(
        "tools",
        "codex:.",
        "--codex-home",
        str(tmp_path / "cx"),
        "--codex-system-dir",
        str(system),
        "--discover",
        cwd=proj,
    )
    assert done.returncode == 0, done.stderr
    assert not marker.exists()


def test_codex_gives_its_servers_only_the_default_variables_and_env_vars(tmp_path: Path) -> None:
    """Observed with codex 0.171.0: HOME, PATH, LANG… and the env_vars names; nothing else of the shell's."""
    marker = tmp_path / "marker"
    user = _toml_server("mine", marker, "--marker-env", "TS_PLAIN,TS_NAMED,LANG,FROM_TABLE", "${TS_PLAIN}")
    user += 'env_vars = ["TS_NAMED"]\nenv = { FROM_TABLE = "tablevalue" }\n'
    proj, options = _codex(tmp_path, user)
    env = {"TS_PLAIN": "shellonly", "TS_NAMED": "namedvalue", "LANG": "C.UTF-8"}
    done = toolscope("tools", "codex:.", *options, cwd=proj, env=env)
    assert done.returncode == 0, done.stderr
    got = marker.read_text().splitlines()[1:]
    assert got[:4] == ["TS_PLAIN unset", "TS_NAMED=namedvalue", "LANG=C.UTF-8", "FROM_TABLE=tablevalue"]
    assert got[-1] == "argv ${TS_PLAIN}"  # Codex expands nothing


def test_claude_gives_its_servers_its_settings_env_and_expands_variables(claude: tuple[Path, list[str]]) -> None:
    """Observed with Claude Code 2.1.332: the whole environment and the settings env blocks reach the
    server; ${VAR}, ${VAR:-default} expand (user settings' env included), an unset ${VAR} stays as written."""
    proj, options = claude
    marker = proj.parent / "marker"
    write(proj.parents[1] / ".claude" / "settings.json", {"env": {"TS_FROM_SETTINGS": "settingsword"}})
    names = "TS_SHELL,TS_FROM_SETTINGS,TS_TABLE"
    args = ["${TS_SHELL}", "${TS_UNSET:-a:-b}", "${TS_UNSET}", "${TS_FROM_SETTINGS}", "${TS_EMPTY:-x}"]
    entry = server(marker, "--marker-env", names, *args, env={"TS_TABLE": "${TS_UNSET:-fallbackword}"})
    write(proj / ".mcp.json", {"mcpServers": {"e": entry}})
    env = {"TS_SHELL": "shellword", "TS_EMPTY": ""}
    done = toolscope("tools", "claude-code:.", *options, "--client-args", "-p", "--discover", cwd=proj, env=env)
    assert done.returncode == 0, done.stderr
    got = marker.read_text().splitlines()[1:]
    assert got[:3] == ["TS_SHELL=shellword", "TS_FROM_SETTINGS=settingsword", "TS_TABLE=fallbackword"]
    assert got[-5:] == ["argv shellword", "argv a:-b", "argv ${TS_UNSET}", "argv settingsword", "argv "]


def test_a_value_from_the_environment_never_reaches_a_report(claude: tuple[Path, list[str]]) -> None:
    """A server that echoes its environment: ${VAR} values and secret-named variables are ***."""
    proj, options = claude
    echo = server(
        proj.parent / "m", "--mode", "env", "--echo", "TS_PLAIN_REF,TS_DB_PASSWORD", "--api-key", "${TS_ARG_SECRET}",
        env={"FIXTURE_ECHO": "${TS_PLAIN_REF}"},
    )  # fmt: skip
    write(proj / ".mcp.json", {"mcpServers": {"e": echo}})
    env = {"TS_PLAIN_REF": "hunterword", "TS_DB_PASSWORD": "pw-leak-42", "TS_ARG_SECRET": "argsecretword"}
    for fmt in ("json", "html"):
        done = toolscope(
            "report", "claude-code:.", *options, "--client-args", "-p", "--discover", "-f", fmt, "-o", "-",
            cwd=proj, env=env,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        for secret in env.values():
            assert secret not in done.stdout, (fmt, secret)
        assert "echo:" in done.stdout


def test_check_reports_no_error_about_the_tools_of_a_server_it_did_not_start(tmp_path: Path) -> None:
    """A mode allow-lists the MCP tool "create_ticket": unregistered only as far as toolscope knows."""
    marker = tmp_path / "marker"
    (tmp_path / "toolscope.registry.yaml").write_text(
        "mcp_config: mcp.json\ncustom_tools: {human_tools: [notify_user]}\n"
        "modes: {system: [notify_user], lists: {build: [create_ticket]}, default: build, applies_to_mcp: true}\n"
    )
    write(tmp_path / "mcp.json", {"mcpServers": {"tracker": server(marker, "--tools", "create_ticket")}})
    step = {"id": "s", "agent_configs": {"selected_servers": ["tracker"], "enabled_custom_tools": ["human_tools:*"]}}
    write(tmp_path / "step_config.json", step)
    done = toolscope("check", "step_config.json", "--json", cwd=tmp_path)
    document = json.loads(done.stdout)
    assert done.returncode == 0 and document["ok"] is True, done.stdout
    assert {f["kind"]: f["severity"] for f in document["findings"]} == {
        "mcp_not_started": "warning",
        "allow_listed_unregistered": "warning",
    }
    assert not marker.exists()
    started = json.loads(toolscope("check", "step_config.json", "--json", "--discover", cwd=tmp_path).stdout)
    assert started["ok"] is True and started["findings"] == [] and marker.exists()


def test_discover_and_snapshot_together_are_refused(tmp_path: Path) -> None:
    snapshot = Path(__file__).resolve().parents[2] / "sample_configs" / "mcp" / "snapshot.json"
    done = toolscope("tools", "claude-code:.", "--discover", "--snapshot", str(snapshot), cwd=tmp_path)
    assert done.returncode == 2 and "--discover" in done.stderr and "Traceback" not in done.stderr
