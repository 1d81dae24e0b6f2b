"""Replaying recorded AgentScope sessions: the shipped 2.0.6 sample, sessions recorded now by a
real Agent (saved as an AgentState dump, a Msg array and JSONL), the lost-tool link, the JSON
block, the report, and every kind of bad input (exit 2, the source never written).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from pathlib import Path

import pytest
from agentscope_version import agentscope_version
from json_contracts import validated
from session_helpers import drop_web_turns, recorder
from typer.testing import CliRunner

from toolscope.cli.app import app

pytestmark = pytest.mark.agentscope

FIXTURES = Path(__file__).parent / "fixtures"
runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, list(args))


def test_shipped_sample_prints_the_lost_tool_link_first(samples) -> None:
    result = run("step", str(samples / "toolkit.yaml"), "--session", str(samples / "session_typo.json"))
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[1] == "Lost tools:"
    assert lines[2] == (
        '  turn 4: reset_tools({"web_serch": true}) cleared web_search and scraping; '
        "turns 5–6 then called page_fetch and got 'doesn't exist'"
    )
    assert "guarded lane at turn 4: the guard would have refused it" in lines[3]
    if agentscope_version() == (2, 0, 6):
        assert "= the stock replay matches the recording at every turn" in result.output
    else:
        # Newer versions refuse the typo: the replay diverges from the 2.0.6 recording, and says so.
        assert "≠ the stock replay differs from the recording at turn 4" in result.output
    assert "the toolkit's initial state (the session does not record them" in result.output


def test_shipped_sample_json_keeps_step_schema_and_adds_session(samples) -> None:
    result = run("step", str(samples / "toolkit.yaml"), "--session", str(samples / "session_typo.json"), "--json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    assert doc["schema"] == "toolscope.step/1"
    assert doc["script"] is None and len(doc["lanes"]["stock"]) == 2
    session = doc["session"]
    assert session["source"]["kind"] == "agent_state"
    assert session["recorded_final_groups"] == ["web_serch"]
    [link] = session["lost_tool_links"]
    assert (link["model_turn"], link["removed_groups"], link["tools"]) == (
        4,
        ["web_search", "scraping"],
        ["page_fetch"],
    )
    assert link["failed_model_turns"] == [5, 6]
    assert session["diverged_turns"] == ([] if agentscope_version() == (2, 0, 6) else [2])
    other = {o["model_turn"]: o for o in session["other_calls"]}
    assert other[7]["tool"] == "note_write" and other[7]["visibility"] == "visible"
    assert "url" not in json.dumps(session["other_calls"])  # argument values are never read


def _save_all(agent, tmp_path: Path, rec) -> dict[str, Path]:
    paths = {"state": tmp_path / "s.json", "msgs": tmp_path / "m.json", "jsonl": tmp_path / "m.data"}
    for form, path in paths.items():
        rec.write_session(agent, path, form)
    return paths


def test_a_session_recorded_now_replays_the_same_from_each_saved_form(samples, tmp_path) -> None:
    rec = recorder(samples)
    agent = asyncio.run(rec.run_agent(turns=drop_web_turns()))
    paths = _save_all(agent, tmp_path, rec)
    digests = {k: hashlib.sha256(p.read_bytes()).hexdigest() for k, p in paths.items()}
    answers = {}
    for form, path in paths.items():
        result = run("step", str(samples / "toolkit.yaml"), "--session", str(path), "--json")
        assert result.exit_code == 0, (form, result.output)
        session = json.loads(result.output)["session"]
        assert session["diverged_turns"] == []  # recorded and replayed on the same AgentScope
        [link] = session["lost_tool_links"]
        answers[form] = (link["model_turn"], link["removed_groups"], link["tools"], link["failed_model_turns"])
        assert "secret-query-value" not in result.output and "example.org/private" not in result.output
    assert list(answers.values()) == [(3, ["web_search"], ["page_fetch"], [4])] * 3
    assert {k: hashlib.sha256(p.read_bytes()).hexdigest() for k, p in paths.items()} == digests
    human = run("step", str(samples / "toolkit.yaml"), "--session", str(paths["jsonl"])).output
    assert 'turn 3: reset_tools({"scraping": true}) deactivated web_search; turn 4 then called page_fetch' in human


def test_report_shows_the_lost_tool_links(samples, tmp_path) -> None:
    md = run("report", str(samples / "toolkit.yaml"), "--session", str(samples / "session_typo.json"))
    assert md.exit_code == 0, md.output
    assert md.output.splitlines()[2].startswith("- Lost tool: turn 4: reset\\_tools(")
    assert "## Recorded session: session\\_typo.json" in md.output
    out = run(
        "report", str(samples / "toolkit.yaml"), "--session", str(samples / "session_typo.json"), "--format", "json"
    )
    doc = validated(out.output)
    assert doc["transcript"]["session"]["lost_tool_links"][0]["summary"].startswith("turn 4: reset_tools(")


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (None, "an AgentScope 1.x session, but AgentScope"),
        ('{"a": 1}', "not an AgentScope session"),
        ("", "the file is empty"),
        ("hello", "not an AgentScope session"),
        ('[{"role": "assistant", "name": "x", "content": [{"type": "bogus"}]}]', "not a Msg"),
        ("[]", "the session has no messages"),
    ],
)
def test_bad_sessions_exit_2(samples, tmp_path, content, expected) -> None:
    path = tmp_path / "bad.json"
    if content is None:
        path.write_bytes((FIXTURES / "agentscope1x_memory_state_dict.json").read_bytes())
    else:
        path.write_text(content)
    result = run("step", str(samples / "toolkit.yaml"), "--session", str(path))
    assert result.exit_code == 2, result.output
    assert str(path) in result.output and expected in result.output
    assert "Traceback" not in result.output


def test_agentscope_1x_messages_and_truncated_files_exit_2(samples, tmp_path) -> None:
    v1 = run("step", str(samples / "toolkit.yaml"), "--session", str(FIXTURES / "agentscope1x_msgs.json"))
    assert v1.exit_code == 2 and "AgentScope 1.x" in v1.output
    whole = (samples / "session_typo.json").read_bytes()
    cut = tmp_path / "cut.json"
    for end in (len(whole) // 2, whole.index(b"web_serch") + 3):  # anywhere, and inside a string
        cut.write_bytes(whole[:end])
        result = run("step", str(samples / "toolkit.yaml"), "--session", str(cut))
        assert result.exit_code == 2 and "truncated file" in result.output, result.output
    lines = [json.dumps(m) for m in json.loads(whole)["context"]]
    jsonl = tmp_path / "cut.jsonl"
    jsonl.write_text("\n".join(lines)[:-20])
    result = run("step", str(samples / "toolkit.yaml"), "--session", str(jsonl))
    assert result.exit_code == 2 and "the last line is incomplete" in result.output, result.output


def test_session_options_are_checked(samples) -> None:
    both = run(
        "step", str(samples / "toolkit.yaml"), "--session", str(samples / "session_typo.json"), "-s", "typo.json"
    )
    assert both.exit_code == 2 and "either --script or --session, not both" in both.output
    # Neither given: say what is missing, without blaming an option that was not given.
    neither = run("step", str(samples / "toolkit.yaml"))
    assert neither.exit_code == 2 and "step needs calls to step through: --script SCRIPT" in neither.output
    assert "--session:" not in neither.output and "--script:" not in neither.output
    sid = run(
        "step", str(samples / "toolkit.yaml"), "--session", str(samples / "session_typo.json"), "--session-id", "x"
    )
    assert (
        sid.exit_code == 2
        and "a toolscope tap holding several runs" in sid.output
        and "drop --session-id" in sid.output
    )
    missing = run("step", str(samples / "toolkit.yaml"), "--session", "nowhere.json")
    assert missing.exit_code == 2 and "nowhere.json: no such file" in missing.output


def test_untrusted_names_in_a_session_stay_inert(samples, tmp_path) -> None:
    msgs = [
        {
            "role": "assistant",
            "name": "x",
            "content": [
                {"type": "tool_call", "id": "1", "name": "evil\x1b[31m[bold]tool", "input": "{}"},
                {
                    "type": "tool_result",
                    "id": "1",
                    "name": "evil",
                    "output": "ToolNotFoundError: The tool named 'evil' doesn't exist.",
                    "state": "error",
                },
            ],
        }
    ]
    path = tmp_path / "evil.json"
    path.write_text(json.dumps(msgs))
    result = run("step", str(samples / "toolkit.yaml"), "--session", str(path))
    assert result.exit_code == 0, result.output
    assert "\x1b" not in result.output and "evil\\x1b[31m[bold]tool" in result.output
