"""The tap on a real Agent: what it records (group flags, names, result states, real groups;
never argument values), that the recording replays, and that it never breaks the agent
(missing folder, full disk, a FIFO whose reader is gone)."""

from __future__ import annotations

import asyncio
import json
import os
import threading
from pathlib import Path

import pytest
from session_helpers import drop_web_turns, recorder
from typer.testing import CliRunner

from toolscope.cli.app import app

pytestmark = pytest.mark.agentscope


def _run(samples: Path, tap, turns=None):
    rec = recorder(samples)
    middlewares = [tap] if tap is not None else []
    return asyncio.run(rec.run_agent(middlewares=middlewares, turns=turns if turns is not None else drop_web_turns()))


def _outcome(agent) -> tuple:
    """What the agent did: every block's kind, tool name and result state, and the final groups."""
    blocks = [
        (b.type, getattr(b, "name", None), str(getattr(b, "state", "")))
        for m in agent.state.context
        for b in (m.content if isinstance(m.content, list) else [])
        if b.type in ("tool_call", "tool_result", "text")
    ]
    return blocks, list(agent.state.tool_context.activated_groups)


def test_tap_records_flags_names_states_and_real_groups(samples, tmp_path) -> None:
    import agentscope

    from toolscope.tap import SessionTap

    path = tmp_path / "agent.tap.jsonl"
    tap = SessionTap(path)
    _run(samples, tap)
    assert tap.error is None
    text = path.read_text()
    assert "secret-query-value" not in text and "example.org/private" not in text and "query" not in text
    header, *records = [json.loads(line) for line in text.splitlines()]
    assert header["toolscope_tap"] == 1 and header["agentscope"] == agentscope.__version__
    assert header["groups"] == [] and header["pid"] == os.getpid()
    assert [(r["turn"], r["tool"], r["state"]) for r in records] == [
        (1, "reset_tools", "success"),
        (2, "web_search", "success"),
        (3, "reset_tools", "success"),
        (4, "page_fetch", "error"),
    ]
    assert records[0]["args"] == {"web_search": True, "scraping": True}
    assert records[2]["groups"] == ["scraping"]
    assert records[3]["failure"] in ("not_found", "inactive_group") and "args" not in records[3]

    result = CliRunner().invoke(app, ["step", str(samples / "toolkit.yaml"), "--session", str(path), "--json"])
    assert result.exit_code == 0, result.output
    session = json.loads(result.output)["session"]
    assert session["starting_groups"] == {"groups": [], "from": "session"}
    assert session["agentscope_version"] == agentscope.__version__
    assert [link["model_turn"] for link in session["lost_tool_links"]] == [3]
    human = CliRunner().invoke(
        app, ["step", str(samples / "toolkit.yaml"), "--session", str(path), "--groups", "web_search"]
    )
    assert "starting groups: (none) — recorded in the session; --groups ignored" in human.output


def test_tap_keeps_no_non_boolean_value(samples, tmp_path) -> None:
    from agentscope.message import TextBlock, ToolCallBlock

    from toolscope.tap import SessionTap

    path = tmp_path / "t.jsonl"
    turns = [
        [ToolCallBlock(id="x1", name="reset_tools", input=json.dumps({"web_search": "s3cr3t-value"}))],
        [TextBlock(text="ok")],
    ]
    _run(samples, SessionTap(path), turns)
    record = json.loads(path.read_text().splitlines()[1])
    assert record["args"] == {"web_search": None} and record["redacted"] == ["web_search"]
    assert "s3cr3t" not in path.read_text()


@pytest.mark.parametrize("where", ["missing folder", "full disk", "fifo without reader", "reader gone"])
def test_tap_never_breaks_the_agent(samples, tmp_path, where) -> None:
    from toolscope.tap import SessionTap

    baseline = _outcome(_run(samples, None))
    reader = None
    if where == "missing folder":
        path = tmp_path / "no" / "such" / "folder" / "t.jsonl"
    elif where == "full disk":
        if not Path("/dev/full").exists():
            pytest.skip("no /dev/full on this system")
        path = Path("/dev/full")  # every write fails with ENOSPC
    else:
        path = tmp_path / "fifo"
        os.mkfifo(path)
        if where == "reader gone":
            reader = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    tap = SessionTap(path)
    if reader is not None:
        # The reader reads the header, then goes away: the next record hits a broken pipe.
        original = tap._write

        def write_then_drop(record):
            original(record)
            if "toolscope_tap" in record:
                os.close(reader)

        tap._write = write_then_drop
    assert _outcome(_run(samples, tap)) == baseline
    assert tap.error is not None, where
    assert threading.active_count() >= 1  # nothing left hanging


def test_tap_json_lines_are_whole_while_the_agent_writes(samples, tmp_path) -> None:
    """A follower polling mid-run sees only whole records (single os.write per line, O_APPEND)."""
    from toolscope.core.systems.agentscope.tap_reader import TapFollower
    from toolscope.tap import SessionTap

    path = tmp_path / "t.jsonl"
    follower = TapFollower(path)
    assert follower.poll() == []  # not there yet: nothing, no error
    _run(samples, SessionTap(path))
    with path.open("ab") as handle:
        handle.write(b'{"call": 99, "tool": "par')  # a record being written right now
    calls = follower.poll()
    assert [c.name for c in calls] == ["reset_tools", "web_search", "reset_tools", "page_fetch"]
    assert follower.header is not None and follower.poll() == []
    with path.open("ab") as handle:
        handle.write(b'tial", "state": "success", "groups": []}\n')
    assert [c.name for c in follower.poll()] == ["partial"]


def test_a_tap_with_only_its_header_is_an_empty_session(samples, tmp_path) -> None:
    path = tmp_path / "t.jsonl"
    path.write_text('{"toolscope_tap": 1, "agentscope": "2.0.11", "groups": ["web_search"], "pid": 1}\n')
    result = CliRunner().invoke(app, ["step", str(samples / "toolkit.yaml"), "--session", str(path)])
    assert result.exit_code == 0, result.output
    assert "starting groups: web_search — recorded in the session" in result.output
    assert "The session has no reset_tools call." in result.output


async def test_live_follow_starts_over_when_the_agent_rewrites_its_tap(samples, tmp_path) -> None:
    from toolscope.core.systems.agentscope.follow import LiveFollow
    from toolscope.core.systems.agentscope.spec import load_toolkit_spec

    path = tmp_path / "t.jsonl"
    header = '{"toolscope_tap": 1, "agentscope": "x", "groups": [], "pid": 1}\n'
    call = '{"call": 1, "turn": 1, "tool": "reset_tools", "state": "success", "args": {"%s": true}, "groups": ["%s"]}\n'
    path.write_text(
        header + call % ("web_search", "web_search") + call.replace('"call": 1', '"call": 2') % ("scraping", "scraping")
    )
    follow = LiveFollow(load_toolkit_spec(samples / "toolkit.yaml"), path)
    assert len(await follow.apoll()) == 2 and len(follow.session.history) == 2
    path.write_text(header + call % ("scraping", "scraping"))  # a new run, a shorter file
    events = await follow.apoll()
    assert len(events) == 1 and len(follow.session.history) == 1
    assert follow.real_groups == ("scraping",)
