"""Run AgentScope coroutines from sync code (CLI, Subject methods, the TUI).

Every coroutine runs on one long-lived event loop in a background thread. One loop, not
``asyncio.run`` per call: a user's factory may connect MCP clients, whose sessions live
in tasks of the loop that connected them; evaluating or stepping that toolkit later on
another loop finds them closed ("Connection closed").
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")

_lock = threading.Lock()
_loop: asyncio.AbstractEventLoop | None = None


def background_loop() -> asyncio.AbstractEventLoop:
    """The shared loop, started on first use (a daemon thread: it never blocks exit)."""
    global _loop
    with _lock:
        if _loop is None or _loop.is_closed():
            loop = asyncio.new_event_loop()
            thread = threading.Thread(target=loop.run_forever, name="toolscope-agentscope-loop", daemon=True)
            thread.start()
            _loop = loop
        return _loop


def run_sync(coro: Coroutine[Any, Any, T]) -> T:
    """Run ``coro`` on the shared loop and wait for its result (exceptions propagate)."""
    loop = background_loop()
    try:
        running = asyncio.get_running_loop()
    except RuntimeError:
        running = None
    if running is loop:
        coro.close()
        raise RuntimeError("run_sync called from the shared AgentScope loop itself; await the coroutine instead")
    return asyncio.run_coroutine_threadsafe(coro, loop).result()


async def on_shared_loop(coro: Coroutine[Any, Any, T]) -> T:
    """Await ``coro`` on the shared loop from another running loop (the TUI's).

    Toolkits from factories may hold MCP clients connected on the shared loop; their
    calls must run there, not on the loop of whoever is asking.
    """
    loop = background_loop()
    if asyncio.get_running_loop() is loop:
        return await coro
    return await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(coro, loop))
