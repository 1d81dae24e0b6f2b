"""A web page cannot inject requests into a capture (#31 class 2): what the browser marks as a
page's request (an ``Origin``, a ``Sec-Fetch-Site`` other than ``none``) is a 403, recorded as
refused with no tools, unless ``--allow-origin`` names that page. Real clients send neither
header, so they are answered as before (the SDK tests, and Node's fetch below)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import anthropic
import httpx
import pytest
from capture_helpers import tool_call, wait_records

CHAT = {
    "model": "gpt-4.1",
    "messages": [{"role": "user", "content": "hi"}],
    "tools": [{"type": "function", "function": {"name": "fake_tool", "parameters": {"type": "object"}}}],
}


def test_a_cross_origin_text_plain_post_is_refused_and_recorded_without_its_tools(start_server) -> None:
    server = start_server([tool_call("fake_tool", {})])
    # What fetch(url, {method: "POST", mode: "no-cors", body}) from another page sends: no preflight.
    page = {"origin": "http://evil.example", "content-type": "text/plain;charset=UTF-8", "user-agent": "Chrome/1"}
    answer = httpx.post(f"{server.url}/v1/chat/completions", content=json.dumps(CHAT), headers=page)
    assert answer.status_code == 403
    error = answer.json()["error"]
    assert error["code"] == "browser_origin_refused"
    assert "the web page 'http://evil.example' may not send requests" in error["message"]
    assert "--allow-origin" in error["message"]
    # A same-site page (another port of 127.0.0.1) and a page's GET without an Origin.
    same_site = {"sec-fetch-site": "same-site", "sec-fetch-mode": "no-cors", "origin": "http://127.0.0.1:1"}
    messages = httpx.post(f"{server.url}/v1/messages", content=b'{"model": "m", "max_tokens": 1}', headers=same_site)
    assert messages.status_code == 403 and messages.json()["error"]["type"] == "permission_error"
    listing = httpx.get(
        f"{server.url}/v1/models", headers={"sec-fetch-site": "cross-site", "sec-fetch-mode": "no-cors"}
    )
    assert listing.status_code == 403 and "Sec-Fetch-Site: 'cross-site'" in listing.json()["error"]["message"]
    found = wait_records(server, 3)
    assert [(r.protocol, r.error.kind, r.reply.status, r.tools, r.model) for r in found] == [
        ("openai-chat", "browser_origin", 403, [], None),
        ("anthropic-messages", "browser_origin", 403, [], None),
        (None, "browser_origin", 403, [], None),
    ]
    assert found[0].error.message == error["message"] and found[0].user_agent == "Chrome/1"
    assert "fake_tool" not in server.capture_path.read_text()
    # The scripted reply was not spent: the next real client gets it.
    reply = httpx.post(f"{server.url}/v1/chat/completions", json=CHAT)
    assert reply.json()["choices"][0]["message"]["tool_calls"][0]["function"]["name"] == "fake_tool"


def test_a_typed_address_is_not_a_page_request(start_server) -> None:
    server = start_server()
    typed = httpx.get(f"{server.url}/v1/models", headers={"sec-fetch-site": "none", "sec-fetch-mode": "navigate"})
    assert typed.status_code == 200


def test_an_allowed_origin_gets_cors_and_its_requests_recorded(start_server) -> None:
    server = start_server(allowed_origins=("http://localhost:3000",))
    allowed = {"origin": "http://localhost:3000"}
    preflight = httpx.options(
        f"{server.url}/v1/chat/completions",
        headers={**allowed, "access-control-request-method": "POST", "access-control-request-headers": "content-type"},
    )
    assert preflight.status_code == 200
    assert preflight.headers["access-control-allow-origin"] == "http://localhost:3000"
    answer = httpx.post(f"{server.url}/v1/chat/completions", json=CHAT, headers=allowed)
    assert answer.status_code == 200 and answer.headers["access-control-allow-origin"] == "http://localhost:3000"
    other = httpx.post(f"{server.url}/v1/chat/completions", json=CHAT, headers={"origin": "http://localhost:3001"})
    assert other.status_code == 403
    found = wait_records(server, 2)  # the preflight is answered, not recorded
    assert [(r.error.kind if r.error else None, [t.name for t in r.tools]) for r in found] == [
        (None, ["fake_tool"]),
        ("browser_origin", []),
    ]


def test_the_sdks_send_no_origin_and_are_answered(start_server) -> None:
    server = start_server()
    client = anthropic.Anthropic(base_url=server.url, api_key="k", max_retries=0)
    reply = client.messages.create(model="m", max_tokens=5, messages=[{"role": "user", "content": "hi"}])
    assert reply.content[0].text == "ok"
    assert [r.error for r in wait_records(server, 1)] == [None]


NODE_FETCH = """
const [url, body] = process.argv.slice(1);
fetch(url, {method: "POST", headers: {"content-type": "application/json"}, body})
  .then(async (r) => { console.log(r.status); console.log(await r.text()); })
  .catch((e) => { console.error(e); process.exit(3); });
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
def test_nodes_fetch_is_answered_although_it_sends_sec_fetch_mode(start_server) -> None:
    """The Node SDKs and Claude Code send through Node's fetch, which adds ``Sec-Fetch-Mode: cors``
    (and no Origin, no Sec-Fetch-Site): a real client, answered and recorded."""
    server = start_server()
    done = subprocess.run(
        ["node", "-e", NODE_FETCH, f"{server.url}/v1/chat/completions", json.dumps(CHAT)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == "200", done.stdout
    (record,) = wait_records(server, 1)
    assert record.error is None and [t.name for t in record.tools] == ["fake_tool"]
    assert record.user_agent == "node"


def test_allow_origin_must_be_an_origin(tmp_path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "toolscope", "capture", "-o", str(tmp_path / "c.jsonl"), "--allow-origin", "evil/path"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2, done.stderr
    assert "--allow-origin: 'evil/path' is not an origin" in done.stderr
    assert not (tmp_path / "c.jsonl").exists()


def test_in_proxy_mode_a_pages_request_never_reaches_the_upstream(start_server) -> None:
    upstream = start_server(name="up.jsonl")
    proxy = start_server(name="proxy.jsonl", upstream=upstream.url)
    page = {"origin": "http://evil.example", "content-type": "text/plain"}
    answer = httpx.post(f"{proxy.url}/v1/chat/completions", content=json.dumps(CHAT), headers=page)
    assert answer.status_code == 403
    (record,) = wait_records(proxy, 1)
    assert (record.mode, record.error.kind, record.tools) == ("proxy", "browser_origin", [])
    real = httpx.post(f"{proxy.url}/v1/chat/completions", json=CHAT)
    assert real.status_code == 200
    assert [[t.name for t in r.tools] for r in wait_records(upstream, 1)] == [["fake_tool"]]
