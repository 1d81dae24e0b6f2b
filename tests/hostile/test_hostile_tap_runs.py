"""Hostile corpus: one tap file, several agents.

The taps are recorded here from real AgentScope ``Agent`` runs (the shipped recording
script's scripted offline model): two agents at once, each with its own ``SessionTap`` on the
same path, and two agents sharing one ``SessionTap``. Their records interleave in the file.
Each agent is its own timeline with its own run id: ``--session-id`` picks one; without it the
command exits 2 listing the runs and their refused calls; following the file follows the first.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from toolscope.cli.app import app

pytestmark = pytest.mark.agentscope

REPO = Path(__file__).resolve().parents[2]
AGENTSCOPE = REPO / "sample_configs" / "agentscope"
TOOLKIT = AGENTSCOPE / "toolkit.yaml"
runner = CliRunner()


def _recorder():
    sys.path.insert(0, str(REPO / "tests" / "agentscope"))
    from session_helpers import recorder

    return recorder(AGENTSCOPE)


def record_two_agents(path: Path, shared: bool) -> list[str]:
    """Two real agents at once writing ``path`` (the "drop" and the "typo" conversations); their run ids."""
    from toolscope.tap import SessionTap

    rec = _recorder()
    first = SessionTap(path)
    second = first if shared else SessionTap(path)

    async def both() -> None:
        await asyncio.gather(
            rec.run_agent(middlewares=[first], turns=rec.drop_turns(), delay=0.01),
            rec.run_agent(middlewares=[second], turns=rec.scripted_turns(), delay=0.013),
        )

    asyncio.run(both())
    assert first.error is None and second.error is None
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    runs = list(dict.fromkeys(line["run"] for line in lines))
    assert len(runs) == 2
    # Interleaved: the second run's header comes before the first run's last record.
    assert [line["run"] for line in lines] != sorted((line["run"] for line in lines), key=runs.index)
    return runs


@pytest.fixture(scope="module", params=["a tap each", "one shared tap"])
def two_agent_tap(request, tmp_path_factory) -> tuple[Path, list[str]]:
    path = tmp_path_factory.mktemp("taps") / "two.tap.jsonl"
    return path, record_two_agents(path, shared=request.param == "one shared tap")


def step(tap: Path, *extra: str):
    return runner.invoke(app, ["step", str(TOOLKIT), "--session", str(tap), *extra])


def test_without_a_run_the_command_lists_the_runs_and_their_refused_calls(two_agent_tap) -> None:
    # Before: both agents were merged into one timeline and the lost page_fetch was never reported.
    tap, (drop_run, typo_run) = two_agent_tap
    for command in (["step"], ["report", "--format", "md"], ["check"]):
        result = runner.invoke(app, [*command, str(TOOLKIT), "--session", str(tap)])
        assert result.exit_code == 2, (command, result.output)
        assert "holds 2 runs" in result.output and "--session-id" in result.output
        assert f"run {drop_run}: " in result.output and f"run {typo_run}: " in result.output
        assert "refused: turn 4 page_fetch (inactive)" in result.output
        assert "Traceback" not in result.output


def test_each_run_replays_as_its_own_timeline(two_agent_tap) -> None:
    tap, (drop_run, typo_run) = two_agent_tap
    drop = step(tap, "--session-id", drop_run, "--json")
    assert drop.exit_code == 0, drop.output
    session = json.loads(drop.output)["session"]
    assert [t["call"] for t in session["turns"]] == ['{"web_search": true, "scraping": true}', '{"scraping": true}']
    [link] = session["lost_tool_links"]
    assert link["tools"] == ["page_fetch"] and link["model_turn"] == 3
    assert f"run {drop_run} of the 2 runs in this tap" in session["notes"]
    typo = step(tap, "--session-id", typo_run, "--json")
    assert typo.exit_code == 0, typo.output
    turns = json.loads(typo.output)["session"]["turns"]
    assert [t["call"] for t in turns] == ['{"web_search": true, "scraping": true}', '{"web_serch": true}']


def test_an_unknown_run_is_bad_input_naming_the_runs(two_agent_tap) -> None:
    tap, runs = two_agent_tap
    result = step(tap, "--session-id", "nope")
    assert result.exit_code == 2 and "no run has that id" in result.output
    assert all(run in result.output for run in runs)


def test_following_such_a_tap_follows_the_first_run_and_counts_the_others(two_agent_tap) -> None:
    from toolscope.core.systems.agentscope.tap_reader import TapFollower

    tap, (drop_run, typo_run) = two_agent_tap
    follower = TapFollower(tap)
    calls = follower.poll()
    assert follower.run_id == drop_run and list(follower.other_runs) == [typo_run]
    assert [(c.model_turn, c.name) for c in calls] == [
        (1, "reset_tools"),
        (2, "web_search"),
        (3, "reset_tools"),
        (4, "page_fetch"),
    ]


def test_a_tap_with_one_run_needs_no_run_id(tmp_path: Path) -> None:
    from toolscope.tap import SessionTap

    rec = _recorder()
    path = tmp_path / "one.tap.jsonl"
    asyncio.run(rec.run_agent(middlewares=[SessionTap(path)], turns=rec.drop_turns()))
    result = step(path, "--json")
    assert result.exit_code == 0, result.output
    [run] = {json.loads(line)["run"] for line in path.read_text().splitlines()}
    assert step(path, "--session-id", run).exit_code == 0
