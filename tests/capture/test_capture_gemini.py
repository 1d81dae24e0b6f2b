"""The capture server's Gemini API over plain HTTP (httpx; the google-genai SDK's own tests are
in ``test_capture_gemini_sdk.py``, in the lane): countTokens, a stream without ``alt=sse``, SSE
cut off by the client, proxy mode with the key in the query or the header (forwarded, never
recorded), bad requests in Gemini's error shape, and the command's environment."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator

import httpx
import pytest
from capture_helpers import AppServer, tool_call, wait_records
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from toolscope.core.capture.command import client_environment
from toolscope.core.capture.reply import Reply
from toolscope.core.capture.upstream_url import parse_upstream
from toolscope.core.capture.wire_errors import MAX_BODY_BYTES

KEY = "AIza-SECRET-gemini-key"
CONTENTS = [{"role": "user", "parts": [{"text": "hi"}]}]
TOOLS = [{"functionDeclarations": [{"name": "note_write", "parametersJsonSchema": {"type": "object"}}]}]


def test_count_tokens_and_a_stream_without_sse(start_server) -> None:
    server = start_server([tool_call("note_write", '{"text": "x"}')])
    base = f"{server.url}/v1beta/models"
    count = httpx.post(
        f"{base}/gemini-2.5-flash:countTokens", json={"contents": CONTENTS}, headers={"x-goog-api-key": KEY}
    )
    assert count.json()["totalTokens"] > 0
    # streamGenerateContent without alt=sse: the chunks as one JSON array (the count took no reply).
    url = f"{base}/m:streamGenerateContent?key={KEY}"
    chunks = httpx.post(url, json={"contents": CONTENTS, "tools": TOOLS}).json()
    assert chunks[0]["candidates"][0]["content"]["parts"] == [
        {"functionCall": {"name": "note_write", "args": {"text": "x"}}}
    ]
    assert chunks[0]["candidates"][0]["finishReason"] == "STOP"
    counted, streamed = wait_records(server, 2)
    assert (counted.protocol, counted.reply.tool_calls, counted.messages) == ("gemini-count-tokens", [], 1)
    assert (streamed.protocol, streamed.model, streamed.stream) == ("gemini-generate", "m", True)
    assert [(t.name, t.type) for t in streamed.tools] == [("note_write", "function")]
    assert streamed.path == "/v1beta/models/m:streamGenerateContent"
    assert KEY not in server.capture_path.read_text()


async def _echo(request: Request) -> JSONResponse:
    # What the upstream saw goes back in a header: the reply's calls are recorded, headers never.
    seen = {"key_header": request.headers.get("x-goog-api-key"), "query": request.url.query, "path": request.url.path}
    part = {"functionCall": {"name": "echo", "args": {"n": 1}}}
    body = {"candidates": [{"content": {"role": "model", "parts": [part]}, "finishReason": "STOP"}]}
    return JSONResponse(body, headers={"x-seen": json.dumps(seen)})


@pytest.fixture
def echo() -> Iterator[AppServer]:
    server = AppServer(Starlette(routes=[Route("/{path:path}", _echo, methods=["POST"])]))
    yield server
    server.stop()


def test_proxy_mode_forwards_the_key_and_never_records_it(start_server, echo) -> None:
    # The upstream's base may end in the API version: it is not repeated.
    proxy = start_server(upstream=f"{echo.url}/v1beta")
    url = f"{proxy.url}/v1beta/models/gemini-2.5-flash:generateContent"
    by_header = httpx.post(url, json={"contents": CONTENTS}, headers={"x-goog-api-key": KEY})
    by_query = httpx.post(f"{url}?key={KEY}", json={"contents": CONTENTS})
    seen = [json.loads(answer.headers["x-seen"]) for answer in (by_header, by_query)]
    assert seen == [
        {"key_header": KEY, "query": "", "path": "/v1beta/models/gemini-2.5-flash:generateContent"},
        {"key_header": None, "query": f"key={KEY}", "path": "/v1beta/models/gemini-2.5-flash:generateContent"},
    ]
    found = wait_records(proxy, 2)
    assert [(r.mode, r.model, [c.name for c in r.reply.tool_calls]) for r in found] == [
        ("proxy", "gemini-2.5-flash", ["echo"]),
        ("proxy", "gemini-2.5-flash", ["echo"]),
    ]
    assert KEY not in proxy.capture_path.read_text()


def test_bad_requests_get_geminis_error_shape_and_are_recorded(start_server) -> None:
    server = start_server()
    base = f"{server.url}/v1beta/models/gemini-2.5-flash"
    malformed = httpx.post(f"{base}:generateContent", content=b'{"contents": ', headers={"x-goog-api-key": KEY})
    form = httpx.post(f"{base}:generateContent?key={KEY}", data={"contents": "x"})  # a form, not JSON
    listed = httpx.post(f"{base}:streamGenerateContent?alt=sse", json=[1, 2])
    unknown = httpx.post(f"{base}:embedContent", json={})
    wrong_method = httpx.get(f"{base}:generateContent")
    for answer, status, text in [
        (malformed, 400, "malformed JSON"),
        (form, 400, "malformed JSON"),
        (listed, 400, "a JSON list; expected a JSON object"),
        (unknown, 404, "no endpoint POST '/v1beta/models/gemini-2.5-flash:embedContent'"),
        (wrong_method, 405, "GET is not supported"),
    ]:
        error = answer.json()["error"]
        assert (answer.status_code, error["code"]) == (status, status) and text in error["message"]
        assert error["status"] == {400: "INVALID_ARGUMENT", 404: "NOT_FOUND", 405: "UNIMPLEMENTED"}[status]
    found = wait_records(server, 5)
    assert [(r.protocol, r.error.kind, r.reply.status) for r in found] == [
        ("gemini-generate", "malformed_json", 400),
        ("gemini-generate", "malformed_json", 400),
        ("gemini-generate", "not_an_object", 400),
        (None, "unknown_path", 404),
        (None, "method_not_allowed", 405),
    ]
    assert KEY not in server.capture_path.read_text()


def test_a_body_over_the_limit_is_a_413_in_geminis_shape(start_server) -> None:
    server = start_server()
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as sock:
        head = (
            "POST /v1beta/models/m:generateContent HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            f"Content-Length: {MAX_BODY_BYTES + 1}\r\n\r\n"
        )
        sock.sendall(head.encode() + b"{")
        raw = b""
        while not raw.endswith(b"}"):  # the head, then the JSON error body
            chunk = sock.recv(65536)
            if not chunk:
                break
            raw += chunk
    answer = raw.decode()
    assert answer.startswith("HTTP/1.1 413")
    error = json.loads(answer.split("\r\n\r\n", 1)[1])["error"]
    assert error["code"] == 413 and "the limit is 33,554,432 bytes" in error["message"]
    (record,) = wait_records(server, 1)
    assert (record.protocol, record.error.kind) == ("gemini-generate", "body_too_large")


def test_the_command_is_pointed_at_the_gemini_api(monkeypatch) -> None:
    for name in ("GEMINI_API_KEY", "GOOGLE_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    env = client_environment("http://127.0.0.1:9", upstream=False)
    assert (env["GOOGLE_GEMINI_BASE_URL"], env["GEMINI_API_KEY"]) == ("http://127.0.0.1:9", "toolscope-capture-no-key")
    monkeypatch.setenv("GOOGLE_API_KEY", "mine")  # google-genai reads it first: no placeholder over it
    assert "GEMINI_API_KEY" not in client_environment("http://127.0.0.1:9", upstream=False)


def test_an_upstream_base_ending_in_the_version_is_not_given_it_twice() -> None:
    upstream = parse_upstream("https://generativelanguage.googleapis.com/v1beta")
    assert upstream.target("/v1beta/models/m:generateContent", "alt=sse") == (
        "https://generativelanguage.googleapis.com/v1beta/models/m:generateContent?alt=sse"
    )
    assert parse_upstream("http://h/v1").target("/v1beta/models/m:x", "") == "http://h/v1/v1beta/models/m:x"
    assert parse_upstream("http://h/v1").target("/v1/chat/completions", "") == "http://h/v1/chat/completions"


def test_a_cut_off_reply_is_recorded_with_the_scripted_call(start_server) -> None:
    server = start_server([Reply(text="hello", source="scripted")])
    with httpx.stream(
        "POST", f"{server.url}/v1beta/models/m:streamGenerateContent?alt=sse", json={"contents": []}
    ) as response:
        assert response.headers["content-type"].startswith("text/event-stream")
        event = next(response.iter_lines())
    assert json.loads(event.removeprefix("data: "))["candidates"][0]["content"]["parts"] == [{"text": "hello"}]
    (record,) = wait_records(server, 1)
    assert record.reply.text_bytes == 5 and record.stream is True


CHUNKS = [
    {"candidates": [{"content": {"role": "model", "parts": [{"text": "thinking", "thought": True}, {"text": "Hé"}]}}]},
    {
        "candidates": [
            {
                "content": {"role": "model", "parts": [{"functionCall": {"name": "a", "args": {"x": 1}}}]},
                "finishReason": "STOP",
            }
        ]
    },
]


def test_the_reply_observer_reads_gemini_replies_in_any_split() -> None:
    from toolscope.core.capture.upstream_reply import ReplyObserver

    sse = b"".join(b"data: " + json.dumps(c).encode() + b"\r\n\r\n" for c in CHUNKS)
    whole_array = json.dumps(CHUNKS).encode()
    one = json.dumps(CHUNKS[1]).encode()
    for stream, data, text in [(True, sse, ["Hé"]), (False, whole_array, ["Hé"]), (False, one, [])]:
        observer = ReplyObserver("gemini-generate", stream, keep_text=True)
        for n in range(len(data)):
            observer.feed(data[n : n + 1])
        assert observer.finish() == [{"name": "a", "namespace": None, "arguments": {"x": 1}}]
        assert (observer.stop_reason, observer.text) == ("STOP", text)  # a thought part is not the reply's text
    failed = ReplyObserver("gemini-generate", True)
    failed.feed(b'data: {"error": {"code": 429, "message": "quota", "status": "RESOURCE_EXHAUSTED"}}\r\n\r\n')
    assert (failed.finish(), failed.error) == ([], "quota")


def test_a_clients_key_in_the_query_is_scrubbed_from_proxy_error_text(tmp_path) -> None:
    from starlette.requests import Request as StarletteRequest

    from toolscope.core.capture.app import CaptureSettings
    from toolscope.core.capture.proxy import Proxy
    from toolscope.core.capture.writer import CaptureWriter

    proxy = Proxy(
        CaptureSettings(writer=CaptureWriter(tmp_path / "c.jsonl"), upstream="http://h:1/v1beta?key=UPSTREAM-KEY")
    )
    scope = {"type": "http", "method": "POST", "path": "/v1beta/models/m:generateContent", "headers": []}
    request = StarletteRequest({**scope, "query_string": f"alt=sse&key={KEY}".encode()})
    text = proxy._scrub(request, f"ConnectError for http://h:1/v1beta/models/m?key=UPSTREAM-KEY&alt=sse&key={KEY}")
    assert text == "ConnectError for http://h:1/v1beta/models/m?key=***&alt=sse&key=***"


def test_an_unreachable_upstream_is_a_502_in_geminis_shape(start_server) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        closed = sock.getsockname()[1]
    proxy = start_server(upstream=f"http://127.0.0.1:{closed}")
    answer = httpx.post(f"{proxy.url}/v1beta/models/m:generateContent?key={KEY}", json={"contents": CONTENTS})
    error = answer.json()["error"]
    assert (answer.status_code, error["code"], error["status"]) == (502, 502, "UNAVAILABLE")
    assert "could not be reached" in error["message"] and KEY not in answer.text
    (record,) = wait_records(proxy, 1)
    assert (record.protocol, record.model, record.reply.source, record.reply.status) == (
        "gemini-generate",
        "m",
        "error",
        502,
    )
