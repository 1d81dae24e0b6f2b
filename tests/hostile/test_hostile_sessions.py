"""Hostile corpus: recorded sessions are read like every other input.

The session reader uses the strict reader and the input limits: nesting, huge numbers,
lone surrogates, NaN are exit 2 naming the file; a BOM is accepted; more than 128 MiB is
refused before it is read; a tap cut mid-record (a full disk) is read up to its last whole
record. The sessions are the real recording shipped in sample_configs (made by a real
AgentScope ``Agent``), altered the way a broken disk or a hostile hand would.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hostile_helpers import bad, run_bounded

pytestmark = pytest.mark.agentscope

REPO = Path(__file__).resolve().parents[2]
AGENTSCOPE = REPO / "sample_configs" / "agentscope"
TOOLKIT = AGENTSCOPE / "toolkit.yaml"
RECORDED = AGENTSCOPE / "session_typo.json"


def step(session: Path, *extra: str):
    return run_bounded("step", str(TOOLKIT), "--session", str(session), *extra)


def recorded() -> dict:
    return json.loads(RECORDED.read_text())


def with_metadata(value: object) -> str:
    state = recorded()
    state["context"][0]["metadata"] = {"x": value}
    return json.dumps(state)


CASES = [
    ("deep.json", lambda: '{"context": ' + "[" * 100_000 + "]" * 100_000 + "}", ["deep.json", "nested"]),
    ("deep_metadata.json", lambda: with_metadata(json.loads("[" * 900 + "]" * 900)), ["nested more than"]),
    ("digits.json", lambda: with_metadata(0).replace('{"x": 0}', '{"x": ' + "9" * 5000 + "}"), ["digits"]),
    ("surrogate.json", lambda: with_metadata("a").replace('"x": "a"', '"x": "\\ud800"'), ["surrogate"]),
    ("nan.json", lambda: with_metadata(0).replace('{"x": 0}', '{"x": NaN}'), ["NaN"]),
    ("dupkey.json", lambda: with_metadata(0).replace('{"x": 0}', '{"x": 0, "x": 1}'), ["appears twice"]),
]


@pytest.mark.parametrize(("name", "make", "needles"), CASES, ids=[case[0] for case in CASES])
def test_malformed_sessions_are_bad_input(tmp_path: Path, name: str, make, needles: list[str]) -> None:
    path = tmp_path / name
    path.write_text(make())
    bad(step(path), name, *needles)


def test_a_bom_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + RECORDED.read_bytes())
    result = step(path)
    assert result.exit_code == 0, result.output
    assert "turn 4" in result.output


def test_a_session_over_the_input_limit_is_refused_unread(tmp_path: Path) -> None:
    path = tmp_path / "big.json"
    with path.open("wb") as handle:  # sparse: 129 MiB on paper, nothing on disk
        handle.write(b"{")
        handle.truncate(129 * 1024 * 1024)
    bad(step(path), "big.json", "128 MiB")


def test_a_named_pipe_is_refused_without_waiting(tmp_path: Path) -> None:
    fifo = tmp_path / "session.fifo"
    os.mkfifo(fifo)
    result = step(fifo)
    assert result.exit_code == 2, result.output
    assert "session.fifo" in result.output


def tap_lines() -> list[str]:
    header = {"toolscope_tap": 1, "agentscope": "2.0.11", "session_id": "s", "groups": [], "pid": 1}
    calls = [
        {"call": 1, "turn": 1, "tool": "reset_tools", "state": "success", "args": {"web_search": True}},
        {"call": 2, "turn": 1, "tool": "web_search", "state": "success", "failure": None},
        {"call": 3, "turn": 2, "tool": "reset_tools", "state": "success", "args": {"scraping": True}},
    ]
    return [json.dumps(header)] + [json.dumps(c) for c in calls]


def test_a_tap_cut_mid_record_is_read_up_to_the_last_whole_record(tmp_path: Path) -> None:
    lines = tap_lines()
    path = tmp_path / "cut.tap.jsonl"
    path.write_text("\n".join(lines[:3]) + "\n" + lines[3][: len(lines[3]) // 2])  # a full disk, mid-record
    result = step(path, "--json")
    assert result.exit_code == 0, result.output
    session = json.loads(result.output)["session"]
    assert [t["call"] for t in session["turns"]] == ['{"web_search": true}']
    assert any("cut mid-record" in note for note in session["notes"])


def test_a_message_list_cut_mid_record_is_still_refused(tmp_path: Path) -> None:
    # Only the tap is appended record by record; a cut JSON document is not a session.
    path = tmp_path / "cut.json"
    text = RECORDED.read_text()
    path.write_text(text[: len(text) // 2])
    bad(step(path), "cut.json", "truncated")
