"""Regressions found by a QA pass walking the README as a new user."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from toolscope.cli.app import app

SAMPLES = Path(__file__).resolve().parents[2] / "sample_configs"
SEED = SAMPLES / "seed" / "step_config.json"
runner = CliRunner()


@pytest.mark.parametrize("command", ["report", "inspect"])
@pytest.mark.parametrize(
    ("size", "expected"),
    [
        # Well-formed but too small: the message must not claim the shape is wrong.
        ("19x8", "'19x8' is out of range: COLUMNSxROWS from 20x8 to 400x200"),
        # A typo'd width would render for minutes: refused by both commands alike.
        ("12000x36", "'12000x36' is out of range: COLUMNSxROWS from 20x8 to 400x200"),
        ("wide", "expected COLUMNSxROWS like 120x36 (from 20x8 to 400x200), got 'wide'"),
    ],
)
def test_size_means_the_same_for_report_and_inspect(tmp_path: Path, command: str, size: str, expected: str):
    out = tmp_path / "shot.svg"
    args = ["report", str(SEED), "-f", "svg", "-o", str(out)] if command == "report" else ["inspect", str(SEED)]
    if command == "inspect":
        args += ["--screenshot", str(out)]
    result = runner.invoke(app, [*args, "--size", size])
    assert result.exit_code == 2, result.output
    assert expected in " ".join(result.output.split())
    assert not out.exists()


def test_the_smallest_size_inspect_takes_is_also_a_report_size(tmp_path: Path):
    out = tmp_path / "small.svg"
    result = runner.invoke(app, ["report", str(SEED), "-f", "svg", "--size", "20x8", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_text(encoding="utf-8").lstrip().startswith("<svg")


def test_mcp_source_note_counts_servers_in_words():
    snapshot = SAMPLES / "mcp" / "snapshot.json"
    result = runner.invoke(app, ["tools", str(SAMPLES / "mcp" / "step_config.json"), "--snapshot", str(snapshot)])
    assert result.exit_code == 0, result.output
    assert "MCP tools from snapshot snapshot.json (2 servers; 1 failed)" in result.output
    assert "server(s)" not in result.output


TOOLKIT = SAMPLES / "agentscope" / "toolkit.yaml"


@pytest.mark.parametrize("screenshot", [True, False])
def test_inspect_refuses_a_missing_or_malformed_script_like_step_and_report(tmp_path: Path, screenshot: bool):
    out = tmp_path / "shot.svg"
    extra = ["--screenshot", str(out)] if screenshot else []
    missing = runner.invoke(app, ["inspect", str(TOOLKIT), "-s", str(tmp_path / "nope.json"), *extra])
    assert missing.exit_code == 2, missing.output
    assert "nope.json: no such script" in missing.output and "Traceback" not in missing.output
    not_a_script = runner.invoke(app, ["inspect", str(TOOLKIT), "-s", str(SEED), *extra])
    assert not_a_script.exit_code == 2, not_a_script.output
    assert "a script must be a list of steps" in not_a_script.output
    assert not out.exists()


def test_inspect_screenshot_finds_a_script_beside_the_config_as_the_app_does(tmp_path: Path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # typo.json is not in the current folder, only beside the toolkit
    out = tmp_path / "activation.svg"
    result = runner.invoke(app, ["inspect", str(TOOLKIT), "-s", "typo.json", "--screenshot", str(out)])
    assert result.exit_code == 0, result.output
    svg = out.read_text(encoding="utf-8")
    assert "no&#160;such&#160;script" not in svg
    assert "web_serch" in svg  # the script's third call, loaded


def _big_step_config(tmp_path: Path) -> Path:
    # 5,000 MCP tools: far more output than a pipe's buffer holds.
    (tmp_path / "toolscope.registry.json").write_text(
        json.dumps({"mcp_servers": {"a": [f"tool_{i:05d}" for i in range(5000)]}}), encoding="utf-8"
    )
    config = tmp_path / "step_config.json"
    config.write_text(json.dumps({"steps": [{"id": "s", "agent_configs": {"selected_servers": ["a"]}}]}))
    return config


def _toolscope(*args: str, stdout: int) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "toolscope", *args], stdout=stdout, stderr=subprocess.PIPE, cwd=SAMPLES.parent
    )


def test_a_reader_gone_at_once_is_not_a_negative_answer(tmp_path: Path):
    # `toolscope tools … | true`: the very first line meets a closed pipe (Rich's console path,
    # whose default was a silent exit 1: "a tool is hidden / a check failed").
    read_end, write_end = os.pipe()
    os.close(read_end)
    process = _toolscope("tools", str(_big_step_config(tmp_path)), stdout=write_end)
    os.close(write_end)
    _, stderr = process.communicate(timeout=60)
    assert process.returncode == 141, stderr.decode()
    assert stderr == b""


def test_a_reader_that_stops_early_is_not_a_toolscope_bug(tmp_path: Path):
    # `toolscope tools … | head -1`: the table's bulk write meets the closed pipe (was exit 70
    # with a traceback and "please report it").
    process = _toolscope("tools", str(_big_step_config(tmp_path)), stdout=subprocess.PIPE)
    assert process.stdout is not None
    process.stdout.readline()
    process.stdout.close()
    stderr = process.stderr.read() if process.stderr else b""
    process.wait(timeout=60)
    assert process.returncode == 141, stderr.decode()
    assert b"Traceback" not in stderr and b"toolscope bug" not in stderr
