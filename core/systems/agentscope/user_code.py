"""Where the user's code can fail after it was loaded, and how long it may take.

A factory's code does not stop running when the factory returns: its tools'
``check_permissions``, its groups, its MCP clients run again while toolscope evaluates and
replays. Whatever escapes from there is the user's code failing (exit 3), not a toolscope
bug (exit 70):

- ``failure_in_user_code(exc)``: a ``UserCodeError`` when ``exc`` came out of a loaded
  factory's code (a frame of theirs in its traceback, or ``sys.exit``/``KeyboardInterrupt``
  raised on the shared loop, which only user code does), else None;
- ``check_toolkit_shape(toolkit, target)``: a Toolkit whose ``tool_groups`` holds something
  that is not a ``ToolGroup`` (a string, say) fails when the factory returns, naming the item;
- ``deadline(what)``: the factory's import and call get ``factory_timeout()`` seconds
  (``TOOLSCOPE_FACTORY_TIMEOUT``, default 60), then ``FactoryTimedOut`` is raised in the main
  thread (SIGALRM, installed only for that call and restored after).
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import traceback
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ...model.errors import EXIT_USER_CODE, ToolscopeError, UserCodeError, is_user_frame
from .aio import EscapedFromLoop

TIMEOUT_ENV = "TOOLSCOPE_FACTORY_TIMEOUT"
DEFAULT_TIMEOUT = 60.0

_LOADED: list[tuple[str, Path | None]] = []
"""(target, the user's root folder) of every factory this process loaded."""


def remember_factory(target: str, user_root: Path | None) -> None:
    """Record a loaded factory: later failures in its code are the user's."""
    _LOADED.append((target, user_root))


def failure_in_user_code(exc: BaseException) -> UserCodeError | None:
    """The user's failure behind ``exc``, when a loaded factory's code raised it."""
    from .factory import user_failure

    original = exc.original if isinstance(exc, EscapedFromLoop) else exc
    for target, root in _LOADED:
        if isinstance(exc, EscapedFromLoop) or _has_user_frame(original, root):
            return user_failure(f"the code of toolkit factory {target}", original, root)
    return None


def _has_user_frame(exc: BaseException, root: Path | None) -> bool:
    seen: set[int] = set()
    stack = [exc]
    while stack:  # the exception, its cause/context and an exception group's members
        current = stack.pop()
        if id(current) in seen or len(seen) > 100:
            continue
        seen.add(id(current))
        if any(is_user_frame(frame.filename, root) for frame in traceback.extract_tb(current.__traceback__)):
            return True
        stack.extend(e for e in (current.__cause__, current.__context__) if e is not None)
        if isinstance(current, BaseExceptionGroup):
            stack.extend(current.exceptions)
    return False


class BrokenToolkitError(ToolscopeError):
    """The factory returned a Toolkit AgentScope itself could not use: the user's code, exit 3."""

    exit_code = EXIT_USER_CODE


def check_toolkit_shape(toolkit: Any, target: str) -> None:
    """Every ``tool_groups`` item a ToolGroup, every group's ``tools`` a list of ToolBase."""
    from agentscope.tool import ToolBase, ToolGroup

    groups = getattr(toolkit, "tool_groups", None)
    if not isinstance(groups, list | tuple):
        raise BrokenToolkitError(
            f"toolkit factory {target}: the Toolkit's tool_groups is a {type(groups).__name__}, expected a list"
        )
    for index, group in enumerate(groups):
        if not isinstance(group, ToolGroup):
            raise BrokenToolkitError(
                f"toolkit factory {target}: toolkit.tool_groups[{index}] is a {type(group).__name__}, "
                "expected a ToolGroup (AgentScope fails on it too)"
            )
        tools = getattr(group, "tools", None)
        if not isinstance(tools, list | tuple):
            raise BrokenToolkitError(
                f"toolkit factory {target}: group {group.name!r} has tools of type {type(tools).__name__}, "
                "expected a list"
            )
        for position, tool in enumerate(tools):
            if not isinstance(tool, ToolBase):
                raise BrokenToolkitError(
                    f"toolkit factory {target}: group {group.name!r} tools[{position}] is a "
                    f"{type(tool).__name__}, expected a ToolBase (a FunctionTool or a subclass)"
                )


def factory_timeout() -> float:
    """Seconds a factory's import and call may take (``TOOLSCOPE_FACTORY_TIMEOUT``; 0: no limit)."""
    raw = os.environ.get(TIMEOUT_ENV, "")
    try:
        value = float(raw) if raw.strip() else DEFAULT_TIMEOUT
    except ValueError:
        return DEFAULT_TIMEOUT
    return value if value >= 0 and value == value else DEFAULT_TIMEOUT  # NaN: the default


class FactoryTimedOut(BaseException):  # noqa: N818 - raised like KeyboardInterrupt, through user code
    """The factory ran past its deadline. A BaseException: their ``except Exception`` cannot swallow it."""

    def __init__(self, seconds: float) -> None:
        super().__init__(f"did not finish within {seconds:g}s (set {TIMEOUT_ENV} to give it longer, 0 for no limit)")
        self.seconds = seconds


@contextlib.contextmanager
def deadline(seconds: float | None = None) -> Iterator[None]:
    """Raise ``FactoryTimedOut`` in the main thread after ``seconds`` (SIGALRM; main thread only)."""
    seconds = factory_timeout() if seconds is None else seconds
    usable = seconds > 0 and hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
    if not usable:
        yield
        return

    def expired(signum: int, frame: Any) -> None:
        raise FactoryTimedOut(seconds)

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
