"""Hostile corpus: nothing reaches the terminal raw, and suggested commands paste safely.

Names with an OSC 52 clipboard write, a screen clear, C1 controls and shell
metacharacters go through every command; the output must show them escaped, and a printed
``toolscope check`` line, run in a real bash, must pass exactly the intended words.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from toolscope.cli.app import app

REPO = Path(__file__).resolve().parents[2]
runner = CliRunner()

OSC52 = "\x1b]52;c;cHduZWQ=\x07"
CLEAR = "\x1b[2J"
CSI_C1 = "\x9b31m"
RAW = ("\x1b", "\x07", "\x9b", "\u202e")

PWNED_TOOL = "$(touch {marker})"
EVIL_MODE = "run;rm -rf ~"


def assert_inert(text: str) -> None:
    for char in RAW:
        assert char not in text, f"raw {char!r} reached the terminal: {text!r}"


@pytest.fixture
def hostile_step(tmp_path: Path) -> Path:
    """A step config whose step id, provider, mode names and tool names are hostile."""
    folder = tmp_path / "cfg"
    folder.mkdir()
    marker = tmp_path / "pwned"
    step = {
        "steps": [
            {
                "id": "s1" + OSC52,
                "agent_configs": {
                    "enabled_custom_tools": ["human_tools:*"],
                    "selected_servers": [],
                    "selected_tools": [],
                    "execution_llm": {"provider": "evil" + CLEAR},
                },
            },
            {"id": "other", "agent_configs": {"enabled_custom_tools": ["human_tools:*"]}},
        ]
    }
    (folder / "step_config.json").write_text(json.dumps(step))
    registry = {
        "custom_tools": {"human_tools": [PWNED_TOOL.format(marker=marker), "a'b", "csi" + CSI_C1, "rtl\u202eevil"]},
        "modes": {"system": [], "lists": {EVIL_MODE: [], "m" + CLEAR: []}, "default": EVIL_MODE},
    }
    (folder / "toolscope.registry.json").write_text(json.dumps(registry))
    return folder


def run(*args: str):
    return runner.invoke(app, list(args))


@pytest.mark.parametrize(
    "command",
    [
        ["tools"],
        ["tools", "--json"],
        ["check"],
        ["check", "--json"],
        ["explain", "csi" + CSI_C1],
        ["explain", "csi" + CSI_C1, "--json"],
        ["explain", "nosuch" + OSC52],
        ["tools", "--mode", "m" + CLEAR],
        ["tools", "--mode", "unknown" + OSC52],
        ["report"],
        ["report", "-f", "html"],
        ["report", "-f", "json"],
    ],
)
def test_step_config_outputs_are_inert(hostile_step: Path, command: list[str]) -> None:
    result = run(command[0], str(hostile_step / "step_config.json"), "--step", "s1" + OSC52, *command[1:])
    assert result.exit_code in (0, 1, 2), result.output
    assert_inert(result.stdout)
    assert_inert(result.stderr)
    if command[0] in ("tools", "explain") and "--json" not in command and result.exit_code != 2:
        assert "\\x1b" in result.stdout  # shown, not dropped


def test_toolkit_headers_and_groups_are_inert(tmp_path: Path) -> None:
    spec = tmp_path / "toolkit.yaml"
    spec.write_text(
        json.dumps(
            {
                "kind": "toolkit",
                "name": "spec" + OSC52,
                "tools": [{"name": "note", "description": "d" + CLEAR}],
                "groups": [{"name": "grp", "description": "g" + CSI_C1, "tools": [{"name": "t1"}]}],
                "initially_active": ["grp"],
            }
        )
    )
    for command in (["tools"], ["check"], ["explain", "t1"], ["tools", "--json"]):
        result = run(command[0], str(spec), *command[1:])
        assert result.exit_code in (0, 1), result.output
        assert_inert(result.stdout)
        assert_inert(result.stderr)


def test_step_transcript_is_inert_and_never_bare_nan(tmp_path: Path) -> None:
    script = tmp_path / "script.yaml"
    script.write_text('- {web_search: .nan}\n- {web_search: .inf}\n- "{\\"x\\e[2J\\": true}"\n')
    toolkit = REPO / "sample_configs" / "agentscope" / "toolkit.yaml"
    result = run("step", str(toolkit), "-s", str(script), "--json")
    assert result.exit_code == 0, result.output

    def no_constants(name: str) -> None:
        raise AssertionError(f"bare {name} in step --json")

    json.loads(result.stdout, parse_constant=no_constants)
    assert_inert(result.stdout)
    human = run("step", str(toolkit), "-s", str(script))
    assert human.exit_code == 0, human.output
    assert_inert(human.stdout)


def test_inert_console_escapes_text_but_keeps_styles() -> None:
    import io

    from rich.text import Text

    from toolscope.cli.inert_console import InertConsole

    buffer = io.StringIO()
    console = InertConsole(
        file=buffer, force_terminal=True, color_system="standard", width=80, highlight=False, no_color=False
    )
    console.print("plain " + OSC52 + CLEAR, markup=False)
    console.print(Text("styled" + CSI_C1, style="red"))
    out = buffer.getvalue()
    assert "\\x1b]52" in out and "\\x9b31m" in out
    assert "\x1b[31m" in out  # Rich's own colour codes still work
    assert "\x1b]52" not in out and "\x9b" not in out and "\x07" not in out


_LOGGING = r"""
import logging
from agentscope._logging import logger as agentscope_logger
from toolscope.cli import log_safety

log_safety.install()
agentscope_logger.warning("MCP client failed: %s", "boom\x1b]52;c;cHduZWQ=\x07\x1b[2J")
try:
    raise ValueError("bad line\x1b[2J")
except ValueError:
    logging.getLogger("mcp.client.stdio").exception("Failed to parse JSONRPC message from server")
    logging.getLogger("some.library").exception("unparsable\x1b[2J")
"""


def test_library_log_lines_are_inert_without_tracebacks() -> None:
    """AgentScope's own logger repeats a server's error text: it goes out escaped (a fresh
    process: pytest's own log capture would stand in for the handlers under test)."""
    import sys

    done = subprocess.run([sys.executable, "-c", _LOGGING], capture_output=True, text=True, timeout=60)
    err = done.stderr
    assert done.returncode == 0, err
    assert "boom\\x1b]52" in err and "\x1b" not in err and "\x07" not in err
    assert "Failed to parse JSONRPC" not in err  # the SDK's parse errors stay off the screen
    assert "Traceback" not in err and "unparsable\\x1b[2J" in err


# --- suggested commands are shell-quoted: run the printed line in a real shell ---------------

_ARGV_PRINTER = "toolscope() { python3 -c 'import json, sys; print(json.dumps(sys.argv[1:]))' \"$@\"; }\n"


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
@pytest.mark.parametrize("tool_name", ["$(touch {marker})", "a'b", "csi" + CSI_C1, "rtl\u202eevil"])
@pytest.mark.parametrize("where", ["cli", "cli_60_columns", "json_report", "html_report"])
def test_suggested_check_command_runs_as_printed(hostile_step: Path, tool_name: str, where: str) -> None:
    marker = hostile_step.parent / "pwned"
    tool = tool_name.format(marker=marker)
    config = str(hostile_step / "step_config.json")
    if where.startswith("cli"):
        columns = "60" if where == "cli_60_columns" else "160"
        result = runner.invoke(app, ["explain", config, tool, "--step", "s1" + OSC52], env={"COLUMNS": columns})
        assert result.exit_code == 1, result.output
        lines = printed_commands(result.stdout)
    else:
        fmt = "json" if where == "json_report" else "html"
        result = run("report", config, "--step", "s1" + OSC52, "-t", tool, "-f", fmt)
        assert result.exit_code == 0, result.output
        if fmt == "json":
            document = json.loads(result.stdout)
            lines = [
                evidence
                for checklist in _find_key(document, "evidence")
                for evidence in checklist
                if evidence.startswith("toolscope check")
            ]
        else:
            import html
            import re

            lines = [
                html.unescape(m)
                for m in re.findall(r"<li>(?:<code>)?(toolscope check[^<]*)(?:</code>)?</li>", result.stdout)
            ]
    assert len(lines) == 1, result.stdout
    done = subprocess.run(["bash", "-c", _ARGV_PRINTER + lines[0]], capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    argv = json.loads(done.stdout)
    assert argv == [
        "check",
        config,  # the path as typed
        "--step",
        "s1" + OSC52,
        "--mode",
        EVIL_MODE,
        "--expect",
        "visible:" + tool,
    ]
    assert not marker.exists()


def printed_commands(out: str) -> list[str]:
    """The suggested commands in CLI output, continuation lines (ending in a backslash) included."""
    commands: list[str] = []
    lines = iter(out.splitlines())
    for line in lines:
        if line.strip().startswith("toolscope check"):
            parts = [line.strip()]
            while parts[-1].endswith("\\"):
                parts.append(next(lines).strip())
            commands.append("\n".join(parts))
    return commands


def _find_key(document: object, key: str) -> list:
    found = []
    if isinstance(document, dict):
        for name, value in document.items():
            if name == key:
                found.append(value)
            else:
                found.extend(_find_key(value, key))
    elif isinstance(document, list):
        for item in document:
            found.extend(_find_key(item, key))
    return found


def test_the_printed_command_works_for_real(hostile_step: Path) -> None:
    """Pasted in the config's folder, the line runs toolscope check and the expectation fails (exit 1)."""
    import sys

    result = run("explain", str(hostile_step / "step_config.json"), "a'b", "--step", "s1" + OSC52)
    (line,) = printed_commands(result.stdout)
    shim = f'toolscope() {{ "{sys.executable}" -m toolscope "$@"; }}\n'
    done = subprocess.run(["bash", "-c", shim + line], cwd=hostile_step, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "expectation" in (done.stdout + done.stderr).lower()
