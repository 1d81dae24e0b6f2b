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


def wait_records(server: CaptureServer, count: int, timeout: float = 5.0) -> list[Any]:
    """The records once ``count`` are written (a streamed reply's line follows its last byte)."""
    deadline = time.monotonic() + timeout
    while True:
        found = records(server)
        if len(found) >= count or time.monotonic() > deadline:
            return found
        time.sleep(0.01)
