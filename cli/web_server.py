"""``toolscope serve``'s web server: textual-serve, bound before it starts, stopped within bounds.

textual-serve (``textual_serve.Server``) serves a page that runs a terminal in the browser and
starts one ``toolscope inspect`` process per page, talking to it over a websocket. What is
added here, through its public handlers and attributes only:

- the listening socket is made first, so ``--port 0`` gets a free port and the page's
  websocket URL names that port (textual-serve would build it from the port it was given);
- only requests naming the address it printed are answered (``serve_guard``): a page of
  another site, or one reached through DNS rebinding, gets a 403 and starts nothing;
- at most ``max_sessions`` pages run an app at once: past it the page and its websocket get a
  503 saying so;
- Ctrl+C and SIGTERM stop it promptly with pages open: every app process gets SIGINT (as from
  a terminal's Ctrl+C), open websockets get ``SHUTDOWN_SECONDS`` to close, then any app still
  running is terminated, and killed ``SHUTDOWN_SECONDS`` later (textual-serve waits for each
  app without a bound);
- the event loop outlives every app process it started (``serve_loop``): textual-serve
  waits for an app's output to end, never for its exit, and an app ending a moment after the
  loop closed would make asyncio print "Loop … that handles pid N is closed";
- the page is textual-serve's own template plus one script (``serve_page/``): it focuses the
  terminal once it is connected, so keys reach the app without a click first.
"""

from __future__ import annotations

import asyncio
import signal
import socket
from collections.abc import Callable
from pathlib import Path
from typing import Any

import psutil
from aiohttp import web
from textual_serve.server import Server

from .serve_guard import allowed_hosts, refusal, url_host
from .serve_loop import AppProcessLoop, end_processes

SHUTDOWN_SECONDS = 3.0
"""How long open pages get to close, and then app processes to end, before they are killed."""
PAGE_TEMPLATES = Path(__file__).parent / "serve_page"
"""textual-serve's page template (``app_index.html``) with toolscope's focus script."""


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

    def __init__(
        self, command: str, sock: socket.socket, title: str, announce: Callable[[str], None], max_sessions: int
    ) -> None:
        host, port = sock.getsockname()[:2]
        super().__init__(
            command,
            host=host,
            port=port,
            title=title,
            public_url=f"http://{url_host(host)}:{port}",
            templates_path=PAGE_TEMPLATES,
        )
        self.sock = sock
        self.announce = announce
        self.allowed_hosts = allowed_hosts(host, port)
        self.max_sessions = max_sessions
        self.sessions = 0
        """Open websockets, each with its app process (counted until the process has ended)."""
        self.stopped_by: int | None = None
        """The signal that stopped the server (SIGINT for Ctrl+C, SIGTERM, SIGHUP), once one did."""

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

        app = web.Application(middlewares=[self.guard])
        aiohttp_jinja2.setup(app, loader=jinja2.FileSystemLoader(self.templates_path))
        app.add_routes(
            [
                web.get("/", self.show_page, name="index"),
                web.get("/ws", self.open_session, name="websocket"),
                web.get("/download/{key}", self.handle_download, name="download"),
                web.static("/static", self.statics_path, name="static"),  # no folder listings
            ]
        )
        app.on_startup.append(self.on_startup)
        # Cleanup runs once the websockets are closed, before run_app closes the loop.
        app.on_cleanup.append(self.end_apps)
        return app

    async def end_apps(self, app: web.Application) -> None:
        """Wait until every app process has ended and the loop has heard so: the ones still
        running ``SHUTDOWN_SECONDS`` after the stop (which interrupted them) are terminated,
        and killed ``SHUTDOWN_SECONDS`` later."""
        loop = asyncio.get_running_loop()
        if isinstance(loop, AppProcessLoop):
            await end_processes(loop.app_processes, SHUTDOWN_SECONDS)

    @web.middleware
    async def guard(self, request: web.Request, handler: Any) -> web.StreamResponse:
        """Every request, the websocket's upgrade included, names this server's address or gets a 403."""
        reason = refusal(
            request.headers.getall("Host", []),
            request.headers.getall("Origin", []),
            request.path == "/ws",
            self.allowed_hosts,
            self.public_url,
        )
        if reason is not None:
            return web.Response(status=403, text=f"toolscope serve: refused: {reason}\n")
        response: web.StreamResponse = await handler(request)
        return response

    def _full(self) -> web.Response | None:
        if self.sessions < self.max_sessions:
            return None
        text = (
            f"toolscope serve: refused: {self.sessions} open page(s) already run the app, the most at once "
            f"(--max-sessions {self.max_sessions}); close one and reload this page\n"
        )
        return web.Response(status=503, text=text)

    async def show_page(self, request: web.Request) -> web.StreamResponse:
        """The page, or a 503 saying why when no more pages can run an app."""
        full = self._full()
        if full is not None:
            return full
        page: web.StreamResponse = await self.handle_index(request)  # type: ignore[misc]  # aiohttp_jinja2.template
        return page

    async def open_session(self, request: web.Request) -> web.StreamResponse:
        """textual-serve's websocket (one app process), unless ``max_sessions`` are open: a 503."""
        full = self._full()
        if full is not None:
            return full
        self.sessions += 1  # no await since the check: two upgrades cannot both pass it
        try:
            return await self.handle_websocket(request)
        finally:
            self.sessions -= 1

    def serve(self, debug: bool = False) -> None:
        """Serve until Ctrl+C or SIGTERM; then end every app process it started, within bounds."""
        self.debug = debug
        loop = AppProcessLoop()
        asyncio.set_event_loop(loop)
        for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            # SIGHUP too: the CLI's own route for it (cli/signals.py) goes through the SIGINT
            # handler, which this loop replaces. Left alone when ignored (nohup).
            if signal.getsignal(signum) is not signal.SIG_IGN:
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
            end_children(SHUTDOWN_SECONDS)  # what the apps started, which the loop does not know

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
