"""``toolscope serve``'s event loop, which knows the app processes it starts, and their ending.

textual-serve starts each page's app with ``asyncio.create_subprocess_shell`` and waits for its
output to end, never for the process itself. asyncio's child watcher reports an exit to the
loop from its own thread; when the loop has closed in between, it prints "Loop … that handles
pid N is closed" (half the stops with a page open, #36). The server's shutdown waits here until
every app's exit has reached the loop, so the loop closes after the last one.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from typing import Any, TypeVar

POLL_SECONDS = 0.01
"""How often shutdown looks whether the app processes have ended (each ends within ~0.15 s of SIGINT)."""

_Protocol = TypeVar("_Protocol", bound=asyncio.BaseProtocol)


class AppProcessLoop(asyncio.SelectorEventLoop):
    """An event loop that keeps the transport of every process started with ``subprocess_shell``
    (asyncio's public API for ``create_subprocess_shell``): a transport's ``get_returncode()`` is
    set only once the child watcher's report of the exit has run on this loop."""

    def __init__(self) -> None:
        super().__init__()
        self.app_processes: list[asyncio.SubprocessTransport] = []

    async def subprocess_shell(
        self, protocol_factory: Callable[[], _Protocol], cmd: str | bytes, **kwargs: Any
    ) -> tuple[asyncio.SubprocessTransport, _Protocol]:
        transport, protocol = await super().subprocess_shell(protocol_factory, cmd, **kwargs)
        # The ended ones are dropped here, so a server that runs for days keeps only the live ones.
        self.app_processes = [p for p in self.app_processes if p.get_returncode() is None]
        self.app_processes.append(transport)
        return transport, protocol


async def still_running(
    processes: list[asyncio.SubprocessTransport], seconds: float
) -> list[asyncio.SubprocessTransport]:
    """Wait at most ``seconds`` for the processes to end (and their ends to reach the loop):
    the ones still running then."""
    deadline = time.monotonic() + seconds
    while True:
        running = [p for p in processes if p.get_returncode() is None]
        if not running or time.monotonic() >= deadline:
            return running
        await asyncio.sleep(POLL_SECONDS)


async def end_processes(processes: list[asyncio.SubprocessTransport], grace: float) -> None:
    """Wait until every process has ended and the loop has heard so: the ones still running
    ``grace`` seconds later are terminated, and killed ``grace`` seconds after that."""
    running = await still_running(processes, grace)
    for process in running:
        with contextlib.suppress(ProcessLookupError):  # it ended meanwhile
            process.terminate()
    running = await still_running(running, grace)
    for process in running:
        with contextlib.suppress(ProcessLookupError):
            process.kill()
    await still_running(running, grace)
