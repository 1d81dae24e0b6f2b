"""Server processes started by discovery: learning their PIDs and making sure they end.

The SDK's ``stdio_client`` starts each server in a new session (so its own process
group) and stops it politely (close stdin, wait 2 s, SIGTERM the group, wait 2 s,
SIGKILL). Discovery needs more: kill a hung server at its deadline, and kill what a
server left behind (grandchildren) even when the server itself already exited. Both
need the PID, which ``stdio_client`` keeps to itself; ``install_spawn_hook`` records it.
"""

from __future__ import annotations

import contextlib
import contextvars
import os
import signal
from typing import Any

# The process the SDK's stdio_client spawned for the current task (see install_spawn_hook).
SPAWNED: contextvars.ContextVar[list[Any] | None] = contextvars.ContextVar("toolscope_mcp_spawned", default=None)
_HOOKED = False


def install_spawn_hook() -> None:
    """Wrap the SDK's process factory so each discovery task learns the PID it spawned.

    ``stdio_client`` keeps the process to itself; without its PID we could not kill a
    hung server at once. The wrapper is transparent and records into a per-task
    ContextVar, so concurrent discoveries (and other users of the SDK) are unaffected.
    If a future SDK renames the factory we lose only the fast kill, not the reaping.
    """
    global _HOOKED
    if _HOOKED:
        return
    from mcp.client import stdio as sdk_stdio

    original = getattr(sdk_stdio, "_create_platform_compatible_process", None)
    if original is None:  # pragma: no cover - SDK changed; fall back to the SDK's own reaping
        _HOOKED = True
        return

    async def spawn(*args: Any, **kwargs: Any) -> Any:
        process = await original(*args, **kwargs)
        sink = SPAWNED.get()
        if sink is not None:
            sink.append(process)
        return process

    sdk_stdio._create_platform_compatible_process = spawn
    _HOOKED = True


class Attempt:
    """Mutable state of one server's attempt, read by the watchdog and the classifier."""

    def __init__(self) -> None:
        self.phase = "start"
        self.processes: list[Any] = []
        self.timed_out = False
        self.exit_code: int | None = None

    @property
    def process(self) -> Any:
        return self.processes[0] if self.processes else None

    def kill_group(self) -> None:
        """SIGKILL the server's whole process group (it is the group leader)."""
        if self.process is None or not hasattr(os, "killpg"):
            return
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.process.pid, signal.SIGKILL)


def group_running(pgid: int) -> bool:
    """True while a process of group pgid is still running (zombies count as dead).

    Reads /proc (Linux); elsewhere reports False, leaving only the SIGKILL itself.
    """
    proc = "/proc"
    if not os.path.isdir(proc):  # pragma: no cover - non-Linux
        return False
    for entry in os.listdir(proc):
        if not entry.isdigit():
            continue
        try:
            with open(f"{proc}/{entry}/stat", encoding="utf-8", errors="replace") as fh:
                fields = fh.read().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        # fields: state ppid pgrp ...
        if int(fields[2]) == pgid and fields[0] not in {"Z", "X"}:
            return True
    return False


async def wait_group_dead(pgid: int, limit: float = 1.0) -> None:
    """SIGKILL is asynchronous: wait (bounded) until the kernel has actually ended the group."""
    import anyio

    deadline = anyio.current_time() + limit
    while group_running(pgid) and anyio.current_time() < deadline:
        await anyio.sleep(0.01)
