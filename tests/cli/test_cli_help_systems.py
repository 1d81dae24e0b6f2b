"""Help a newcomer can read (#30 item 4), through the real CLI: each command's options grouped
by system, an option of another system refused naming its owner, a top-level help that names
every system and capture, and Codex's -c that reads as Codex's override, not a config file."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from toolscope.cli.app import app
from toolscope.cli.system_options import panel
from toolscope.core.systems import registry

SAMPLES = Path(__file__).resolve().parents[2] / "sample_configs"
STEP_CONFIG = str(SAMPLES / "seed" / "step_config.json")
TOOLKIT = str(SAMPLES / "agentscope" / "toolkit.yaml")
SUBJECT_COMMANDS = ("check", "tools", "explain", "report", "inspect")
VALUE = {"str": "x", "path": "x.json", "str_list": "a=1"}


def help_of(*command: str) -> str:
    result = CliRunner().invoke(app, [*command, "--help"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    return result.output


def sections(text: str) -> dict[str, str]:
    """Heading (a line ending in ':' at column 0) → the lines under it."""
    found: dict[str, str] = {}
    for block in re.split(r"\n(?=\S[^\n]*:\n)", text):
        head, _, body = block.partition("\n")
        found[head.rstrip(":")] = body
    return found


@pytest.mark.parametrize("command", SUBJECT_COMMANDS)
def test_every_system_option_is_listed_under_its_system(command: str) -> None:
    listed = sections(help_of(command))
    for spec in registry.options():
        assert re.search(rf"(?:^  |, ){spec.flag} ", listed.get(panel(spec), ""), re.M), (spec.flag, panel(spec))
        others = [head for head, body in listed.items() if head != panel(spec)]
        assert not any(re.search(rf"(?:^  |, ){spec.flag} ", listed[head], re.M) for head in others)
    own = listed["Options"]
    assert "--help" in own and "--codex-home" not in own and "--step " not in own


def test_the_panels_come_in_registry_order_after_the_commands_own() -> None:
    heads = [h for h in sections(help_of("tools")) if h in ("Options", "AgentWorks", "Claude Code", "Codex")]
    assert heads == ["Options", "AgentWorks", "Claude Code", "Codex"]


@pytest.mark.parametrize(
    "command",
    ("capture", "check", "discover", "explain", "filter", "inspect", "mcp", "report", "serve", "step", "tools"),
)
def test_help_at_80_columns_fits_them(command: str) -> None:
    for line in help_of(command).splitlines():
        assert len(line) <= 80, line


def test_top_level_help_names_every_system_and_capture() -> None:
    text = help_of()
    for line in text.splitlines():
        assert len(line) <= 80, line
    for system in registry.systems():
        assert re.search(rf"^    {re.escape(system.title)} ", text, re.M), system.title
    assert {"AgentWorks", "AgentScope 2.x", "AgentScope 1.x", "Claude Code", "Codex"} <= {
        s.title for s in registry.systems()
    }
    assert "toolscope capture records what a model really received" in text
    assert "AgentScope 2.x toolkits." not in text  # the old one-system sentence


def _inputs(tmp_path: Path) -> dict[str, str]:
    """One real input per built-in system (the two AgentScope eras read the same toolkit)."""
    return {"agentworks": STEP_CONFIG, "agentscope": TOOLKIT, "claude_code": "claude-code:.", "codex": "codex:."}


def test_an_option_of_another_system_is_refused_naming_its_owner(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    for key, config in _inputs(tmp_path).items():
        declared = {o.name for o in registry.system_named(key).options}
        for spec in registry.options():
            if spec.name in declared:
                continue
            value = [] if spec.type == "bool" else [VALUE[spec.type]]  # a flag (--discover) takes no value
            result = runner.invoke(app, ["tools", config, spec.flags[-1], *value])
            owners = [s for s in registry.systems() if spec in s.options]
            assert result.exit_code == 2, (config, spec.flag, result.output)
            said = " ".join(result.output.split())  # the message wraps at the terminal's width
            assert f"{spec.flag}: is " in said and " option, and CONFIG is " in said, result.output
            assert all(owner.title in said for owner in owners), result.output
            assert all(f"({owner.prefix}DIR)" in said for owner in owners if owner.prefix), result.output
            assert "Traceback" not in result.output


def test_a_workflow_refuses_another_systems_option_before_loading_a_step(tmp_path: Path) -> None:
    """A step config with several steps and no --step (every step) refuses --home as one step does."""
    steps = SAMPLES / "realistic"
    several = next(
        p for p in sorted(steps.rglob("*.json")) if '"steps"' in p.read_text() and p.read_text().count('"id"') > 1
    )
    result = CliRunner().invoke(app, ["check", str(several), "--home", str(tmp_path)])
    assert (
        result.exit_code == 2
        and "--home: is a Claude Code (claude-code:DIR) / Gemini CLI (gemini-cli:DIR) / OpenCode (opencode:DIR) "
        "option, and CONFIG is an AgentWorks input"
        in " ".join(result.output.split())
    )


def _codex_project(tmp_path: Path) -> tuple[Path, list[str]]:
    home, proj, etc = tmp_path / "home", tmp_path / "proj", tmp_path / "etc"
    for folder in (home, proj, etc):
        folder.mkdir()
    (home / "config.toml").write_text('[mcp_servers.x]\ncommand = "true"\n', encoding="utf-8")
    return proj, ["--codex-home", str(home), "--codex-system-dir", str(etc)]


@pytest.mark.parametrize("flag", ["-c", "--codex-override"])
def test_c_is_codexs_own_override(tmp_path: Path, flag: str) -> None:
    """-c KEY=VALUE reaches Codex's settings as `codex -c` would: the server turned off by it."""
    proj, options = _codex_project(tmp_path)
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "toolscope",
            "tools",
            "codex:.",
            *options,
            flag,
            "mcp_servers.x.enabled=false",
            "--json",
        ],
        cwd=proj,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    enabled = [s for s in json.loads(done.stdout)["stage_results"] if s["name"] == "enabled"]
    assert enabled and not enabled[0]["passed"] and "-c" in enabled[0]["rule"], enabled


@pytest.mark.parametrize("command", SUBJECT_COMMANDS)
def test_c_help_says_codex_and_never_config(command: str) -> None:
    text = help_of(command)
    record = re.search(r"^  -c, --codex-override KEY=VALUE .*?(?=^  -|^\S|\Z)", text, re.M | re.S)
    assert record is not None, text
    assert "Codex's own -c" in record.group(0) and "config" not in record.group(0).lower()
    assert "--config" not in text
