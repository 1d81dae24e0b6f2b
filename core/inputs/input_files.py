"""Reading input files: regular files only, at most ``MAX_INPUT_BYTES``, UTF-8 text.

Every file read is remembered (``files_read``) so that no output ever overwrites an input.
Every failure is an ``InputError`` naming the file; input files are only ever read.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from ..model.errors import InputError, Problem
from ..text.clip import clip

try:  # CPython's own SHA-256: importing hashlib loads OpenSSL (~2 ms of every run) for one digest
    from _sha256 import sha256 as _sha256
except ImportError:  # other Pythons (3.12+: _sha2)
    from hashlib import sha256 as _sha256

MAX_INPUT_BYTES = 128 * 1024 * 1024
"""The largest input file toolscope reads (128 MiB): more is refused, never read into memory."""

SHOWN_PATH_CHARS = 300
"""The most characters of a path an error message shows (a 5,000-character path is clipped)."""
_PATH_MAX = os.pathconf("/", "PC_PATH_MAX") if hasattr(os, "pathconf") else 4096
_NAME_MAX = os.pathconf("/", "PC_NAME_MAX") if hasattr(os, "pathconf") else 255

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


class ReadBudget:
    """A memory budget for many files read together (every Go file of a checkout): per file
    ``read_bytes``'s own limit still applies, and all of them together take at most ``total``."""

    def __init__(self, total: int, what: str) -> None:
        self.left = total
        self.total = total
        self.what = what

    def take(self, size: int, shown: str) -> None:
        """Charge ``size`` bytes; an InputError when that would pass the budget (nothing charged)."""
        if size > self.left:
            raise InputError(
                shown, f"not read: {self.what} together may take at most {_mib(self.total)}, and that is used up"
            )
        self.left -= size


def path_error(path: Path | str, exc: OSError, what: str = "file") -> InputError:
    """An OSError about ``path`` as the InputError a user can act on (a path too long, a link loop, …)."""
    shown = clip(str(path), SHOWN_PATH_CHARS)
    if exc.errno == errno.ENAMETOOLONG:
        return InputError(
            shown,
            f"the path is too long ({len(str(path)):,} characters); this system allows at most "
            f"{_PATH_MAX:,} characters, {_NAME_MAX} per name",
        )
    if exc.errno == errno.ELOOP:
        return InputError(shown, f"is a symbolic link loop, expected a {what}")
    return InputError(shown, f"cannot read it: {exc.strerror or exc}")


def user_path_error(exc: BaseException) -> InputError | None:
    """The InputError for an OSError that only a path the user gave can cause (longer than the
    system allows), wherever it was raised; None for anything else (a toolscope bug stays one)."""
    if isinstance(exc, OSError) and exc.errno == errno.ENAMETOOLONG:
        return path_error(exc.filename if exc.filename is not None else "a path", exc)
    return None


def checked_path(path: Path | str, what: str = "path") -> os.stat_result | None:
    """``os.stat(path)``, None when nothing is there; any other OSError (a path too long, a
    link loop, no permission) is an InputError. The one way toolscope looks at a path it was given."""
    try:
        return os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as exc:
        raise path_error(path, exc, what) from None
    except ValueError:  # an embedded NUL byte
        raise InputError(clip(repr(str(path)), SHOWN_PATH_CHARS), f"is not a usable {what} (a NUL byte)") from None


def read_bytes(path: Path, what: str = "file", limit: int = MAX_INPUT_BYTES, budget: ReadBudget | None = None) -> bytes:
    """Read a regular file of at most ``limit`` bytes (and within ``budget``); anything else is an InputError.

    Opened by ``open_checked``: pipes, devices (``/dev/zero``, ``/dev/urandom``) and sockets are
    refused before the open and again on what was opened; the read stops at ``limit``.
    """
    with open_checked(path, what, limit) as (handle, size):
        if budget is not None:
            budget.take(size, clip(str(path), SHOWN_PATH_CHARS))
        try:
            raw = handle.read(limit + 1)
        except OSError as exc:
            raise path_error(path, exc, what) from None
    if len(raw) > limit:
        raise InputError(
            clip(str(path), SHOWN_PATH_CHARS), f"is larger than toolscope's limit of {_mib(limit)} for a {what}"
        )
    return raw


@contextlib.contextmanager
def open_checked(path: Path, what: str = "file", limit: int | None = MAX_INPUT_BYTES) -> Iterator[tuple[BinaryIO, int]]:
    """The one way toolscope opens a file it was pointed at: (handle, size) of a regular file of at most
    ``limit`` bytes (None: any size, for streaming), recorded as an input; anything else is an InputError.

    The path is checked before the open (so a device is never opened), the open never waits
    (``O_NONBLOCK``: a pipe has no writer to wait for) and ``fstat`` checks what was opened, so
    a file swapped for a pipe or a device in between is refused too.
    """
    shown = clip(str(path), SHOWN_PATH_CHARS)
    info = checked_path(path, what)
    if info is None:
        raise InputError(shown, f"no such {what}", missing_path_problems(path))
    _refuse_special(info, shown, what, limit)
    record_input(path)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOCTTY", 0))
    except OSError as exc:
        raise path_error(path, exc, what) from None
    with os.fdopen(fd, "rb") as handle:
        opened = os.fstat(fd)
        _refuse_special(opened, shown, what, limit)
        yield handle, opened.st_size


def _refuse_special(info: os.stat_result, shown: str, what: str, limit: int | None) -> None:
    """InputError unless ``info`` is a regular file of at most ``limit`` bytes (None: any size)."""
    for test, description in _NOT_REGULAR:
        if test(info.st_mode):
            raise InputError(shown, f"{description}, expected a {what} (a regular file)")
    if not stat.S_ISREG(info.st_mode):
        raise InputError(shown, f"is not a regular file, expected a {what}")
    if limit is not None and info.st_size > limit:
        raise InputError(shown, f"is {info.st_size:,} bytes; toolscope reads at most {_mib(limit)} of a {what}")


def file_sha256(path: Path, what: str = "file") -> str:
    """The sha256 of a file opened the checked way (``open_checked``), read in 1 MiB pieces: any size."""
    digest = _sha256()
    with open_checked(path, what, None) as (handle, _size):
        try:
            while piece := handle.read(1024 * 1024):
                digest.update(piece)
        except OSError as exc:
            raise path_error(path, exc, what) from None
    return digest.hexdigest()


def read_head(path: Path, size: int, what: str = "file") -> bytes:
    """The first ``size`` bytes of a file opened the checked way (``open_checked``), of any size."""
    with open_checked(path, what, None) as (handle, _size):
        try:
            return handle.read(size)
        except OSError as exc:
            raise path_error(path, exc, what) from None


def _mib(size: int) -> str:
    return f"{size / (1024 * 1024):.0f} MiB" if size >= 1024 * 1024 else f"{size:,} bytes"


def read_text(path: Path, what: str = "file") -> tuple[str, str]:
    """Read a UTF-8 text file; return (text, sha256). Raises InputError for anything wrong."""
    shown = clip(str(path), SHOWN_PATH_CHARS)
    raw = read_bytes(path, what)
    if not raw.strip():
        raise InputError(shown, f"is empty, expected a {what}")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(shown, f"is not UTF-8 text (byte {exc.start})") from None
    return text, _sha256(raw).hexdigest()
