"""``toolscope serve``'s web server: textual-serve, bound before it starts, stopped within bounds.

textual-serve (``textual_serve.Server``) serves a page that runs a terminal in the browser and
starts one ``toolscope inspect`` process per page, talking to it over a websocket. What is
added here, through its public handlers and attributes only:

- the listening socket is made first, so ``--port 0`` gets a free port and the page's
  websocket URL names that port (textual-serve would build it from the port it was given);
- Ctrl+C and SIGTERM stop it promptly with pages open: every app process gets SIGINT (as from
  a terminal's Ctrl+C), open websockets get ``SHUTDOWN_SECONDS`` to close, then any app still
  running is terminated, and killed ``SHUTDOWN_SECONDS`` later (textual-serve waits for each
  app without a bound).
"""

from __future__ import annotations

import asyncio
import signal
import socket
from collections.abc import Callable
from typing import Any

import psutil
from aiohttp import web
from textual_serve.server import Server

SHUTDOWN_SECONDS = 3.0
"""How long open pages get to close, and then app processes to end, before they are killed."""


def listening_socket(host: str, port: int) -> socket.socket:
    """A TCP socket listening on ``host:port`` (port 0: a free one); OSError when it cannot bind."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(128)
        sock.setblocking(False)
    except OSError:
        sock.close()
        raise
    return sock


class ToolscopeWebServer(Server):
    """textual-serve's server on a socket bound beforehand; ``announce`` prints where it listens."""

    def __init__(self, command: str, sock: socket.socket, title: str, announce: Callable[[str], None]) -> None:
        host, port = sock.getsockname()[:2]
        url_host = f"[{host}]" if ":" in host else host
        super().__init__(command, host=host, port=port, title=title, public_url=f"http://{url_host}:{port}")
        self.sock = sock
        self.announce = announce
        self.stopped_by: int | None = None
        """The signal that stopped the server (SIGINT for Ctrl+C, SIGTERM), once one did."""

    def initialize_logging(self) -> None:
        """No log handler: textual-serve's Rich log would print every connection to the terminal."""

    async def on_startup(self, app: web.Application) -> None:
        """Say where the page is (textual-serve prints a logo instead)."""
        self.announce(self.public_url + "/")

    async def web_app(self) -> web.Application:
        """The page, its websocket, downloads and static files, served by textual-serve's public
        handlers under the route names its page template asks the router for."""
        import aiohttp_jinja2  # textual-serve's own dependencies
        import jinja2

        app = web.Application()
        aiohttp_jinja2.setup(app, loader=jinja2.FileSystemLoader(self.templates_path))
        app.add_routes(
            [
                web.get("/", self.handle_index, name="index"),
                web.get("/ws", self.handle_websocket, name="websocket"),
                web.get("/download/{key}", self.handle_download, name="download"),
                web.static("/static", self.statics_path, name="static"),  # no folder listings
            ]
        )
        app.on_startup.append(self.on_startup)
        return app

    def serve(self, debug: bool = False) -> None:
        """Serve until Ctrl+C or SIGTERM; then end every app process it started, within bounds."""
        self.debug = debug
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(signum, self._stop, signum)
        try:
            web.run_app(
                self.web_app(),
                sock=self.sock,
                handle_signals=False,
                shutdown_timeout=SHUTDOWN_SECONDS,
                loop=loop,
                print=None,
            )
        finally:
            end_children(SHUTDOWN_SECONDS)

    def _stop(self, signum: int) -> None:
        self.stopped_by = signum
        # What Ctrl+C in a terminal does to the whole process group: each page's app ends at
        # once and closes its page, so the server need not wait for open websockets (a SIGTERM
        # sent to the server alone took 6 s that way, 0.2 s this way).
        for child in psutil.Process().children(recursive=True):
            try:
                child.send_signal(signal.SIGINT)
            except psutil.NoSuchProcess:
                pass
        self.request_exit()


def end_children(grace: float) -> None:
    """Terminate every process this one started (the app processes and their shells), and kill
    the ones still alive ``grace`` seconds later."""
    children: list[Any] = psutil.Process().children(recursive=True)
    for child in children:
        try:
            child.terminate()
        except psutil.NoSuchProcess:
            pass
    _, alive = psutil.wait_procs(children, timeout=grace)
    for child in alive:
        try:
            child.kill()
        except psutil.NoSuchProcess:
            pass
    psutil.wait_procs(alive, timeout=grace)
