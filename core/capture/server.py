"""Running the capture app under uvicorn in a background thread, on a port bound up front.

``CaptureServer(settings, host, port)`` binds the socket itself (port 0: a free port,
known before the server starts, so the command's environment can name it), serves in a
daemon thread with its own event loop (uvicorn installs no signal handlers off the main
thread: the main thread keeps Ctrl+C and SIGTERM), and ``stop()`` shuts it down within
``STOP_SECONDS`` whatever the clients do. Loopback only unless a host is given.
"""

from __future__ import annotations

import asyncio
import logging
import socket
import sys
import threading
import time

import uvicorn

from ..text.counts import counted
from .app import CaptureSettings, capture_app, warm_up
from .http_protocol import BoundedHttpToolsProtocol

START_SECONDS = 15.0
STOP_SECONDS = 5.0
"""In-flight replies get this long to finish at shutdown; their records say they were cut off."""


def bind(host: str, port: int) -> socket.socket:
    """A listening TCP socket on host:port (IPv6 when the host is an IPv6 address)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # IPPROTO_TCP named explicitly: asyncio sets TCP_NODELAY on accepted connections only when
    # the socket's proto says TCP (``asyncio.base_events._set_nodelay``), and the accepted
    # sockets inherit it. Without it, uvicorn's separate writes of headers and body wait on the
    # client's delayed ACK (Nagle): about 40 ms added to every reply.
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
        sock.listen(512)
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(False)
    return sock


class _CutOffNote(logging.Filter):
    """uvicorn's "ERROR: Cancel N running task(s)" at shutdown, said as what it means for the capture."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not str(record.msg).startswith("Cancel %s running task"):
            return True
        count = record.args[0] if isinstance(record.args, tuple) and record.args else None
        requests = counted(count, "request") if isinstance(count, int) else "some requests"
        print(
            f"toolscope capture: {requests} still in flight after {STOP_SECONDS:g} s were cut off (their lines say so)",
            file=sys.stderr,
        )
        return False


logging.getLogger("uvicorn.error").addFilter(_CutOffNote())


class CaptureServer:
    """The capture server of one run (``start()`` / ``stop()``, or a ``with`` block)."""

    def __init__(self, settings: CaptureSettings, host: str = "127.0.0.1", port: int = 0) -> None:
        self.settings = settings
        self.host = host
        self.socket = bind(host, port)
        self.port: int = self.socket.getsockname()[1]
        app = capture_app(settings)
        config = uvicorn.Config(
            app,
            log_level="warning",
            access_log=False,
            lifespan="off",
            http=BoundedHttpToolsProtocol,  # a request head over 64 KiB is a 431, not unbounded memory
            timeout_graceful_shutdown=int(STOP_SECONDS),
            timeout_keep_alive=30,
            server_header=False,
            date_header=True,
        )
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._run, name="toolscope-capture", daemon=True)
        self._error: BaseException | None = None

    @property
    def url(self) -> str:
        """``http://127.0.0.1:PORT`` (IPv6 hosts in brackets)."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    def _run(self) -> None:
        try:
            asyncio.run(self._server.serve(sockets=[self.socket]))
        except BaseException as exc:  # reported by start()/stop() in the main thread
            self._error = exc

    def start(self) -> CaptureServer:
        # The SDK types load before the first request is served, not in the server's thread
        # on a first (error) reply: there the import held the event loop for over 5 s on a
        # busy machine, and every client waited (measured: ``benchmarks/capture_start_bench.py``).
        # A client that connects meanwhile waits in the listen backlog.
        if self.settings.record:
            self.settings.writer.start_worker()  # starts while the SDK types load
        started = time.perf_counter()
        warm_up()
        self.warm_up_seconds = time.perf_counter() - started
        self._thread.start()
        deadline = time.monotonic() + START_SECONDS
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError(f"the capture server did not start: {self._error!r}")
            time.sleep(0.005)
        return self

    def stop(self) -> None:
        """Stop serving (in-flight replies get ``STOP_SECONDS``), close the socket and the capture file."""
        self._server.should_exit = True
        if self._thread.ident is not None:  # started (a Ctrl+C during warm_up() stops it unstarted)
            self._thread.join(STOP_SECONDS + 2)
        if self._thread.is_alive():
            self._server.force_exit = True
            self._thread.join(2)
        self.socket.close()
        self.settings.writer.close()

    def __enter__(self) -> CaptureServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
