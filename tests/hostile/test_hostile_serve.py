"""Hostile corpus: ``toolscope serve`` answers only the page it printed (#31 class 2).

A web page elsewhere can make the browser open a websocket to any local port (it carries that
page's ``Origin``), and a page reached through DNS rebinding sends its own name as ``Host``.
Each is refused with a 403 before any app process starts; the loopback spellings of the same
port are the server's own address; past ``--max-sessions`` the page and the websocket get a 503.
The real CLI in a subprocess, raw HTTP over real sockets.
"""

from __future__ import annotations

import asyncio
import http.client
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import aiohttp
import psutil
import pytest

REPO = Path(__file__).resolve().parents[2]
SEED = REPO / "sample_configs" / "seed" / "step_config.json"
START_SECONDS = 60
UPGRADE = {"Connection": "Upgrade", "Upgrade": "websocket", "Sec-WebSocket-Version": "13"}


class Served:
    def __init__(self, process: subprocess.Popen[str], port: int) -> None:
        self.process = process
        self.port = port

    def get(self, path: str, **headers: str) -> tuple[int, str]:
        """A plain GET (the websocket's upgrade too: refused before it is one), status and body."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            headers.setdefault("Host", f"127.0.0.1:{self.port}")
            connection.request("GET", path, headers={**headers, "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="})
            response = connection.getresponse()
            return response.status, response.read().decode()
        finally:
            connection.close()

    def apps(self) -> list[psutil.Process]:
        children = psutil.Process(self.process.pid).children(recursive=True)
        return [p for p in children if "inspect" in " ".join(p.cmdline())]


def start(tmp_path: Path, *options: str) -> Served:
    process = subprocess.Popen(
        [sys.executable, "-m", "toolscope", "serve", str(SEED), "--port", "0", *options],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    assert process.stdout is not None
    line = process.stdout.readline()  # the URL first (the read ends when the process does)
    found = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
    if found is None:
        process.kill()
        pytest.fail(f"no URL from toolscope serve: {line!r} {process.stderr.read() if process.stderr else ''}")
    return Served(process, int(found.group(1)))


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    server = start(tmp_path, "--max-sessions", "1")
    yield server
    if server.process.poll() is None:
        os.killpg(server.process.pid, signal.SIGKILL)
        server.process.wait(15)


def test_a_foreign_origin_cannot_open_the_websocket(served: Served) -> None:
    for origin in ("http://evil.example", "http://127.0.0.1:1", f"https://127.0.0.1:{served.port}", "null"):
        status, body = served.get("/ws", Origin=origin, **UPGRADE)
        assert status == 403, (origin, status, body)
        assert body.startswith("toolscope serve: refused: Origin") and "another site cannot use it" in body
    status, body = served.get("/ws", **UPGRADE)  # no Origin: not a browser page
    assert status == 403 and "without an Origin" in body
    assert served.apps() == [], "a refused websocket started an app"


def test_a_rebinding_host_is_refused_on_every_path(served: Served) -> None:
    for path in ("/", "/ws", "/static/js/textual.js", "/download/x"):
        status, body = served.get(path, Host=f"evil.example:{served.port}", Origin=f"http://evil.example:{served.port}")
        assert status == 403, (path, status, body)
        assert f"Host 'evil.example:{served.port}' is not this server's address" in body
    status, _ = served.get("/", Host="localhost:1")  # the right name, another port
    assert status == 403
    assert served.apps() == []


def test_the_loopback_spellings_of_the_same_port_are_its_own(served: Served) -> None:
    for host in ("127.0.0.1", "localhost", "LOCALHOST", "[::1]"):
        status, body = served.get("/", Host=f"{host}:{served.port}")
        assert status == 200 and "textual.js" in body, (host, status, body[:200])


def test_past_max_sessions_the_page_and_the_websocket_get_a_503(served: Served) -> None:
    own = f"http://localhost:{served.port}"

    async def scenario() -> None:
        async with aiohttp.ClientSession() as session:
            url = f"http://127.0.0.1:{served.port}/ws?width=80&height=24"
            async with session.ws_connect(url, origin=own) as first:
                deadline = time.monotonic() + START_SECONDS
                while not served.apps():
                    assert time.monotonic() < deadline, "the accepted websocket started no app"
                    await asyncio.sleep(0.1)
                with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                    await session.ws_connect(url, origin=own)
                assert refused.value.status == 503
                status, body = await asyncio.to_thread(served.get, "/")
                assert status == 503 and "1 open page(s) already run the app" in body and "--max-sessions 1" in body
                assert len(served.apps()) == 1
                await first.close()

    asyncio.run(scenario())
    deadline = time.monotonic() + START_SECONDS
    while served.get("/")[0] != 200:  # counted until its app has ended
        assert time.monotonic() < deadline, "the closed page still counts"
        time.sleep(0.1)


def test_max_sessions_below_one_is_bad_input(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "toolscope", "serve", str(SEED), "--port", "0", "--max-sessions", "0"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
    )
    assert done.returncode == 2 and "--max-sessions" in done.stderr, done.stderr
