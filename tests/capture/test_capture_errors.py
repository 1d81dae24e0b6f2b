"""Bad requests get the provider's own error shape (the SDKs raise their usual classes), and
the capture file stays valid through disconnects mid-stream and 20 concurrent clients."""

from __future__ import annotations

import json
import socket
import threading

import anthropic
import httpx
import openai
import pytest
from capture_helpers import wait_records

from toolscope.core.capture.wire_errors import MAX_BODY_BYTES


def test_malformed_json_is_a_400_in_each_shape(start_server) -> None:
    server = start_server()
    chat = httpx.post(
        f"{server.url}/v1/chat/completions", content=b'{"model": ', headers={"content-type": "application/json"}
    )
    assert chat.status_code == 400
    error = chat.json()["error"]
    assert error["type"] == "invalid_request_error" and "malformed JSON" in error["message"]
    messages = httpx.post(f"{server.url}/v1/messages", content=b"[1, 2]")
    assert messages.status_code == 400
    assert messages.json()["type"] == "error" and messages.json()["error"]["type"] == "invalid_request_error"
    assert "a JSON list; expected a JSON object" in messages.json()["error"]["message"]
    # Each refusal is on file: why, the status sent, and no tools.
    found = wait_records(server, 2)
    assert [(r.protocol, r.error.kind, r.reply.status, r.reply.source, r.tools) for r in found] == [
        ("openai-chat", "malformed_json", 400, "error", []),
        ("anthropic-messages", "not_an_object", 400, "error", []),
    ]
    assert found[0].error.message == error["message"] and found[0].error.method == "POST"


def test_unknown_paths_and_methods_are_recorded_as_refused(start_server) -> None:
    server = start_server()
    assert httpx.get(f"{server.url}/v2/models", headers={"user-agent": "probe/1"}).status_code == 404
    assert httpx.get(f"{server.url}/v1/messages").status_code == 405
    assert httpx.post(f"{server.url}/" + "x" * 300).status_code == 404
    found = wait_records(server, 3)
    assert [(r.index, r.protocol, r.path, r.error.kind, r.reply.status) for r in found] == [
        (1, None, "/v2/models", "unknown_path", 404),
        (2, "anthropic-messages", "/v1/messages", "method_not_allowed", 405),
        (3, None, "/" + "x" * 199 + "…", "unknown_path", 404),
    ]
    assert found[0].user_agent == "probe/1" and found[0].error.method == "GET"
    assert "no endpoint GET '/v2/models'" in found[0].error.message


def test_the_sdks_raise_their_own_error_classes(start_server) -> None:
    server = start_server()
    with pytest.raises(openai.NotFoundError) as caught:
        openai.OpenAI(base_url=f"{server.url}/v2", api_key="k", max_retries=0).models.list()
    assert "no endpoint GET '/v2/models'" in caught.value.message
    with pytest.raises(anthropic.NotFoundError):
        anthropic.Anthropic(base_url=f"{server.url}/nowhere", api_key="k", max_retries=0).messages.create(
            model="c", max_tokens=1, messages=[{"role": "user", "content": "hi"}]
        )


def test_a_body_over_the_limit_is_a_413_before_it_is_read(start_server) -> None:
    server = start_server()
    # A raw socket: the declared length is refused before any of the body is read.
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as sock:
        head = f"POST /v1/messages HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {MAX_BODY_BYTES + 1}\r\n\r\n"
        sock.sendall(head.encode() + b"{")
        answer = _read_answer(sock)
    assert answer.startswith("HTTP/1.1 413")
    body = json.loads(answer.split("\r\n\r\n", 1)[1])
    assert body["error"]["type"] == "request_too_large"
    streamed = httpx.post(f"{server.url}/v1/chat/completions", content=iter([b" " * (MAX_BODY_BYTES // 2)] * 3))
    assert streamed.status_code == 413 and streamed.json()["error"]["code"] == "request_too_large"
    found = wait_records(server, 2)
    assert [(r.protocol, r.error.kind, r.reply.status) for r in found] == [
        ("anthropic-messages", "body_too_large", 413),
        ("openai-chat", "body_too_large", 413),
    ]


def _read_answer(sock: socket.socket) -> str:
    data = b""
    while b"\r\n\r\n" not in data or len(data.split(b"\r\n\r\n", 1)[1]) < _length(data):
        chunk = sock.recv(65536)
        if not chunk:
            break
        data += chunk
    return data.decode()


def _length(data: bytes) -> int:
    for line in data.split(b"\r\n\r\n", 1)[0].split(b"\r\n"):
        if line.lower().startswith(b"content-length:"):
            return int(line.split(b":", 1)[1])
    return 0


def test_a_client_that_disconnects_mid_stream_leaves_a_valid_line(start_server) -> None:
    server = start_server()
    body = json.dumps({"model": "c", "max_tokens": 5, "stream": True, "messages": [{"role": "user", "content": "x"}]})
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as sock:
        head = f"POST /v1/messages HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
        sock.sendall(head.encode() + body.encode())
        assert sock.recv(4096).startswith(b"HTTP/1.1 200")
    # The next request is answered and both are on file, each line complete.
    client = anthropic.Anthropic(base_url=server.url, api_key="k", max_retries=0)
    client.messages.create(model="c", max_tokens=5, messages=[{"role": "user", "content": "x"}])
    found = wait_records(server, 2)
    assert len(found) == 2 and all(line.endswith("}") for line in server.capture_path.read_text().splitlines())


def test_twenty_concurrent_clients(start_server) -> None:
    server = start_server()
    errors: list[BaseException] = []

    def work(n: int) -> None:
        try:
            client = openai.OpenAI(base_url=f"{server.url}/v1", api_key="k", max_retries=0)
            for _ in range(2):
                tools = [{"type": "function", "function": {"name": f"t{n}", "parameters": {"type": "object"}}}]
                stream = client.chat.completions.create(
                    model=f"m{n}", messages=[{"role": "user", "content": "x"}], tools=tools, stream=True
                )
                assert "".join(c.choices[0].delta.content or "" for c in stream if c.choices) == "ok"
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not errors
    found = wait_records(server, 40)
    assert sorted(r.index for r in found) == list(range(1, 41))
    for record in found:  # each line is whole: its own model's tool, never another client's
        assert [t.name for t in record.tools] == [f"t{record.model[1:]}"]


def test_a_body_nested_100k_deep_is_refused_and_recorded_never_a_500(start_server) -> None:
    deep = b'{"model":"m","messages":[],"tool_choice":' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    upstream = start_server(name="upstream.jsonl")
    proxy = start_server(name="proxy.jsonl", upstream=upstream.url)
    for server in (upstream, proxy):
        answer = httpx.post(f"{server.url}/v1/chat/completions", content=deep, timeout=60)
        assert answer.status_code == 400, answer.text
        assert "nested too deeply" in answer.json()["error"]["message"]
    # the upstream refused it twice (once direct, once forwarded); the proxy recorded its refusal too
    assert [r.error.kind for r in wait_records(upstream, 2)] == ["too_deep", "too_deep"]
    assert [(r.error.kind, r.reply.status) for r in wait_records(proxy, 1)] == [("too_deep", 400)]
