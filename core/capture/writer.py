"""Writing capture records: one compact JSON line per request, flushed at once.

Records are plain dicts in ``CaptureRecord``'s key order, serialized with orjson (the hot
path: a 1,000-tool request is one ``dumps``); ``tests`` read the lines back through the
model. A line is written with one ``write`` of the whole line, so a reader (or a process
killed mid-run) sees only complete lines plus, at worst, one partial last line.
"""

from __future__ import annotations

import os
import threading
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

import orjson

from ..schemas.capture import CAPTURE_SCHEMA
from .reply import estimate_tokens
from .request_facts import RequestFacts


def now_iso() -> str:
    """UTC now, ISO 8601 with milliseconds (``2026-12-01T10:07:15.123Z``)."""
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def record(
    *,
    index: int,
    received_at: str,
    protocol: str,
    path: str,
    mode: str,
    user_agent: str | None,
    facts: RequestFacts,
    reply: dict[str, Any],
    started: float,
    kept: dict[str, Any] | None,
) -> dict[str, Any]:
    """A ``toolscope.capture/1`` record as a dict (keys in the model's order)."""
    return {
        "schema": CAPTURE_SCHEMA,
        "index": index,
        "received_at": received_at,
        "protocol": protocol,
        "path": path,
        "mode": mode,
        "model": facts.model,
        "stream": facts.stream,
        "user_agent": user_agent,
        "tools": facts.tools,
        "deferred_names": facts.deferred_names,
        "deferred_namespaces": facts.deferred_namespaces,
        "tool_choice": facts.tool_choice,
        "system_bytes": facts.system_bytes,
        "system_token_estimate": estimate_tokens(facts.system_bytes),
        "messages": facts.messages,
        "reply": reply,
        "duration_ms": round((time.perf_counter() - started) * 1000, 3),
        "kept": kept,
    }


def reply_record(
    source: str,
    status: int,
    tool_calls: list[dict[str, Any]],
    text_bytes: int,
    stop_reason: str | None,
    error: str | None,
) -> dict[str, Any]:
    """The record's ``reply`` object."""
    return {
        "source": source,
        "status": status,
        "tool_calls": tool_calls,
        "text_bytes": text_bytes,
        "stop_reason": stop_reason,
        "error": error,
    }


class CaptureWriter:
    """Appends records to a capture file (or to nothing: ``path=None`` numbers requests only).

    ``next_index()`` numbers requests in arrival order; ``write()`` appends one line and
    flushes it. Thread-safe (the server runs in one event loop, the tests may not).
    """

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._count = 0
        self.written = 0
        self._handle: IO[bytes] | None = None
        if path is not None:
            # A new capture replaces an old file of the same name: one file is one run.
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_CLOEXEC", 0), 0o644)
            self._handle = os.fdopen(fd, "wb", buffering=0)

    def next_index(self) -> int:
        """1, 2, … in the order requests arrive."""
        with self._lock:
            self._count += 1
            return self._count

    def write(self, data: dict[str, Any]) -> None:
        """Append one record line (unbuffered: it is in the file when this returns)."""
        if self._handle is None:
            return
        line = orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS) + b"\n"
        with self._lock:
            if self._handle is not None:
                self._handle.write(line)
                self.written += 1

    def close(self) -> None:
        with self._lock:
            if self._handle is not None:
                self._handle.close()
                self._handle = None
