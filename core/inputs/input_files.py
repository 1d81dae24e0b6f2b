"""Reading input files: regular files only, at most ``MAX_INPUT_BYTES``, UTF-8 text.

Every file read is remembered (``files_read``) so that no output ever overwrites an input.
Every failure is an ``InputError`` naming the file; input files are only ever read.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from ..model.errors import InputError, Problem

try:  # CPython's own SHA-256: importing hashlib loads OpenSSL (~2 ms of every run) for one digest
    from _sha256 import sha256 as _sha256
except ImportError:  # other Pythons (3.12+: _sha2)
    from hashlib import sha256 as _sha256

MAX_INPUT_BYTES = 128 * 1024 * 1024
"""The largest input file toolscope reads (128 MiB): more is refused, never read into memory."""

_FILES_READ: dict[Path, None] = {}


def files_read() -> tuple[Path, ...]:
    """Every file this process has read as an input (or imported as user code), in order.

    The output writer refuses all of them: an input is never overwritten by an output.
    """
    return tuple(_FILES_READ)


def record_input(path: Path) -> None:
    """Remember ``path`` as an input of this command (see ``files_read``)."""
    try:
        _FILES_READ.setdefault(Path(path).resolve(), None)
    except (OSError, RuntimeError):
        _FILES_READ.setdefault(Path(path).absolute(), None)


_NOT_REGULAR = (
    (stat.S_ISDIR, "is a directory"),
    (stat.S_ISFIFO, "is a named pipe (FIFO)"),
    (stat.S_ISCHR, "is a character device"),
    (stat.S_ISBLK, "is a block device"),
    (stat.S_ISSOCK, "is a socket"),
)


def missing_path_problems(path: Path | str, *, want_dir: bool | None = False, prefix: str = "") -> list[Problem]:
    """A "did you mean" for a path that does not exist, when an existing one is close
    (``prefix``: how the argument spells it, e.g. ``claude-code:``)."""
    from .path_hint import nearest_path

    near = nearest_path(path, want_dir=want_dir)
    return [Problem("", f"did you mean {prefix}{near}?")] if near else []


def read_bytes(path: Path, what: str = "file") -> bytes:
    """Read a regular file of at most ``MAX_INPUT_BYTES``; anything else is an InputError.

    Pipes, devices (``/dev/zero``, ``/dev/urandom``) and sockets are refused before they
    are opened for reading, so nothing waits forever or reads without end.
    """
    shown = str(path)
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise InputError(shown, f"no such {what}", missing_path_problems(path)) from None
    except OSError as exc:
        raise InputError(shown, f"cannot read it: {exc.strerror or exc}") from None
    for test, description in _NOT_REGULAR:
        if test(info.st_mode):
            raise InputError(shown, f"{description}, expected a {what} (a regular file)")
    limit = MAX_INPUT_BYTES
    if info.st_size > limit:
        raise InputError(shown, f"is {info.st_size:,} bytes; toolscope reads input files of at most {_mib(limit)}")
    record_input(path)
    try:
        # O_NONBLOCK: should the file have been swapped for a pipe since the check, the
        # open does not wait for a writer.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
        with os.fdopen(fd, "rb") as handle:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                raise InputError(shown, f"is not a regular file, expected a {what}")
            raw = handle.read(limit + 1)
    except OSError as exc:
        raise InputError(shown, f"cannot read it: {exc.strerror or exc}") from None
    if len(raw) > limit:
        raise InputError(shown, f"is larger than toolscope's input limit of {_mib(limit)}")
    return raw


def _mib(size: int) -> str:
    return f"{size // (1024 * 1024)} MiB"


def read_text(path: Path, what: str = "file") -> tuple[str, str]:
    """Read a UTF-8 text file; return (text, sha256). Raises InputError for anything wrong."""
    shown = str(path)
    raw = read_bytes(path, what)
    if not raw.strip():
        raise InputError(shown, f"is empty, expected a {what}")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(shown, f"is not UTF-8 text (byte {exc.start})") from None
    return text, _sha256(raw).hexdigest()
