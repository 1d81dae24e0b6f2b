"""Run a coroutine from sync code (CLI, Subject methods), even when a loop is running.

With no running loop: ``asyncio.run``. Inside a running loop (the TUI, async tests): in a
fresh thread with its own loop, so sync Subject methods stay usable everywhere. Toolkits
holding MCP clients connected on another loop should use the async APIs instead.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


def run_sync(coro: Coroutine[Any, Any, T]) -> T:
    """Run ``coro`` to completion and return its result (exceptions propagate)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coro)
    box: dict[str, Any] = {}

    def runner() -> None:
        try:
            box["value"] = asyncio.run(coro)
        except BaseException as exc:  # re-raised in the caller's thread
            box["error"] = exc

    thread = threading.Thread(target=runner, name="toolscope-run-sync")
    thread.start()
    thread.join()
    if "error" in box:
        raise box["error"]
    return box["value"]
