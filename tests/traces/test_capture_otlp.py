"""``toolscope capture --otlp URL|FILE``: the real CLI in a subprocess, a real openai SDK client,
the export written to a file or POSTed to a real HTTP server on 127.0.0.1, then read back by
toolscope to the same facts as the capture file. A dead or slow endpoint is said and exit 74,
within the export's timeout."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path

import pytest

from toolscope.core.capture.observed_file import load_capture

AGENT = """
import openai
client = openai.OpenAI(max_retries=0)
tools = [{"type": "function", "function": {"name": name, "parameters": {"type": "object"}}}
         for name in ("reset_tools", "note_write")]
first = client.chat.completions.create(model="gpt-4.1", messages=[{"role": "user", "content": "x"}], tools=tools)
second = client.chat.completions.create(model="gpt-4.1", messages=[{"role": "user", "content": "x"}], tools=tools[:1])
print(first.choices[0].message.tool_calls[0].function.name, second.choices[0].message.content)
"""
REPLIES = [{"tool_calls": [{"name": "reset_tools", "arguments": {"web_search": True}}]}, {"text": "done"}]


def _capture(tmp_path: Path, *otlp: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "agent.py").write_text(AGENT)
    (tmp_path / "replies.json").write_text(json.dumps(REPLIES))
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "ANTHROPIC_"))}
    command = [sys.executable, "-m", "toolscope", "capture", "-o", "c.jsonl", "--replies", "replies.json", *otlp]
    return subprocess.run(
        [*command, "--", sys.executable, "agent.py"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120
    )


def _same_facts(capture: Path, trace: Path) -> None:
    a, b = load_capture(capture), load_capture(trace)
    assert [(r.model, r.tools, r.calls) for r in b.requests] == [(r.model, r.tools, r.calls) for r in a.requests]
    assert len(b.requests) == 2 and b.requests[0].tools == ("reset_tools", "note_write")


def test_the_export_file_reads_back_to_the_same_facts(tmp_path: Path) -> None:
    done = _capture(tmp_path, "--otlp", "run.otlp.json")
    assert done.returncode == 0, done.stderr
    assert "2 spans exported to run.otlp.json" in done.stderr
    document = json.loads((tmp_path / "run.otlp.json").read_text())
    span = document["resourceSpans"][0]["scopeSpans"][0]["spans"][0]
    keys = {a["key"] for a in span["attributes"]}
    assert {"gen_ai.operation.name", "gen_ai.request.model", "gen_ai.tool.definitions"} <= keys
    assert len(span["traceId"]) == 32 and len(span["spanId"]) == 16
    _same_facts(tmp_path / "c.jsonl", tmp_path / "run.otlp.json")


def test_the_export_is_posted_to_an_otlp_http_endpoint(tmp_path: Path) -> None:
    received: list[tuple[str, str, bytes]] = []

    class Collector(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - the http.server hook
            body = self.rfile.read(int(self.headers["Content-Length"]))
            received.append((self.path, self.headers["Content-Type"], body))
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            self.wfile.write(b"{}")

        def log_message(self, *args: object) -> None:
            pass

    server = HTTPServer(("127.0.0.1", 0), Collector)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        done = _capture(tmp_path, "--otlp", f"http://127.0.0.1:{server.server_port}")
    finally:
        server.shutdown()
    assert done.returncode == 0, done.stderr
    ((path, content_type, body),) = received
    assert (path, content_type) == ("/v1/traces", "application/json")
    (tmp_path / "posted.json").write_bytes(body)
    _same_facts(tmp_path / "c.jsonl", tmp_path / "posted.json")


def test_a_dead_endpoint_is_said_and_exit_74(tmp_path: Path) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    done = _capture(tmp_path, "--otlp", f"http://127.0.0.1:{port}/v1/traces")
    assert done.returncode == 74
    assert "the OTLP export failed" in done.stderr and "Traceback" not in done.stderr
    assert len(load_capture(tmp_path / "c.jsonl").requests) == 2


@pytest.mark.parametrize("target", ["c.jsonl", "replies.json", "-"])
def test_the_export_never_replaces_an_input_or_the_capture(tmp_path: Path, target: str) -> None:
    done = _capture(tmp_path, "--otlp", target)
    assert done.returncode == 2 and ("--otlp" in done.stderr or "input file" in done.stderr)
    assert json.loads((tmp_path / "replies.json").read_text()) == REPLIES
