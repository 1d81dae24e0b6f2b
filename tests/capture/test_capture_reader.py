"""The capture file format: records the writer writes read back through ``toolscope.capture/1``,
a half-written last line, bad lines named by file and line, following a growing file."""

from __future__ import annotations

import json
import time
from pathlib import Path

import jsonschema
import pytest

from toolscope.core.capture.reader import CaptureFollower, parse_capture, read_capture
from toolscope.core.capture.request_facts import request_facts
from toolscope.core.capture.writer import CaptureWriter, now_iso, record, reply_record
from toolscope.core.model.errors import InputError
from toolscope.core.schemas import committed_schema

BODY = {
    "model": "claude-x",
    "system": "Be brief.",
    "messages": [{"role": "user", "content": "hi"}],
    "tools": [
        {"name": "reset_tools", "input_schema": {"type": "object"}},
        {"name": "web_search", "input_schema": {"type": "object"}, "defer_loading": True},
    ],
    "tool_choice": {"type": "auto"},
}


def _write(path: Path, count: int) -> list[dict]:
    writer = CaptureWriter(path)
    lines = []
    for _ in range(count):
        index = writer.next_index()
        data = record(
            index=index,
            received_at=now_iso(),
            protocol="anthropic-messages",
            path="/v1/messages",
            mode="scripted",
            user_agent="test",
            facts=request_facts("anthropic-messages", BODY),
            reply=reply_record(
                "scripted",
                200,
                [{"name": "reset_tools", "namespace": None, "arguments": {"a": 1}}],
                0,
                "tool_use",
                None,
            ),
            started=time.perf_counter(),
            kept=None,
        )
        writer.write(data)
        lines.append(data)
    writer.close()
    return lines


def test_written_records_read_back_and_match_the_schema(tmp_path: Path) -> None:
    path = tmp_path / "c.jsonl"
    written = _write(path, 3)
    read = read_capture(path)
    assert [r.index for r in read.records] == [1, 2, 3] and not read.partial_tail
    first = read.records[0]
    assert [(t.name, t.deferred, t.type) for t in first.tools] == [
        ("reset_tools", False, "custom"),
        ("web_search", True, "custom"),
    ]
    assert first.tools[1].token_estimate == -(-first.tools[1].schema_bytes // 4)
    assert first.system_bytes == len("Be brief.") and first.messages == 1
    assert first.reply.tool_calls[0].arguments == {"a": 1}
    schema = committed_schema("toolscope.capture/1")
    for line in path.read_text().splitlines():
        jsonschema.validate(json.loads(line), schema)
    # The writer's dicts follow the model's key order.
    assert list(written[0]) == [f.alias or n for n, f in type(first).model_fields.items()]


def test_a_half_written_last_line_is_left_for_later(tmp_path: Path) -> None:
    path = tmp_path / "c.jsonl"
    _write(path, 2)
    data = path.read_bytes()
    cut = data[: len(data) - 40]
    read = parse_capture(cut, "c.jsonl")
    assert len(read.records) == 1 and read.partial_tail
    assert read.consumed == data.index(b"\n") + 1


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (b"{not json\n", "c.jsonl: is not a capture file (JSON Lines)\n  line 2:"),
        (b'{"schema": "toolscope.tools/2"}\n', "line 2: schema 'toolscope.tools/2'; expected 'toolscope.capture/1'"),
        (
            b'{"schema": "toolscope.capture/1", "index": "one"}\n',
            "c.jsonl: has a record that does not match toolscope.capture/1",
        ),
    ],
)
def test_a_bad_complete_line_names_the_file_and_line(tmp_path: Path, line: bytes, expected: str) -> None:
    path = tmp_path / "c.jsonl"
    _write(path, 1)
    with pytest.raises(InputError) as caught:
        parse_capture(path.read_bytes() + line + b"\n", "c.jsonl")
    assert expected in caught.value.render()


def test_the_record_cap_stops_reading(tmp_path: Path) -> None:
    path = tmp_path / "c.jsonl"
    _write(path, 5)
    read = read_capture(path, max_records=2)
    assert len(read.records) == 2 and read.truncated


def test_following_a_growing_file(tmp_path: Path) -> None:
    path = tmp_path / "c.jsonl"
    follower = CaptureFollower(path)
    assert follower.poll() == []  # not there yet
    _write(path, 2)
    full = path.read_bytes()
    path.write_bytes(full[:-30])  # the second line still being written
    assert [r.index for r in follower.poll()] == [1]
    path.write_bytes(full)
    assert [r.index for r in follower.poll()] == [2]
    assert follower.poll() == []
    _write(path, 1)  # a new run on the same path starts again
    assert [r.index for r in follower.poll()] == [1] and follower.restarted


def test_a_directory_is_refused(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="is a directory"):
        read_capture(tmp_path)


def test_refused_requests_are_read_and_left_out_of_the_model_turns(tmp_path: Path) -> None:
    from toolscope.core.capture.observed_file import load_capture
    from toolscope.core.capture.writer import error_record

    path = tmp_path / "c.jsonl"
    writer = CaptureWriter(path)
    for protocol, path_sent, kind, status in [
        ("openai-chat", "/v1/chat/completions", "malformed_json", 400),
        (None, "/v2/models", "unknown_path", 404),
        (None, "/favicon.ico", "unknown_path", 404),
    ]:
        writer.write(
            error_record(
                index=writer.next_index(),
                received_at=now_iso(),
                protocol=protocol,
                path=path_sent,
                mode="scripted",
                method="POST",
                user_agent=None,
                status=status,
                kind=kind,
                message="refused",
                started=time.perf_counter(),
            )
        )
    writer.close()
    _append = path.read_bytes()
    _write(tmp_path / "ok.jsonl", 1)
    path.write_bytes(_append + (tmp_path / "ok.jsonl").read_bytes().replace(b'"index":1', b'"index":4'))
    read = read_capture(path)
    assert [(r.index, r.error and r.error.kind) for r in read.records] == [
        (1, "malformed_json"),
        (2, "unknown_path"),
        (3, "unknown_path"),
        (4, None),
    ]
    schema = committed_schema("toolscope.capture/1")
    for line in path.read_text().splitlines():
        jsonschema.validate(json.loads(line), schema)
    capture = load_capture(path)
    assert [(r.index, r.record) for r in capture.requests] == [(1, 4)]
    assert capture.skipped == ("3 refused requests (1 malformed_json, 2 unknown_path): not model turns",)
