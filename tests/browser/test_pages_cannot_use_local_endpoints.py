"""A web page from another local origin, in the real Chromium, cannot use toolscope's local
endpoints (#31 class 2): its websocket to ``toolscope serve`` is refused before any app starts,
and its ``text/plain`` POST (no preflight) to a capture server is refused and recorded as a
web page's request, never as a model request."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import psutil
import pytest

from toolscope.core.capture.app import CaptureSettings
from toolscope.core.capture.reader import read_capture
from toolscope.core.capture.server import CaptureServer
from toolscope.core.capture.writer import CaptureWriter

REPO = Path(__file__).resolve().parents[2]
SEED = REPO / "sample_configs" / "seed" / "step_config.json"
WAIT_MS = 60_000

PAGE = """<!doctype html><title>elsewhere</title><script>
window.results = {};
const ws = new WebSocket("SERVE_WS");
ws.onopen = () => { window.results.ws = "open"; };
ws.onclose = (event) => { window.results.ws = window.results.ws || "closed " + event.code; };
const body = JSON.stringify({model: "m", messages: [], tools: [{type: "function",
  function: {name: "injected_tool", parameters: {type: "object"}}}]});
fetch("CAPTURE_URL", {method: "POST", mode: "no-cors", headers: {"content-type": "text/plain"}, body})
  .then((r) => { window.results.no_cors = r.type; })
  .catch((e) => { window.results.no_cors = "failed " + e; });
fetch("CAPTURE_URL", {method: "POST", headers: {"content-type": "text/plain"}, body})
  .then((r) => { window.results.cors = "read " + r.status; })
  .catch((e) => { window.results.cors = "failed"; });
</script>"""


class PageServer:
    """The other site: one page on 127.0.0.1 at a port of its own."""

    def __init__(self, page: str) -> None:
        body = page.encode()

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 - http.server's name
                self.send_response(200)
                self.send_header("content-type", "text/html")
                self.send_header("content-length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: Any) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[str], str]]:
    process = subprocess.Popen(
        [sys.executable, "-m", "toolscope", "serve", str(SEED), "--port", "0"],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    assert process.stdout is not None
    found = re.search(r"http://127\.0\.0\.1:(\d+)/", process.stdout.readline())
    if found is None:
        process.kill()
        pytest.fail(f"no URL from toolscope serve: {process.stderr.read() if process.stderr else ''}")
    yield process, f"ws://127.0.0.1:{found.group(1)}/ws"
    os.killpg(process.pid, signal.SIGKILL)
    process.wait(15)


@pytest.fixture
def capture(tmp_path: Path) -> Iterator[CaptureServer]:
    server = CaptureServer(CaptureSettings(writer=CaptureWriter(tmp_path / "c.jsonl"))).start()
    yield server
    server.stop()


def wait_records(path: Path, count: int) -> list[Any]:
    deadline = time.monotonic() + WAIT_MS / 1000
    while len(records := list(read_capture(path).records)) < count and time.monotonic() < deadline:
        time.sleep(0.05)
    return records


def test_a_page_elsewhere_can_neither_open_serve_nor_post_to_a_capture(
    browser: Any, serve: tuple[subprocess.Popen[str], str], capture: CaptureServer, tmp_path: Path
) -> None:
    process, websocket = serve
    page_server = PageServer(
        PAGE.replace("SERVE_WS", websocket).replace("CAPTURE_URL", f"{capture.url}/v1/chat/completions")
    )
    page = browser.new_page()
    try:
        page.goto(page_server.url)
        page.wait_for_function("() => ['ws', 'no_cors', 'cors'].every((k) => k in window.results)", timeout=WAIT_MS)
        results = page.evaluate("window.results")
    finally:
        page.close()
        page_server.stop()
    # The upgrade got a 403: the browser reports an abnormal close, and no app process started.
    assert results["ws"] == "closed 1006", results
    apps = [p for p in psutil.Process(process.pid).children(recursive=True) if "inspect" in " ".join(p.cmdline())]
    assert apps == []
    # The no-cors POST was sent (an opaque answer), the cors one could not read the refusal.
    assert results["no_cors"] == "opaque" and results["cors"] == "failed", results
    records = wait_records(tmp_path / "c.jsonl", 2)
    assert [(r.error.kind if r.error else None, r.reply.status, r.tools) for r in records] == [
        ("browser_origin", 403, []),
        ("browser_origin", 403, []),
    ]
    assert "injected_tool" not in (tmp_path / "c.jsonl").read_text()
    assert all(page_server.url.rstrip("/") in json.dumps(r.error.message) for r in records if r.error)
