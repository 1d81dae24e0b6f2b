"""The ``--upstream`` URL's credentials (userinfo, query values) are used, never written or shown
(#31 class 3): not in the capture file, not in the 502 a client gets, not on stderr, not in a
report read from the capture. They still reach the upstream: userinfo as Basic auth, the query
with every request."""

from __future__ import annotations

import base64
import socket
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from capture_helpers import AppServer, wait_records
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route
from typer.testing import CliRunner

from toolscope.cli.app import app

SECRETS = ("PASS-s3cret", "KEY-s3cret", "alice")
CREDENTIALS = "alice:PASS-s3cret@"
QUERY = "key=KEY-s3cret&api-version=2024-10"
SHOWN_QUERY = "key=***&api-version=***"


async def _echo(request: Request) -> JSONResponse:
    seen = {"authorization": request.headers.get("authorization"), "path": request.url.path, "query": request.url.query}
    return JSONResponse({**seen, "content": [], "stop_reason": "end_turn"})


@pytest.fixture
def echo() -> Iterator[AppServer]:
    server = AppServer(Starlette(routes=[Route("/{path:path}", _echo, methods=["POST"])]))
    yield server
    server.stop()


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def assert_no_secret(text: str, where: str) -> None:
    for secret in SECRETS:
        assert secret not in text, f"{secret!r} in {where}: {text[:2000]}"


def test_the_credentials_reach_the_upstream_and_never_the_capture(start_server, echo) -> None:
    host = echo.url.removeprefix("http://")
    proxy = start_server(upstream=f"http://{CREDENTIALS}{host}/v1/?{QUERY}")
    answer = httpx.post(f"{proxy.url}/v1/messages?beta=true", json={"model": "c", "messages": []})
    seen = answer.json()
    assert seen["authorization"] == "Basic " + base64.b64encode(b"alice:PASS-s3cret").decode()
    assert (seen["path"], seen["query"]) == ("/v1/messages", f"{QUERY}&beta=true")
    (record,) = wait_records(proxy, 1)
    assert record.reply.source == "upstream" and record.path == "/v1/messages"
    assert_no_secret(proxy.capture_path.read_text(), "the capture file")


def test_an_unreachable_upstream_shows_the_url_without_its_credentials(start_server, tmp_path: Path) -> None:
    port = closed_port()
    proxy = start_server(upstream=f"http://{CREDENTIALS}127.0.0.1:{port}/v1?{QUERY}")
    answer = httpx.post(f"{proxy.url}/v1/chat/completions", json={"model": "m", "messages": []})
    assert answer.status_code == 502
    message = answer.json()["error"]["message"]
    assert f"the upstream http://***@127.0.0.1:{port}/v1?{SHOWN_QUERY} could not be reached" in message
    assert_no_secret(answer.text, "the 502 body")
    (record,) = wait_records(proxy, 1)
    assert record.reply.error == message
    assert_no_secret(proxy.capture_path.read_text(), "the capture file")
    runner = CliRunner()
    for kind in ("json", "md", "html"):
        output = tmp_path / f"report.{kind}"
        result = runner.invoke(
            app, ["report", "--capture", str(proxy.capture_path), "--format", kind, "-o", str(output)]
        )
        assert result.exit_code == 0, result.output
        assert_no_secret(output.read_text() + result.output, f"the {kind} report")


def test_a_bad_upstream_is_refused_without_echoing_its_credentials(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app, ["capture", "-o", str(tmp_path / "c.jsonl"), "--upstream", f"ftp://{CREDENTIALS}host/?{QUERY}"]
    )
    assert result.exit_code == 2, result.output
    assert f"--upstream: 'ftp://***@host/?{SHOWN_QUERY}' is not an http:// or https:// URL" in result.output
    assert_no_secret(result.output, "stderr")


def test_error_text_quoting_the_url_is_scrubbed() -> None:
    from toolscope.core.capture.upstream_url import parse_upstream

    upstream = parse_upstream(f"https://{CREDENTIALS}api.example/v1?{QUERY}")
    assert upstream.shown == f"https://***@api.example/v1?{SHOWN_QUERY}"
    quoted = upstream.scrub(f"ConnectError: https://{CREDENTIALS}api.example/v1?{QUERY} (PASS-s3cret, KEY-s3cret)")
    assert quoted == f"ConnectError: {upstream.shown} (***, ***)"
    assert "PASS" not in repr(upstream) and "KEY-s3cret" not in repr(upstream)
