"""``toolscope tools`` at 80 columns for every system's sample: no line runs past the edge,
every tool's name can be read whole (a long one wraps inside the TOOL column) and every row
ends with its verdict."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from rich.cells import cell_len
from typer.testing import CliRunner

from toolscope.cli.app import app
from toolscope.cli.layout import Cell, Column, layout_table, wrap_name

SAMPLES = Path(__file__).resolve().parents[2] / "sample_configs"
CLAUDE = SAMPLES / "claude-code"
CODEX = SAMPLES / "codex"
GEMINI = SAMPLES / "gemini-cli"

# Each system's shipped sample, as the README runs it (offline: tool lists from snapshots).
SAMPLE_RUNS = {
    "agentworks-seed": [f"{SAMPLES}/seed/step_config.json", "--mode", "build"],
    "agentworks-steps": [f"{SAMPLES}/seed/steps.json"],
    "agentworks-realistic": [f"{SAMPLES}/realistic/step_config.json"],
    "agentworks-mcp": [f"{SAMPLES}/mcp/step_config.json", "--snapshot", f"{SAMPLES}/mcp/snapshot.json"],
    "agentscope": [f"{SAMPLES}/agentscope/toolkit.yaml"],
    "agentscope-large": [f"{SAMPLES}/agentscope/large_toolkit.yaml"],
    "claude-code": [
        f"claude-code:{CLAUDE}/project",
        *("--home", f"{CLAUDE}/home", "--client-args", "-p", "--snapshot", f"{CLAUDE}/snapshot.json"),
    ],
    "codex": [f"codex:{CODEX}/project", "--codex-home", f"{CODEX}/home", "--snapshot", f"{CODEX}/snapshot.json"],
    "opencode": [f"opencode:{SAMPLES}/opencode/notes-app"],
    "gemini-cli": [
        f"gemini-cli:{GEMINI}/project",
        *("--home", f"{GEMINI}/home", "--client-args", "-p", "--snapshot", f"{GEMINI}/snapshot.json"),
    ],
}
VERDICT = re.compile(r" (visible|hidden|unknown)$")


def _tools(args: list[str], *extra: str, columns: int = 80) -> str:
    result = CliRunner().invoke(app, ["tools", *args, *extra], env={"COLUMNS": str(columns)})
    assert result.exit_code in (0, 1), result.output
    return result.stdout


def _names_as_read(out: str) -> set[tuple[str, str]]:
    """Each table row's tool name (its cell's pieces joined) and the row's verdict."""
    read: list[list[str]] = []
    marked = False  # the rows have a mark cell (! ·) and a space in front
    in_table = False
    for raw in out.splitlines():
        if raw.lstrip("!· ").startswith("TOOL "):
            in_table, marked = True, raw.startswith("  TOOL")
            continue
        if re.match(r"\d+ visible, ", raw):
            in_table = False
        if not in_table:
            continue
        line = raw[2:] if marked else raw
        found = VERDICT.search(line)
        if found and not line.startswith(" "):
            read.append([line.split(" ", 1)[0], found.group(1)])
        elif read and re.fullmatch(r"\S+", line) and not line.endswith(":"):
            read[-1][0] += line  # the rest of a long name, under its start
    return {(name, verdict) for name, verdict in read}


@pytest.mark.parametrize("sample", sorted(SAMPLE_RUNS))
def test_tools_fits_80_columns_and_every_name_and_verdict_reads_whole(sample: str) -> None:
    out = _tools(SAMPLE_RUNS[sample])
    too_wide = [line for line in out.splitlines() if cell_len(line) > 80]
    assert not too_wide, out
    answer = json.loads(_tools(SAMPLE_RUNS[sample], "--json"))
    tables = answer["steps"].values() if "steps" in answer else [answer]
    expected = {(tool["tool"], tool["verdict"]) for table in tables for tool in table["tools"]}
    assert _names_as_read(out) == expected


def test_the_claude_code_table_keeps_its_stage_columns_and_every_name_whole_at_80() -> None:
    """One space before VERDICT too: mcp__time__get_current_time (27 cells) fits at 80."""
    lines = _tools(SAMPLE_RUNS["claude-code"]).splitlines()
    assert "  TOOL                         SRC PREC APPR POL CONN NAME DENY CTX CALL VERDICT" in lines
    assert "  mcp__time__get_current_time  ✓   ✓    ✓    ✓   ✓    ✓    ✓    ✓   ✓    visible" in lines


def test_narrower_the_claude_code_table_keeps_its_stage_columns_and_wraps_the_longest_name() -> None:
    lines = _tools(SAMPLE_RUNS["claude-code"], columns=78).splitlines()
    assert "  TOOL                       SRC PREC APPR POL CONN NAME DENY CTX CALL VERDICT" in lines
    row = lines.index("  mcp__time__                ✓   ✓    ✓    ✓   ✓    ✓    ✓    ✓   ✓    visible")
    assert lines[row + 1] == "  get_current_time"


def test_a_name_wraps_where_its_parts_meet() -> None:
    assert wrap_name("mcp__time__get_current_time", 18) == ["mcp__time__", "get_current_time"]
    assert wrap_name("mcp_time_get_current_time", 16) == ["mcp_time_get_", "current_time"]
    assert wrap_name("abcdefghijklmnop", 6) == ["abcdef", "ghijkl", "mnop"]
    assert wrap_name("short", 6) == ["short"]
    assert wrap_name("日本語", 1) == ["日", "本", "語"]  # a wide character overflows, nothing is lost


def test_a_narrowed_first_column_wraps_its_long_cells_below_the_row() -> None:
    layout = layout_table(
        [Column("TOOL"), Column("V")],
        [[Cell("mcp__a__long_name"), Cell("x")], [Cell("b"), Cell("y")]],
        20,
        widths=[8, 1],
        gaps=[1],
    )
    assert ["".join(text for text, _ in line) for line in layout.lines] == [
        "TOOL     V",
        "mcp__a__ x",
        "long_",
        "name",
        "b        y",
    ]
