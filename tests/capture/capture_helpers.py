"""Helpers of the capture tests: scripted replies, the records a server wrote."""

from __future__ import annotations

import time
from typing import Any

from toolscope.core.capture.reader import read_capture
from toolscope.core.capture.reply import Reply, ToolCall
from toolscope.core.capture.server import CaptureServer


def tool_call(name: str, arguments: Any, namespace: str | None = None) -> Reply:
    return Reply(text="", tool_calls=(ToolCall(name, arguments, namespace),), source="scripted")


def records(server: CaptureServer) -> list[Any]:
    return list(read_capture(server.capture_path).records)  # type: ignore[attr-defined]


def wait_records(server: CaptureServer, count: int, timeout: float = 30.0) -> list[Any]:
    """The records once ``count`` are written (each line follows its reply's last byte).

    The record worker writes them (a second process): on a machine loaded by parallel test
    workers it can take seconds to start, hence the wide bound (returned at once when met).
    """
    deadline = time.monotonic() + timeout
    while True:
        found = records(server)
        if len(found) >= count or time.monotonic() > deadline:
            return found
        time.sleep(0.01)


class AppServer:
    """Any ASGI app under uvicorn on 127.0.0.1 in a thread: the upstream of the proxy tests."""

    def __init__(self, app: Any) -> None:
        import asyncio
        import threading

        import uvicorn

        from toolscope.core.capture.server import bind

        self.socket = bind("127.0.0.1", 0)
        self.url = f"http://127.0.0.1:{self.socket.getsockname()[1]}"
        self._server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))
        self._thread = threading.Thread(
            target=lambda: asyncio.run(self._server.serve(sockets=[self.socket])), daemon=True
        )
        self._thread.start()
        deadline = time.monotonic() + 10
        while not self._server.started and time.monotonic() < deadline:
            time.sleep(0.005)

    def stop(self) -> None:
        self._server.should_exit = True
        self._thread.join(5)
        self.socket.close()
