"""Every command read at 80, 100 and 120 columns: whole names, aligned stage marks, no
word broken in the middle; piped output at COLUMNS or a stable width."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from toolscope.cli.app import app
from toolscope.cli.layout import PIPED_WIDTH, shorten, wrap_words

SAMPLES = Path(__file__).resolve().parents[2] / "sample_configs"
SEED = str(SAMPLES / "seed" / "step_config.json")
REALISTIC = str(SAMPLES / "realistic" / "step_config.json")
TOOLKIT = str(SAMPLES / "agentscope" / "toolkit.yaml")
LARGE = str(SAMPLES / "agentscope" / "large_toolkit.yaml")
MARKS = "✓✗?-"

TOOLS_CASES = {
    "seed": [SEED, "--mode", "build"],
    "realistic": [REALISTIC, "--step", "research"],
    "toolkit": [TOOLKIT],
    "large-toolkit": [LARGE],
}


def run(width: int, *args: str):
    result = CliRunner().invoke(app, list(args), env={"COLUMNS": str(width)})
    assert result.exit_code in (0, 1), result.output
    return result


def tokens(text: str) -> set[str]:
    return set(text.split())


def assert_fits(output: str, width: int) -> None:
    """No line is wider than the terminal, unless it is one unbreakable token."""
    for line in output.splitlines():
        assert len(line) <= width or " " not in line.strip(), f"{len(line)} > {width}: {line!r}"


@pytest.mark.parametrize("width", [80, 100, 120])
@pytest.mark.parametrize("case", sorted(TOOLS_CASES))
def test_tools_names_whole_and_marks_aligned(case: str, width: int) -> None:
    args = TOOLS_CASES[case]
    data = json.loads(run(width, "tools", *args, "--json").stdout)
    out = run(width, "tools", *args).stdout
    assert_fits(out, width)
    names = [t["tool"] for t in data["tools"]]
    rows = {}
    lines = out.splitlines()
    if any(line.startswith("  TOOL ") for line in lines):
        # A table with row marks (! · as in the TUI): one mark cell and a space before every line.
        assert all(line[:2] in ("  ", "! ", "· ") for line in lines if line.startswith(("!", "·")))
        lines = [line[2:] for line in lines]
    for line in lines:
        first = line.split(" ", 1)[0]
        if first in names and line.startswith(first + " "):
            rows[first] = line
    # Every tool has its row, starting with its whole name.
    assert sorted(rows) == sorted(set(names))
    # The stage marks and the verdict sit at the same columns on every row.
    n_stages = len(data["stages"])
    positions = set()
    for line in rows.values():
        cells = [(m.start(), m.group()) for m in re.finditer(r"\S+", line)][1:]
        marks = [(pos, text) for pos, text in cells if text in MARKS][:n_stages]
        verdict = next(pos for pos, text in cells if text in ("visible", "hidden", "unknown"))
        assert len(marks) == n_stages, line
        positions.add((tuple(pos for pos, _ in marks), verdict))
    assert len(positions) == 1, positions
    # A shortened rule points at the whole one.
    if "…" in out:
        assert "toolscope explain CONFIG TOOL" in out.replace("\n", " ")


def test_tools_wide_prints_rules_whole() -> None:
    data = json.loads(run(80, "tools", SEED, "--mode", "build", "--json").stdout)
    out = run(80, "tools", SEED, "--mode", "build", "--wide").stdout
    for tool in data["tools"]:
        failing = tool["first_failing_stage"]
        if failing:
            stages = [data["stage_results"][i] for i in tool["stages"]]
            rule = next(s["rule"] for s in stages if s["name"] == failing)
            assert rule in out
    assert "…" not in out


def test_tools_piped_uses_columns_or_a_stable_width() -> None:
    env = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
    cmd = [sys.executable, "-m", "toolscope", "tools", REALISTIC, "--step", "research"]
    piped = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True).stdout
    widest = max(len(line) for line in piped.splitlines())
    assert PIPED_WIDTH - 10 < widest <= PIPED_WIDTH
    narrow = subprocess.run(cmd, env=env | {"COLUMNS": "90"}, capture_output=True, text=True, check=True).stdout
    assert max(len(line) for line in narrow.splitlines()) <= 90
    assert "\x1b[" not in piped  # no colour codes into a pipe


@pytest.mark.parametrize("width", [80, 120])
def test_explain_wraps_whole_words(width: int) -> None:
    args = ["explain", SEED, "notify_user", "--mode", "build"]
    data = json.loads(run(width, *args, "--json").stdout)
    out = run(width, *args).stdout
    assert_fits(out, width)
    words = tokens(out)
    for stage in data["stages"]:
        # Whole, or its quoted part ("a call is refused with: <denial text>") in the checklist.
        assert tokens(stage["rule"].split(": ", 1)[-1]) <= words, stage["rule"]
    for item in data["checklist"]:
        for evidence in item["evidence"]:
            assert tokens(evidence) <= words
    assert tokens(data["fix"]) <= words
    # Continuation lines of an answer's evidence hang under it, not at column 0.
    lines = out.splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("1. "))
    assert all(line.startswith("     ") for line in lines[first + 1 : first + 3])


@pytest.mark.parametrize("width", [80, 120])
def test_check_keeps_kinds_and_messages_whole(width: int) -> None:
    args = ["check", str(SAMPLES / "seed" / "steps.json"), "--step", "pulse-monitor", "--mode", "build"]
    data = json.loads(run(width, *args, "--json").stdout)
    out = run(width, *args).stdout
    assert_fits(out, width)
    for finding in data["findings"]:
        assert finding["kind"] in tokens(out)
        assert tokens(finding["message"]) <= tokens(out)


@pytest.mark.agentscope
@pytest.mark.parametrize("width", [80, 120])
def test_step_reads_at_width_and_ends_with_a_divergence_line(width: int) -> None:
    script = str(SAMPLES / "agentscope" / "typo.json")
    data = json.loads(run(width, "step", TOOLKIT, "--script", script, "--json").stdout)
    out = run(width, "step", TOOLKIT, "--script", script).stdout
    assert_fits(out, width)
    for lane in data["lanes"].values():
        for turn in lane:
            assert tokens(turn["call"]) <= tokens(out)
            assert set(turn["visible_tools"]) <= {t.strip(",()") for t in tokens(out)}
    # The lanes diverge where their groups or outcome differ (2.0.6: the typo turn).
    stock, guarded = data["lanes"]["stock"], data["lanes"]["guarded"]
    diverged = [
        s["turn"]
        for s, g in zip(stock, guarded, strict=True)
        if s["groups_after"] != g["groups_after"] or s["accepted"] != g["accepted"]
    ]
    last = out.rstrip().splitlines()[-1]
    if diverged:
        turns = ", ".join(map(str, diverged))
        assert last.startswith(f"lanes diverged at turn{'s' if len(diverged) > 1 else ''} {turns} of 3 calls")
    else:
        assert last == "lanes agree: same groups and outcome at every turn (3 calls)"


def test_divergence_summary_names_the_turns() -> None:
    from toolscope.cli.render.step import divergence_summary
    from toolscope.core.systems.agentscope.turns import LaneTurn, Turn

    def lane(name: str, accepted: bool, groups: tuple[str, ...]) -> LaneTurn:
        return LaneTurn(name, "{}", {}, accepted, "success", "", (), groups, (), 1, None, None, None)

    same = Turn(1, "call", "{}", {"stock": lane("stock", True, ("a",)), "guarded": lane("guarded", True, ("a",))})
    stored = Turn(
        2, "call", "{}", {"stock": lane("stock", True, ("a", "b")), "guarded": lane("guarded", False, ("a",))}
    )
    refused = Turn(3, "call", "{}", {"stock": lane("stock", False, ("a",)), "guarded": lane("guarded", True, ("a",))})
    group = Turn(4, "register_group", "register group x")
    assert divergence_summary([same, stored, group, refused]).plain.startswith(
        "lanes diverged at turns 2, 3 of 3 calls"
    )
    assert divergence_summary([same, group]).plain == "lanes agree: same groups and outcome at every turn (1 call)"


def test_wrap_and_shorten_never_split_words() -> None:
    text = "registered: namespace github has specific selected_tools entries (step_config.json: agent_configs.x[0])"
    for width in range(10, 60):
        lines = wrap_words(text, width)
        assert " ".join(lines) == text
        assert all(len(line) <= width or " " not in line for line in lines)
        short, cut = shorten(text, width)
        assert cut and len(short) <= width and short.endswith("…")
        kept = short[:-1].split()
        assert kept and all(word in text.split() for word in kept[:-1])


@pytest.mark.agentscope
@pytest.mark.parametrize("width", [80, 120])
def test_step_session_reads_at_width(width: int) -> None:
    session = str(SAMPLES / "agentscope" / "session_typo.json")
    out = run(width, "step", TOOLKIT, "--session", session).stdout
    assert_fits(out, width)
    data = json.loads(run(width, "step", TOOLKIT, "--session", session, "--json").stdout)
    for turn in data["session"]["turns"] if "turns" in data["session"] else []:
        raw = turn.get("call", {}).get("raw_input") if isinstance(turn.get("call"), dict) else None
        if raw:
            assert tokens(raw) <= tokens(out)
    assert '{"web_serch":' in out and "│" not in out  # the call whole, no table folding it
    assert re.search(r"^ +5 +page_fetch +error doesn't exist +offered \(web_search\) +turn 4$", out, re.M)


@pytest.mark.parametrize("width", [80, 120])
def test_filter_reasons_wrap_whole(width: int) -> None:
    args = ["filter", "--selected-tools", "github:create_issue", "--selected-servers", "github"]
    queries = ["github:create_issue", "github:list_issues", "google-sheets:GetSheetData"]
    data = json.loads(run(width, *args, "--json", *queries, "--server", "slack").stdout)
    out = run(width, *args, *queries, "--server", "slack").stdout
    assert_fits(out, width)
    for answer in data["answers"]:
        assert answer["code"] in tokens(out)
        assert tokens(answer["reason"]) <= tokens(out)
    for query in queries:
        assert re.search(rf"^{re.escape(query)} ", out, re.M)


def test_the_tools_table_lays_out_rows_not_tool_verdicts(monkeypatch: pytest.MonkeyPatch) -> None:
    """The table works by row of stages: no ToolVerdict is built per tool, and each distinct
    row's marks, verdict and rule are laid out once; --hidden keeps the hidden tools in order."""
    from toolscope.core.model.verdicts import VerdictList

    built: list[int] = []
    real = VerdictList._build
    monkeypatch.setattr(VerdictList, "_build", lambda self, index: (built.append(index), real(self, index))[1])
    everything = CliRunner().invoke(app, ["tools", SEED, "--mode", "build"], env={"COLUMNS": "200"})
    hidden = CliRunner().invoke(app, ["tools", SEED, "--mode", "build", "--hidden"], env={"COLUMNS": "200"})
    assert everything.exit_code == 0 and hidden.exit_code == 0
    assert built == []

    def not_visible(text: str) -> list[str]:
        return [line.split()[0] for line in text.splitlines() if re.search(r"  (hidden|unknown)  ", line)]

    assert not_visible(everything.stdout) == not_visible(hidden.stdout)
    assert len(not_visible(hidden.stdout)) == 12 and " visible  " not in hidden.stdout
