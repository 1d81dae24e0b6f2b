"""The record worker: a second process that reads request bodies for their tool facts and writes the capture.

Reading a 1,000-tool body for its facts costs the server's one event loop more than
answering it (``benchmarks/capture_bench.py``). The server therefore hands each
request's raw body, with the fields it knows (``record_job``), to this process over a
pipe and goes on serving; the worker completes the record and appends its line. On two
cores the two work side by side, and the time a client waits does not include recording.

Parent side: ``RecordWorker(fd)`` starts ``python -m toolscope.core.capture.record_worker FD``
(the capture file's descriptor is passed on: one writer of the file, the worker), and
``send`` queues frames for a sender thread, so the event loop never blocks on the pipe
unless ``QUEUE_BYTES`` are waiting (then the server slows to the worker's pace instead
of holding unbounded memory). ``close()`` sends the rest and waits for the worker to
write it (at most ``CLOSE_SECONDS``). If the worker dies, the records go on being
written by the sender thread itself (``fallback``).

Frames: 8 bytes (``<II``: JSON length, body length), the JSON (``{"pending": …}`` to
complete with the body, or ``{"record": …}``, a whole record), the body.
"""

from __future__ import annotations

import os
import signal
import struct
import subprocess
import sys
import threading
from collections import deque
from collections.abc import Callable
from typing import IO, TYPE_CHECKING, Any

import orjson

if TYPE_CHECKING:
    from .line_sink import LineSink

QUEUE_BYTES = 64 * 1024 * 1024
"""Bytes of frames waiting for the worker before ``send`` waits (the server's backpressure)."""
CLOSE_SECONDS = 30.0
"""How long ``close`` waits for the worker to write what was sent (then it is killed)."""
_HEAD = struct.Struct("<II")


class RecordWorker:
    """The worker process and the thread that feeds it."""

    def __init__(self, fd: int, fallback: Callable[[dict[str, Any], bytes], None]) -> None:
        self.fallback = fallback
        """Writes one frame's record in this process (when the worker is gone)."""
        self.process = subprocess.Popen(
            [sys.executable, "-m", "toolscope.core.capture.record_worker", str(fd)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,  # its counts, one line at the end
            pass_fds=(fd,),
            # Its own process group: a Ctrl+C at the terminal (sent to the whole foreground
            # group) does not reach it; it ends when the server closes its input, or when
            # the server dies (end of input too), after writing what it was sent.
            process_group=0,
        )
        self._pipe: IO[bytes] = self.process.stdin  # type: ignore[assignment]
        self._frames: deque[tuple[dict[str, Any], bytes, bytes]] = deque()
        self._bytes = 0
        self._closing = False
        self._broken = False
        self._ready = threading.Condition()
        self.counts: dict[str, Any] | None = None
        """The worker's lines written and lost, once ``close`` returned (None: it died without saying)."""
        self._thread = threading.Thread(target=self._send_frames, name="toolscope-capture-records", daemon=True)
        self._thread.start()

    def send(self, meta: dict[str, Any], raw: bytes) -> None:
        """Queue one frame (waits only while ``QUEUE_BYTES`` are already queued)."""
        data = orjson.dumps(meta, option=orjson.OPT_NON_STR_KEYS)
        head = _HEAD.pack(len(data), len(raw)) + data
        with self._ready:
            while self._bytes > QUEUE_BYTES and not self._closing:
                self._ready.wait(1.0)
            self._frames.append((meta, head, raw))
            self._bytes += len(head) + len(raw)
            self._ready.notify_all()

    def _send_frames(self) -> None:
        while True:
            with self._ready:
                while not self._frames and not self._closing:
                    self._ready.wait()
                if not self._frames:
                    return
                meta, head, raw = self._frames.popleft()
                self._bytes -= len(head) + len(raw)
                more = bool(self._frames)
                self._ready.notify_all()
            if not self._broken:
                try:
                    self._pipe.write(head)
                    self._pipe.write(raw)
                    if not more:
                        self._pipe.flush()
                    continue
                except (BrokenPipeError, ValueError, OSError):
                    self._broken = True  # the worker died: write in this process from now on
            try:
                self.fallback(meta, raw)
            except Exception as exc:  # one record must not stop the capture
                print(f"toolscope capture: a record was not written: {exc!r}"[:500], file=sys.stderr)

    def close(self) -> None:
        """Send what is queued, end the worker's input, wait for it to finish writing."""
        with self._ready:
            self._closing = True
            self._ready.notify_all()
        self._thread.join(CLOSE_SECONDS)
        try:
            self._pipe.close()
        except OSError:
            pass
        try:
            self.process.wait(CLOSE_SECONDS)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(5)
        self._read_counts()

    def _read_counts(self) -> None:
        try:
            summary = orjson.loads(self.process.stdout.read() or b"null")  # type: ignore[union-attr]
        except (OSError, ValueError):
            summary = None
        if isinstance(summary, dict):
            self.counts = summary


def _exactly(stream: IO[bytes], size: int) -> bytes | None:
    data = stream.read(size) if size else b""
    return data if len(data) == size else None


def main(argv: list[str]) -> int:
    """Read frames from stdin until it ends; append each record to the file descriptor given.

    At the end one JSON line on stdout says how many lines were written and lost (``LineSink``)."""
    # Not in the terminal's process group (``process_group=0``), and a SIGINT sent to it
    # anyway is ignored: it writes every record it was sent and ends with its input.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    from .line_sink import LineSink

    sink = LineSink(int(argv[0]))
    stream = sys.stdin.buffer
    while (head := _exactly(stream, _HEAD.size)) is not None:
        meta_size, raw_size = _HEAD.unpack(head)
        data = _exactly(stream, meta_size)
        raw = _exactly(stream, raw_size)
        if data is None or raw is None:
            break  # the server was killed mid-frame
        write_frame(sink, orjson.loads(data), raw)
    os.close(sink.fd)
    sys.stdout.write(orjson.dumps({"written": sink.written, "lost": sink.lost, "reason": sink.reason}).decode() + "\n")
    return 0


def write_frame(sink: LineSink, meta: dict[str, Any], raw: bytes) -> None:
    """Complete one frame's record and append its line (a failure is counted lost, never raised)."""
    from .line_limits import encode_line
    from .record_job import complete_record

    try:
        line = encode_line(meta["record"] if "record" in meta else complete_record(meta["pending"], raw))
    except Exception as exc:  # one record must not stop the capture
        line = None
        sink.lose(f"its record could not be made: {exc!r}")
    if (line is None or not sink.write(line)) and sink.lost == 1:
        print(f"toolscope capture: a line was not written: {sink.reason}", file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
