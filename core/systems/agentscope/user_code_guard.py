"""Run the user's factory code in-process without letting it corrupt or fake toolscope's answer.

Two ways user code escapes ``contextlib.redirect_stdout``:

* output that bypasses ``print()``: ``os.write(1, …)``, a child process inheriting fd 1, a
  thread that keeps printing after the factory returned. ``protect_stdout`` moves
  toolscope's own stdout to a private descriptor and points fd 1 at stderr, and only the
  main thread writes to the real stdout: ``--json`` stays one JSON document.
* ``os._exit(0)``, which ends the process at once with a success code: ``check --expect``
  would pass in CI without having checked anything. ``guard_process_exit`` replaces
  ``os._exit`` in this process (children keep the real one): the call raises in the thread
  that made it, and the CLI turns any such call into exit 3.

Both are process-wide, so both are scoped: installed when a command loads user code
(``load_factory``) and taken back by ``release()`` when that command ends (the CLI's
``handle_errors``), so nothing outside a factory-running command sees them.
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
import threading
from typing import Any

_EXIT_CALLS: list[tuple[int, str]] = []
_REAL_EXIT = os._exit
_GUARD_PID: list[int] = []
_RESTORE: list[Any] = []
"""How to undo what was installed, newest last (see ``release``)."""


class UserExitCalled(BaseException):
    """The user's code called ``os._exit``: raised in its place."""

    def __init__(self, code: int) -> None:
        super().__init__(f"os._exit({code}) was called")
        self.code = code


def _guarded_exit(code: int) -> None:
    if not _GUARD_PID or os.getpid() != _GUARD_PID[0]:
        _REAL_EXIT(code)  # a forked child (multiprocessing): its exit is its own
    _EXIT_CALLS.append((code, threading.current_thread().name))
    raise UserExitCalled(code)


def guard_process_exit() -> None:
    """Replace ``os._exit`` for this process (idempotent)."""
    if not _GUARD_PID:
        _GUARD_PID.append(os.getpid())
        os._exit = _guarded_exit  # type: ignore[assignment]
        previous_hook = threading.excepthook

        def quiet_exit(args: Any) -> None:
            # A user thread that called os._exit ends here; the CLI reports the call once.
            if args.exc_type is not UserExitCalled:
                previous_hook(args)

        threading.excepthook = quiet_exit

        def restore() -> None:
            os._exit = _REAL_EXIT
            if threading.excepthook is quiet_exit:
                threading.excepthook = previous_hook
            _GUARD_PID.clear()

        _RESTORE.append(restore)


def exit_calls() -> tuple[tuple[int, str], ...]:
    """The ``os._exit`` calls user code made: (code, thread name)."""
    return tuple(_EXIT_CALLS)


class _MainThreadStdout(io.TextIOBase):
    """stdout for toolscope's main thread; any other thread's writes go to stderr."""

    def __init__(self, real: Any) -> None:
        self._real = real

    def _target(self) -> Any:
        return self._real if threading.current_thread() is threading.main_thread() else sys.stderr

    def write(self, text: str) -> int:  # type: ignore[override]
        return self._target().write(text)

    def flush(self) -> None:
        self._real.flush()

    def fileno(self) -> int:
        return self._real.fileno()

    def isatty(self) -> bool:
        return self._real.isatty()

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return self._real.encoding

    @property
    def buffer(self) -> Any:
        return self._real.buffer

    def writable(self) -> bool:
        return True


def protect_stdout() -> None:
    """Keep fd 1 for toolscope alone (idempotent; only when sys.stdout is the process's fd 1)."""
    if isinstance(sys.stdout, _MainThreadStdout):
        return
    try:
        if sys.stdout.fileno() != 1:
            return
    except (AttributeError, ValueError, OSError, io.UnsupportedOperation):
        return  # a captured stdout (tests, embedding): nothing to protect at the fd level
    sys.stdout.flush()
    private = os.dup(1)
    os.dup2(2, 1)  # whatever writes to fd 1 from now on lands on stderr
    real = open(  # noqa: SIM115 - lives as long as the process
        private, "w", encoding=sys.stdout.encoding or "utf-8", errors="replace", closefd=True, newline=None
    )
    original = sys.stdout
    sys.stdout = guarded = _MainThreadStdout(real)

    def restore() -> None:
        # Back to fd 1 (the real stdout again) so the last flushes see the descriptor the shell
        # gave us. Not while a thread the user's code started is still alive: it may print
        # after the command's answer, and that must still land on stderr (the guard stays for
        # the rest of the process then; the closed-reader check asks sys.stdout's descriptor).
        if any(t is not threading.main_thread() and not t.daemon for t in threading.enumerate()):
            _RESTORE.append(restore)  # a later release() (a long-lived process) tries again
            return
        try:
            guarded.flush()
        finally:
            os.dup2(real.fileno(), 1)
            if sys.stdout is guarded:
                sys.stdout = original
            with contextlib.suppress(OSError):
                real.close()

    _RESTORE.append(restore)


def release() -> None:
    """Undo ``protect_stdout`` and ``guard_process_exit`` (idempotent); the calls recorded stay."""
    pending = _RESTORE[::-1]
    _RESTORE.clear()
    for restore in pending:  # newest first; a restore that must wait puts itself back
        restore()
