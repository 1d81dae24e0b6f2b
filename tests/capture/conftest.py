"""A real capture server on 127.0.0.1 for each test (uvicorn in a thread), writing its capture file."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from toolscope.core.capture.app import CaptureSettings
from toolscope.core.capture.replies import ReplyScript
from toolscope.core.capture.reply import Reply
from toolscope.core.capture.server import CaptureServer
from toolscope.core.capture.writer import CaptureWriter


@pytest.fixture
def start_server(tmp_path: Path) -> Iterator[Callable[..., CaptureServer]]:
    """``start_server(replies=[...], name="c.jsonl", upstream=…)`` → a started server (stopped after the test)."""
    started: list[CaptureServer] = []

    def start(replies: list[Reply] | None = None, name: str = "c.jsonl", **options: Any) -> CaptureServer:
        settings = CaptureSettings(writer=CaptureWriter(tmp_path / name), script=ReplyScript(replies), **options)
        server = CaptureServer(settings).start()
        server.capture_path = tmp_path / name  # type: ignore[attr-defined]
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()
