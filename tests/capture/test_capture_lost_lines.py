"""A capture line is written only when toolscope's own reader reads it back, and a line that
could not be written changes the summary and the exit status (74) instead of being counted.

The real CLI in a subprocess, a real client over HTTP; the full disk is a file-size limit
(``RLIMIT_FSIZE``, set for the capture process and inherited by its record worker), which
fails ``write`` with EFBIG part-way through a line as a full disk fails it with ENOSPC."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

from toolscope.core.capture.line_limits import MAX_VALUE_DEPTH, encode_line
from toolscope.core.capture.line_sink import LineSink
from toolscope.core.capture.reader import CaptureFollower, read_capture
from toolscope.core.capture.writer import reply_record

HOSTILE_CLIENT = r"""
import os, httpx
base = os.environ["OPENAI_BASE_URL"]
deep = "[" * 230 + "]" * 230
bodies = [
    b'{"model":"m","messages":[],"tools":[{"type":"function","function":{"name":"a\\ud800b"}}]}',
    ('{"model":"m","messages":[],"tool_choice":' + deep + '}').encode(),
    b'{"model":"m","messages":[]}',
]
for body in bodies:
    assert httpx.post(base + "/chat/completions", content=body, headers={"content-type": "application/json"}).status_code == 200
"""

MANY_CLIENT = r"""
import os, json, httpx
base = os.environ["OPENAI_BASE_URL"]
tools = [{"type": "function", "function": {"name": f"tool_{i}", "description": "x" * 50}} for i in range(100)]
body = json.dumps({"model": "m", "messages": [], "tools": tools}).encode()
with httpx.Client() as client:
    for _ in range(80):
        assert client.post(base + "/chat/completions", content=body).status_code == 200
"""


def _capture(tmp_path: Path, client: str, limit: int | None = None) -> subprocess.CompletedProcess[str]:
    (tmp_path / "client.py").write_text(client)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "ANTHROPIC_"))}

    def limit_file_size() -> None:
        if limit is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return subprocess.run(
        [sys.executable, "-m", "toolscope", "capture", "-o", "c.jsonl", "--", sys.executable, "client.py"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
        preexec_fn=limit_file_size,
    )


def test_every_answered_request_is_a_line_the_reader_reads(tmp_path: Path) -> None:
    done = _capture(tmp_path, HOSTILE_CLIENT)
    assert done.returncode == 0, done.stderr
    assert "3 requests recorded" in done.stderr
    records = read_capture(tmp_path / "c.jsonl").records
    assert [r.index for r in records] == [1, 2, 3]
    assert records[0].tools[0].name == "a\ufffdb"  # the lone surrogate as U+FFFD
    assert records[1].tool_choice == f"not recorded: nested deeper than {MAX_VALUE_DEPTH} levels"


def test_a_full_disk_is_exit_74_and_the_summary_counts_the_lost_lines(tmp_path: Path) -> None:
    done = _capture(tmp_path, MANY_CLIENT, limit=64 * 1024)
    assert done.returncode == 74, done.stderr
    read = read_capture(tmp_path / "c.jsonl")
    assert not read.partial_tail  # a line cut by the limit was taken back
    kept = len(read.records)
    assert 0 < kept < 80
    assert f"{kept} requests recorded, {80 - kept} answered but NOT recorded (File too large)" in done.stderr


def _record(**changes: object) -> dict[str, object]:
    call = {"name": "reset_tools", "namespace": None, "arguments": {}}
    base = {
        "schema": "toolscope.capture/1",
        "index": 1,
        "received_at": "2026-12-01T10:07:15.123Z",
        "protocol": "openai-chat",
        "path": "/v1/chat/completions",
        "mode": "scripted",
        "model": "m",
        "stream": False,
        "user_agent": None,
        "tools": [],
        "deferred_names": [],
        "deferred_namespaces": [],
        "tool_choice": None,
        "system_bytes": 0,
        "system_token_estimate": 0,
        "messages": 0,
        "reply": reply_record("scripted", 200, [call], 0, None, None),
        "duration_ms": 1.0,
        "kept": None,
        "error": None,
    }
    return {**base, **changes}


def _nested(depth: int) -> object:
    value: object = {}
    for _ in range(depth - 1):
        value = [value]
    return value


def test_values_at_the_depth_limit_are_kept_and_read_back_deeper_ones_are_marked(tmp_path: Path) -> None:
    call = {"name": "x", "namespace": None, "arguments": _nested(MAX_VALUE_DEPTH)}
    kept = {"system": _nested(MAX_VALUE_DEPTH), "messages": _nested(MAX_VALUE_DEPTH + 1), "reply_text": ""}
    at_limit = _record(tool_choice=_nested(MAX_VALUE_DEPTH), kept=kept)
    at_limit["reply"] = reply_record("scripted", 200, [call], 0, None, None)
    path = tmp_path / "c.jsonl"
    path.write_bytes(encode_line(at_limit) + encode_line(_record(index=2, tool_choice=_nested(MAX_VALUE_DEPTH + 1))))
    first, second = read_capture(path).records
    assert first.tool_choice == _nested(MAX_VALUE_DEPTH)
    assert first.reply.tool_calls[0].arguments == _nested(MAX_VALUE_DEPTH)
    assert first.kept is not None and first.kept.messages.startswith("not recorded: nested deeper than")
    assert second.tool_choice.startswith("not recorded: nested deeper than")
    assert len(CaptureFollower(path).poll()) == 2


def test_a_line_that_fails_part_way_is_taken_back(tmp_path: Path) -> None:
    path = tmp_path / "c.jsonl"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    sink = LineSink(fd)
    first = encode_line(_record())
    old = resource.getrlimit(resource.RLIMIT_FSIZE)
    resource.setrlimit(resource.RLIMIT_FSIZE, (len(first) + 10, old[1]))
    try:
        assert sink.write(first)
        assert not sink.write(encode_line(_record(index=2)))  # 10 bytes fit, then EFBIG
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, old)
        os.close(fd)
    assert (sink.written, sink.lost, sink.reason) == (1, 1, "File too large")
    assert path.read_bytes() == first


def test_a_10_mb_captured_name_is_printed_clipped_by_every_command(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from toolscope.cli.app import app

    big = "n" * 10_000_000
    tool = {
        "name": big,
        "namespace": None,
        "type": "function",
        "schema_bytes": 9,
        "token_estimate": 3,
        "deferred": True,
    }
    call = {"name": "c" + big[:6_000_000], "namespace": None, "arguments": {}}
    first = _record(tools=[tool], reply=reply_record("upstream", 200, [call], 0, None, None))
    path = tmp_path / "big.jsonl"
    path.write_bytes(encode_line(first) + encode_line(_record(index=2)))
    seed = "sample_configs/seed/step_config.json"
    toolkit = "sample_configs/agentscope/toolkit.yaml"
    commands = [["report"], ["report", "--format", "json"], ["check", seed, "--json"], ["tools", seed]]
    for command in [*commands, ["step", toolkit], ["report", toolkit, "--format", "html"]]:
        done = CliRunner().invoke(app, [*command, "--capture", str(path)])
        assert len(done.output) < 200_000, (command, len(done.output))
        assert "characters not shown" in done.output, command
