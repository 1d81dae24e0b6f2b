"""Regressions found by a QA pass walking the README as a new user."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from toolscope.app import app

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
