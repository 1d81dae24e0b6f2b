"""The record worker process: it writes every record it is sent, is out of the terminal's
Ctrl+C, ends with the server, and a worker that dies does not stop the capture."""

from __future__ import annotations

import os
import signal

import httpx
from capture_helpers import wait_records

TOOLS = [{"type": "function", "function": {"name": f"t{n}", "parameters": {"type": "object"}}} for n in range(3)]


def _ask(server, model: str) -> None:  # noqa: ANN001 - a CaptureServer
    body = {"model": model, "messages": [{"role": "user", "content": "x"}], "tools": TOOLS}
    assert httpx.post(f"{server.url}/v1/chat/completions", json=body, timeout=60).status_code == 200


def test_the_worker_writes_the_records_and_ends_with_the_server(start_server) -> None:
    server = start_server()
    worker = server.settings.writer._worker.process
    # A Ctrl+C at a terminal goes to the foreground process group: not the worker's.
    assert os.getpgid(worker.pid) == worker.pid != os.getpgid(0)
    for n in range(2):
        _ask(server, f"m{n}")
    wait_records(server, 2)
    os.kill(worker.pid, signal.SIGINT)  # sent to it anyway (once it runs): ignored
    _ask(server, "m2")
    found = wait_records(server, 3)
    assert [(r.model, [t.name for t in r.tools]) for r in found] == [(f"m{n}", ["t0", "t1", "t2"]) for n in range(3)]
    assert worker.poll() is None
    server.stop()
    assert worker.poll() is not None, "the record worker outlived the server"


def test_a_dead_worker_does_not_stop_the_capture(start_server) -> None:
    server = start_server()
    worker = server.settings.writer._worker.process
    _ask(server, "before")
    wait_records(server, 1)
    worker.kill()
    worker.wait(10)
    for n in range(2):
        _ask(server, f"after{n}")
    found = wait_records(server, 3)
    assert [r.model for r in found] == ["before", "after0", "after1"]
    assert [t.name for t in found[-1].tools] == ["t0", "t1", "t2"]
