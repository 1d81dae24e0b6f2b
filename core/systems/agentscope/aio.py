"""Run AgentScope coroutines from sync code (CLI, Subject methods, the TUI).

Every coroutine runs on one long-lived event loop in a background thread. One loop, not
``asyncio.run`` per call: a user's factory may connect MCP clients, whose sessions live
in tasks of the loop that connected them; evaluating or stepping that toolkit later on
another loop finds them closed ("Connection closed").

The loop thread must survive whatever the coroutines do and be idle when the process
ends:

- ``SystemExit`` and ``KeyboardInterrupt`` raised inside a task (an ``async def`` factory
  calling ``sys.exit``, a tool's ``check_permissions`` raising ``KeyboardInterrupt``) would
  escape ``run_forever`` and end the thread, and the caller would wait forever: they are
  caught on the loop and reach the caller as ``EscapedFromLoop`` (an ``Exception``: code
  raising them on the loop is not the user pressing Ctrl-C, which reaches the main thread
  only, nor toolscope deciding to exit);
- a caller interrupted (Ctrl-C, SIGTERM) or out of time cancels the coroutine and waits,
  bounded, until it has stopped; long loops over outside data (``areplay_session``) await
  ``checkpoint()`` so that the cancellation lands;
- ``shutdown()`` (at exit) stops the loop and joins its thread: a daemon thread still
  running Python when the interpreter finalizes is killed inside whatever C or Rust code it
  is in, which aborts the process ("FATAL: exception not rethrown", exit 134).
"""

from __future__ import annotations

import asyncio
import atexit
import concurrent.futures
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")

_lock = threading.Lock()
_loop: asyncio.AbstractEventLoop | None = None
_thread: threading.Thread | None = None

CANCEL_GRACE = 2.0
"""Seconds a cancelled coroutine gets to stop before the caller gives up waiting on it."""
_STUCK: list[bool] = []


class EscapedFromLoop(Exception):  # noqa: N818 - it is not an error of its own, it carries one
    """``SystemExit`` or ``KeyboardInterrupt`` raised by a coroutine on the shared loop."""

    def __init__(self, original: BaseException) -> None:
        super().__init__(f"{type(original).__name__} raised on the shared loop: {original}")
        self.original = original


class _Raised:
    """A BaseException that ended a coroutine on the loop, carried to the caller's thread."""

    def __init__(self, exc: BaseException) -> None:
        self.exc = exc

    def reraise(self) -> None:
        exc = self.exc
        if isinstance(exc, SystemExit | KeyboardInterrupt):
            raise EscapedFromLoop(exc) from exc
        raise exc.with_traceback(exc.__traceback__)


def background_loop() -> asyncio.AbstractEventLoop:
    """The shared loop, started on first use (a daemon thread, stopped by ``shutdown``)."""
    global _loop, _thread
    with _lock:
        if _loop is None or _loop.is_closed():
            loop = asyncio.new_event_loop()
            thread = threading.Thread(target=loop.run_forever, name="toolscope-agentscope-loop", daemon=True)
            thread.start()
            _loop, _thread = loop, thread
        return _loop


async def _contained(coro: Coroutine[Any, Any, T], done: threading.Event) -> T | _Raised:
    try:
        return await coro
    except asyncio.CancelledError:
        raise
    except BaseException as exc:  # noqa: BLE001 - SystemExit/KeyboardInterrupt would end the loop thread
        return _Raised(exc)
    finally:
        done.set()


def run_sync(coro: Coroutine[Any, Any, T], timeout: float | None = None) -> T:
    """Run ``coro`` on the shared loop and wait for its result (exceptions propagate).

    ``timeout``: seconds, then the coroutine is cancelled and ``TimeoutError`` raised. An
    interruption while waiting (``KeyboardInterrupt``) cancels the coroutine too, waits up
    to ``CANCEL_GRACE`` for it to stop, and propagates.
    """
    loop = background_loop()
    try:
        running = asyncio.get_running_loop()
    except RuntimeError:
        running = None
    if running is loop:
        coro.close()
        raise RuntimeError("run_sync called from the shared AgentScope loop itself; await the coroutine instead")
    done = threading.Event()
    future = asyncio.run_coroutine_threadsafe(_contained(coro, done), loop)
    try:
        outcome = future.result(timeout)
    except concurrent.futures.TimeoutError:
        _cancel(future, done)
        raise TimeoutError(f"did not finish within {timeout:g}s") from None
    except BaseException:
        _cancel(future, done)
        raise
    if isinstance(outcome, _Raised):
        outcome.reraise()
    return outcome  # type: ignore[return-value]


def _cancel(future: concurrent.futures.Future[Any], done: threading.Event) -> None:
    future.cancel()
    if not done.wait(CANCEL_GRACE):
        _STUCK.append(True)  # ignores cancellation: shutdown need not wait for it again


async def on_shared_loop(coro: Coroutine[Any, Any, T]) -> T:
    """Await ``coro`` on the shared loop from another running loop (the TUI's).

    Toolkits from factories may hold MCP clients connected on the shared loop; their
    calls must run there, not on the loop of whoever is asking. Cancelling the awaiting
    task cancels the coroutine on the shared loop.
    """
    loop = background_loop()
    if asyncio.get_running_loop() is loop:
        return await coro
    done = threading.Event()
    outcome = await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(_contained(coro, done), loop))
    if isinstance(outcome, _Raised):
        outcome.reraise()
    return outcome  # type: ignore[return-value]


async def checkpoint() -> None:
    """Let the loop deliver a cancellation: awaited once per item by long loops over outside data."""
    await asyncio.sleep(0)


def shutdown(grace: float = CANCEL_GRACE) -> bool:
    """Stop the shared loop and join its thread (bounded); True when it is stopped (or never ran).

    False: a coroutine is still running Python and ignores cancellation; the caller should
    end the process without finalizing the interpreter (``os._exit``) instead of letting
    finalization kill the thread mid-call.
    """
    global _loop, _thread
    with _lock:
        loop, thread = _loop, _thread
        _loop, _thread = None, None
    if loop is None or thread is None or not thread.is_alive():
        return True
    loop.call_soon_threadsafe(_cancel_all_and_stop, loop)
    thread.join(0.1 if _STUCK else grace)
    return not thread.is_alive()


def _cancel_all_and_stop(loop: asyncio.AbstractEventLoop) -> None:
    # On the loop's own thread: all_tasks is only safe there.
    for task in asyncio.all_tasks(loop):
        task.cancel()
    loop.call_soon(loop.stop)  # after the cancelled tasks had a step to unwind


atexit.register(shutdown)
