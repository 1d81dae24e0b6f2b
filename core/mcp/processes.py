"""Server processes started by discovery: learning their PIDs and making sure they end.

The SDK's ``stdio_client`` starts each server in a new session (so its own process
group) and stops it politely (close stdin, wait 2 s, SIGTERM the group, wait 2 s,
SIGKILL). Discovery needs more: kill a hung server at its deadline, and kill what a
server left behind (grandchildren) even when the server itself already exited. Both
need the PID, which ``stdio_client`` keeps to itself (``sdk_private.install_spawn_hook``
records it). Process trees come from psutil (Linux, macOS, BSD; Windows for what it has).

A process is named by (pid, start time): a pid is reused once its process is gone, and
``kill_known`` never signals a pid whose start time is not the one recorded.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import time
from typing import Any

import psutil

from .sdk_private import SPAWNED, install_spawn_hook

__all__ = [
    "SPAWNED",
    "Attempt",
    "become_subreaper",
    "descendants",
    "end_orphans",
    "install_spawn_hook",
    "kill_known",
    "own_children",
    "start_time",
    "wait_group_dead",
]

_GONE = (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess)


def start_time(pid: int) -> float | None:
    """When process ``pid`` started, or None when it is gone or a zombie (already dead)."""
    try:
        process = psutil.Process(pid)
        if process.status() == psutil.STATUS_ZOMBIE:
            return None
        return process.create_time()
    except _GONE:
        return None


def descendants(pid: int) -> set[tuple[int, float]]:
    """Every living descendant of ``pid`` as (pid, start time), whatever session or group it is in."""
    try:
        children = psutil.Process(pid).children(recursive=True)
    except _GONE:
        return set()
    found = set()
    for child in children:
        with contextlib.suppress(*_GONE):
            if child.status() != psutil.STATUS_ZOMBIE:
                found.add((child.pid, child.create_time()))
    return found


def kill_known(processes: set[tuple[int, float]]) -> None:
    """SIGKILL each (pid, start time) that is still that same process (never a reused pid)."""
    for pid, start in processes:
        if start_time(pid) != start:
            continue  # gone, a zombie, or the pid now names another process
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
    try:
        return {child.pid for child in psutil.Process().children()}
    except _GONE:  # pragma: no cover - we are alive
        return set()


def end_orphans(before: set[int]) -> None:
    """Kill and reap the children that appeared since ``before`` (orphans left by servers)."""
    left = own_children() - before
    kill_known({(pid, start) for pid in left if (start := start_time(pid)) is not None})
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
        self.processes: list[Any] = []
        self.timed_out = False
        self.exit_code: int | None = None
        """The server's own exit code, seen before the client started to close (never the SDK's SIGTERM)."""
        self.seen: set[tuple[int, float]] = set()
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
    """True while a process of group pgid is still running (zombies count as dead)."""
    if not hasattr(os, "getpgid"):  # pragma: no cover - Windows: no process groups
        return False
    for process in psutil.process_iter():
        with contextlib.suppress(*_GONE, ProcessLookupError, PermissionError):
            if os.getpgid(process.pid) == pgid and process.status() != psutil.STATUS_ZOMBIE:
                return True
    return False


async def wait_group_dead(pgid: int, limit: float = 1.0) -> None:
    """SIGKILL is asynchronous: wait (bounded) until the kernel has actually ended the group."""
    import anyio

    deadline = anyio.current_time() + limit
    while group_running(pgid) and anyio.current_time() < deadline:
        await anyio.sleep(0.01)
