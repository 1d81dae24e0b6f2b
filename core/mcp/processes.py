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
import sys
import time
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


def _process_table() -> dict[int, tuple[int, int]]:
    """pid → (parent pid, start time) of every process, from /proc (Linux); empty elsewhere.
    Zombies have a negative start time.

    Cached for a few milliseconds: every server's watchdog asks on each tick.
    """
    now = time.monotonic()
    if now - _TABLE[0] < _TABLE_TTL:
        return _TABLE[1]
    table: dict[int, tuple[int, int]] = {}
    if os.path.isdir("/proc"):
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                with open(f"/proc/{entry}/stat", encoding="utf-8", errors="replace") as fh:
                    fields = fh.read().rsplit(")", 1)[1].split()
                # fields: state ppid pgrp session … starttime is field 22 of stat (index 19 here);
                # a zombie keeps its entry (it still needs reaping) with a negative start time.
                start = int(fields[19])
                table[int(entry)] = (int(fields[1]), -start if fields[0] in {"Z", "X"} else start)
            except (OSError, IndexError, ValueError):
                continue
    _TABLE[0], _TABLE[1] = now, table
    return table


_TABLE: list[Any] = [0.0, {}]
_TABLE_TTL = 0.04


def descendants(pid: int) -> set[tuple[int, int]]:
    """Every living descendant of ``pid`` as (pid, start time), whatever session or group it is in."""
    table = _process_table()
    children: dict[int, list[int]] = {}
    for child, (parent, _start) in table.items():
        children.setdefault(parent, []).append(child)
    found: set[tuple[int, int]] = set()
    stack = list(children.get(pid, ()))
    while stack:
        child = stack.pop()
        if child in table and table[child][1] >= 0:
            found.add((child, table[child][1]))
            stack.extend(children.get(child, ()))
    return found


def kill_known(processes: set[tuple[int, int]]) -> None:
    """SIGKILL each (pid, start time) that is still that same process (never a reused pid)."""
    table = _process_table() if processes else {}
    _TABLE[0] = 0.0  # the next look sees the kills
    for pid, start in processes:
        if pid in table and table[pid][1] == start:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)


def become_subreaper() -> bool:
    """Make orphaned descendants (a server's children whose parent exited) our children
    instead of init's, so that discovery can still find and end them. Linux only."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(36, 1, 0, 0, 0) == 0  # PR_SET_CHILD_SUBREAPER
    except (OSError, AttributeError):
        return False


def own_children() -> set[int]:
    """This process's children (zombies too)."""
    _TABLE[0] = 0.0
    me = os.getpid()
    return {pid for pid, (parent, _start) in _process_table().items() if parent == me}


def end_orphans(before: set[int]) -> None:
    """Kill and reap the children that appeared since ``before`` (orphans left by servers)."""
    left = own_children() - before
    table = _process_table()
    kill_known({(pid, table[pid][1]) for pid in left if pid in table})
    deadline = time.monotonic() + 1.0
    pending = set(left)
    while pending and time.monotonic() < deadline:
        for pid in list(pending):
            try:
                done, _status = os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                done = pid  # reaped by someone else (asyncio's watcher for its own children)
            if done:
                pending.discard(pid)
        if pending:
            time.sleep(0.01)


class Attempt:
    """Mutable state of one server's attempt, read by the watchdog and the classifier."""

    def __init__(self) -> None:
        self.phase = "start"
        self.processes: list[Any] = []
        self.timed_out = False
        self.exit_code: int | None = None
        self.seen: set[tuple[int, int]] = set()
        """Every descendant of the server seen while it ran (a grandchild in a session of its own too)."""

    def track(self) -> None:
        """Remember the server's current descendants (called on every watchdog tick)."""
        if self.process is not None:
            self.seen |= descendants(self.process.pid)

    def kill_all(self) -> None:
        """SIGKILL the server's process group and every descendant ever seen."""
        self.track()
        self.kill_group()
        kill_known(self.seen)

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
