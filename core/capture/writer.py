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
from typing import TYPE_CHECKING, Any

from ..schemas.capture import CAPTURE_SCHEMA
from .line_sink import LineSink
from .reply import estimate_tokens
from .request_facts import RequestFacts

if TYPE_CHECKING:
    from .record_worker import RecordWorker


def now_iso() -> str:
    """UTC now, ISO 8601 with milliseconds (``2026-12-01T10:07:15.123Z``)."""
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def record(
    *,
    index: int,
    received_at: str,
    protocol: str | None,
    path: str,
    mode: str,
    user_agent: str | None,
    facts: RequestFacts,
    reply: dict[str, Any],
    started: float,
    kept: dict[str, Any] | None,
    error: dict[str, Any] | None = None,
    ended: float | None = None,
) -> dict[str, Any]:
    """A ``toolscope.capture/1`` record as a dict (keys in the model's order; ``protocol`` None:
    a refused request whose protocol was not recognised)."""
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
        "duration_ms": round(((time.perf_counter() if ended is None else ended) - started) * 1000, 3),
        "kept": kept,
        "error": error,
    }


def error_record(
    *,
    index: int,
    received_at: str,
    protocol: str | None,
    path: str,
    mode: str,
    method: str,
    user_agent: str | None,
    status: int,
    kind: str,
    message: str,
    started: float,
) -> dict[str, Any]:
    """The record of a request the server refused: no tools, ``error`` says why."""
    nothing = RequestFacts(
        model=None,
        stream=False,
        tools=[],
        deferred_names=[],
        deferred_namespaces=[],
        tool_choice=None,
        system_bytes=0,
        messages=0,
    )
    return record(
        index=index,
        received_at=received_at,
        protocol=protocol,
        path=path,
        mode=mode,
        user_agent=user_agent,
        facts=nothing,
        reply=reply_record("error", status, [], 0, None, message),
        started=started,
        kept=None,
        error={"kind": kind, "message": message, "method": method},
    )


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

    ``next_index()`` numbers requests in arrival order; ``write()`` appends a whole record;
    ``submit()`` a record still to be completed from its request body (``record_job``).
    With ``start_worker()`` both go, in order, to the record worker process
    (``record_worker``), which alone writes the file from then on; without it they are
    written here, each line flushed before the call returns. Thread-safe (the server runs
    in one event loop, the tests may not).
    """

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._count = 0
        self.sent = 0
        """Records sent to be written (to the worker, or written here)."""
        self.written = 0
        """Lines in the file: known once ``close`` returned."""
        self.lost = 0
        """Records whose line could not be written (``LineSink``): known once ``close`` returned."""
        self.lost_reason: str | None = None
        self._sink: LineSink | None = None
        self._worker: RecordWorker | None = None
        if path is not None:
            # A new capture replaces an old file of the same name: one file is one run.
            from ..outputs.output_file import open_record_file

            fd = open_record_file(path)  # a regular file only: a pipe or device is refused, never waited on
            self._sink = LineSink(fd)

    def next_index(self) -> int:
        """1, 2, … in the order requests arrive."""
        with self._lock:
            self._count += 1
            return self._count

    def start_worker(self) -> None:
        """Hand the writing to a record worker process from now on (a capture file only)."""
        from .record_worker import RecordWorker

        with self._lock:
            if self._sink is not None and self._worker is None:
                self._worker = RecordWorker(self._sink.fd, self._fallback)

    def write(self, data: dict[str, Any]) -> None:
        """Append one whole record line (without a worker: in the file when this returns)."""
        self._send({"record": data}, b"")

    def submit(self, pending: dict[str, Any], raw: bytes) -> None:
        """Append the record of ``pending`` completed from its body ``raw`` (``record_job``)."""
        self._send({"pending": pending}, raw)

    def _send(self, meta: dict[str, Any], raw: bytes) -> None:
        if self._sink is None:
            return
        with self._lock:
            self.sent += 1
            worker = self._worker
        if worker is not None:
            worker.send(meta, raw)
        else:
            self._write_frame(meta, raw)

    def _write_frame(self, meta: dict[str, Any], raw: bytes) -> None:
        from .record_worker import write_frame

        with self._lock:
            if self._sink is not None:
                write_frame(self._sink, meta, raw)

    def _fallback(self, meta: dict[str, Any], raw: bytes) -> None:
        # The worker died: its lines end where the file ends now (the descriptor is shared).
        with self._lock:
            if self._sink is not None and not self._sink.written and not self._sink.lost:
                self._sink.offset = os.lseek(self._sink.fd, 0, os.SEEK_END)
        self._write_frame(meta, raw)

    def close(self) -> None:
        """Write what is pending (the worker finishes first), close the file, count what was written."""
        worker = self._worker
        if worker is not None:
            worker.close()
        with self._lock:
            sink, self._sink = self._sink, None
        if sink is None:
            return
        os.close(sink.fd)
        written, lost, reason = sink.written, sink.lost, sink.reason
        if worker is not None and worker.counts is not None:
            written += int(worker.counts.get("written") or 0)
            reason = reason or worker.counts.get("reason")
        elif worker is not None:
            written = _lines_in(self.path)  # the worker died without its counts: the file says
        self.written = written
        self.lost = max(lost, self.sent - written)
        self.lost_reason = reason or ("the record worker ended early" if self.lost else None)


def _lines_in(path: Path | None) -> int:
    try:
        with open(path, "rb") as handle:  # type: ignore[arg-type]
            return sum(chunk.count(b"\n") for chunk in iter(lambda: handle.read(1 << 20), b""))
    except OSError:
        return 0
