"""Proxy mode against local upstreams: a second capture server (scripted) and a small
Starlette app that shows what it received. Replies come back byte for byte, credentials
reach the upstream and never the capture file, and both sides' tool facts are recorded."""

from __future__ import annotations

import asyncio
import json
import socket
from collections.abc import Iterator

import anthropic
import httpx
import openai
import pytest
from capture_helpers import AppServer, tool_call, wait_records
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from toolscope.core.capture.reply import Reply

SSE = (
    b'data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":'
    b'{"role":"assistant","tool_calls":[{"index":0,"id":"x","type":"function","function":{"name":"reset_tools","arguments":""}}]}}]}\n\n'
    b'data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":'
    b'{"tool_calls":[{"index":0,"function":{"arguments":"{\\"a\\": 1}"}}]},"finish_reason":"tool_calls"}]}\n\n'
    b"data: [DONE]\n\n"
)


async def _echo(request: Request):
    body = await request.json()
    seen = {
        "authorization": request.headers.get("authorization"),
        "x-api-key": request.headers.get("x-api-key"),
        "path": request.url.path,
        "query": request.url.query,
    }
    if body.get("slow"):

        async def slow():
            yield SSE.split(b"\n\n")[0] + b"\n\n"
            await asyncio.sleep(30)
            yield b"data: [DONE]\n\n"

        return StreamingResponse(slow(), media_type="text/event-stream")
    if body.get("stream"):
        return StreamingResponse(
            iter([SSE[:50], SSE[50:]]), media_type="text/event-stream", headers={"x-seen": json.dumps(seen)}
        )
    return JSONResponse(seen, headers={"x-upstream": "yes"})


@pytest.fixture
def echo() -> Iterator[AppServer]:
    app = Starlette(routes=[Route("/{path:path}", _echo, methods=["POST"])])
    server = AppServer(app)
    yield server
    server.stop()


def test_replies_pass_through_and_both_sides_are_recorded(start_server) -> None:
    upstream = start_server(
        [tool_call("reset_tools", {"web_search": True}), Reply(text="hi", source="scripted")], name="up.jsonl"
    )
    proxy = start_server(name="proxy.jsonl", upstream=upstream.url)
    client = openai.OpenAI(base_url=f"{proxy.url}/v1", api_key="sk-test", max_retries=0)
    tools = [{"type": "function", "function": {"name": "reset_tools", "parameters": {"type": "object"}}}]
    stream = client.chat.completions.create(
        model="m", messages=[{"role": "user", "content": "x"}], tools=tools, stream=True
    )
    names = [
        d.function.name for c in stream if c.choices for d in c.choices[0].delta.tool_calls or [] if d.function.name
    ]
    assert names == ["reset_tools"]
    message = anthropic.Anthropic(base_url=proxy.url, api_key="k", max_retries=0).messages.create(
        model="c", max_tokens=5, messages=[{"role": "user", "content": "x"}]
    )
    assert message.content[0].text == "hi"
    first, second = wait_records(proxy, 2)
    assert (first.mode, first.protocol, first.stream) == ("proxy", "openai-chat", True)
    assert [t.name for t in first.tools] == ["reset_tools"]
    assert [(c.name, c.arguments) for c in first.reply.tool_calls] == [("reset_tools", {"web_search": True})]
    assert (second.reply.source, second.reply.stop_reason, second.reply.text_bytes) == ("upstream", "end_turn", 2)
    assert [r.mode for r in wait_records(upstream, 2)] == ["scripted", "scripted"]


def test_bytes_headers_and_credentials_pass_through_unrecorded(start_server, echo) -> None:
    proxy = start_server(upstream=f"{echo.url}/v1")
    body = {"model": "m", "stream": True, "messages": []}
    direct = httpx.post(f"{echo.url}/v1/chat/completions", json=body, headers={"authorization": "Bearer sk-SECRET-1"})
    via = httpx.post(f"{proxy.url}/v1/chat/completions?x=1", json=body, headers={"authorization": "Bearer sk-SECRET-1"})
    assert via.content == direct.content == SSE
    seen = json.loads(via.headers["x-seen"])
    assert seen == {
        "authorization": "Bearer sk-SECRET-1",
        "x-api-key": None,
        "path": "/v1/chat/completions",
        "query": "x=1",
    }
    plain = httpx.post(f"{proxy.url}/v1/messages", json={"model": "c"}, headers={"x-api-key": "sk-ant-SECRET-2"})
    assert plain.json()["x-api-key"] == "sk-ant-SECRET-2" and plain.headers["x-upstream"] == "yes"
    chat, _ = wait_records(proxy, 2)
    assert [(c.name, c.arguments) for c in chat.reply.tool_calls] == [("reset_tools", {"a": 1})]
    text = proxy.capture_path.read_text()
    assert "SECRET" not in text


def test_an_unreachable_upstream_is_a_502_in_the_provider_shape(start_server) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        closed = sock.getsockname()[1]
    proxy = start_server(upstream=f"http://127.0.0.1:{closed}")
    with pytest.raises(anthropic.InternalServerError) as caught:
        anthropic.Anthropic(base_url=proxy.url, api_key="k", max_retries=0).messages.create(
            model="c", max_tokens=5, messages=[{"role": "user", "content": "x"}]
        )
    assert caught.value.status_code == 502 and "could not be reached" in str(caught.value)
    (record,) = wait_records(proxy, 1)
    assert record.reply.source == "error" and record.reply.status == 502


def test_a_client_gone_mid_stream_is_recorded_as_cut_off(start_server, echo) -> None:
    proxy = start_server(upstream=echo.url)
    with httpx.stream("POST", f"{proxy.url}/v1/chat/completions", json={"slow": True, "stream": True}) as response:
        next(response.iter_raw())
    (record,) = wait_records(proxy, 1, timeout=10)
    assert record.reply.error and "cut off" in record.reply.error
    assert [c.name for c in record.reply.tool_calls] == ["reset_tools"]


async def _gzipped(request: Request):
    # An upstream that compresses whatever the request asked (the proxy asks for identity).
    import gzip

    reply = {
        "id": "c1",
        "object": "chat.completion",
        "created": 1,
        "model": "m",
        "choices": [
            {
                "index": 0,
                "finish_reason": "tool_calls",
                "message": {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [
                        {"id": "t", "type": "function", "function": {"name": "reset_tools", "arguments": '{"a": 1}'}}
                    ],
                },
            }
        ],
    }
    body = gzip.compress(json.dumps(reply).encode())
    return Response(body, media_type="application/json", headers={"content-encoding": "gzip"})


def test_a_gzipped_upstream_reply_reaches_the_client_readable_and_its_calls_are_recorded(start_server) -> None:
    upstream = AppServer(Starlette(routes=[Route("/{path:path}", _gzipped, methods=["POST"])]))
    try:
        server = start_server(upstream=upstream.url)
        client = openai.OpenAI(base_url=f"{server.url}/v1", api_key="k", max_retries=0)
        answer = client.chat.completions.create(model="m", messages=[{"role": "user", "content": "x"}])
        assert answer.choices[0].message.tool_calls[0].function.name == "reset_tools"
        raw = httpx.post(f"{server.url}/v1/chat/completions", json={"model": "m", "messages": []})
        assert raw.json()["id"] == "c1"  # decodable whatever header the client reads
        found = wait_records(server, 2)
        assert [(r.reply.status, [c.name for c in r.reply.tool_calls]) for r in found] == [
            (200, ["reset_tools"]),
            (200, ["reset_tools"]),
        ]
        assert found[0].reply.tool_calls[0].arguments == {"a": 1}
    finally:
        upstream.stop()
