"""Every file toolscope writes goes through here: reports, snapshots, screenshots, exports.

The rules, the same for every command:

* an input file (anything the command read, see ``input_files.files_read``, plus the paths a
  command names explicitly) is never written, not even with ``--force``, not through a
  symlink and not through a hard link;
* an existing file is replaced only with ``--force``; ``--force`` on a symlink replaces the
  link itself, never the file it points to;
* a character device or a pipe (``/dev/null``, ``/dev/stdout``, ``>(cmd)``) is written
  *into*, never replaced; block devices, sockets and folders are refused;
* a regular file is written atomically: a hidden temporary file in the same folder, then a
  rename, so a reader never sees half a file; the temporary file is removed on any error and
  on SIGINT, SIGTERM and SIGHUP (``signals.terminating`` turns those into exceptions).
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import stat
import sys
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from ..inputs.input_files import files_read
from ..model.errors import InputError
from .stdout import write_stdout

STDOUT = "-"

TargetKind = Literal["new", "file", "link", "stream", "descriptor"]

# Names of this process's own open files: written to that descriptor, never renamed over
# (``-o /dev/stdout --force`` must not replace the /dev/stdout link, even as root).
_DESCRIPTOR = re.compile(r"^/(?:dev/fd|proc/self/fd|proc/thread-self/fd)/(\d+)$")
_STANDARD = {"/dev/stdout": 1, "/dev/stderr": 2}


@dataclass(frozen=True)
class OutputTarget:
    """A checked output path and how it will be written."""

    path: Path
    kind: TargetKind
    """``new``: nothing there; ``file``: a regular file to replace; ``link``: a symlink to
    replace (not its target); ``stream``: a character device or pipe to write into;
    ``descriptor``: one of this process's open files (``/dev/stdout``, ``/dev/fd/3``)."""

    descriptor: int | None = None


def _descriptor(output: str) -> int | None:
    """N when ``output`` names this process's descriptor N, directly or by a symlink."""
    normalized = os.path.normpath(output)
    if normalized in _STANDARD:
        return _STANDARD[normalized]
    match = _DESCRIPTOR.match(normalized)
    if match is None and os.path.islink(normalized):
        with contextlib.suppress(OSError):
            match = _DESCRIPTOR.match(os.path.normpath(os.readlink(normalized)))
    return int(match.group(1)) if match else None


def _is_input(target: Path, inputs: Iterable[Path]) -> Path | None:
    """The input that ``target`` is (by name, through links, or by inode), if any."""
    try:
        resolved = target.resolve()
    except (OSError, RuntimeError):
        return None
    for source in inputs:
        try:
            if resolved == Path(source).resolve():
                return Path(source)
            if target.exists() and Path(source).exists() and os.path.samefile(target, source):
                return Path(source)
        except (OSError, RuntimeError):
            continue
    return None


def _special_kind(mode: int) -> str | None:
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISDIR(mode):
        return "a folder"
    return None


def check_output(
    output: str, *, force: bool, inputs: Iterable[Path] = (), what: str = "the report"
) -> OutputTarget | None:
    """Check where ``output`` would be written; None means stdout (``-``). Raises InputError.

    ``inputs`` are protected on top of every file the command has read so far.
    """
    if output == STDOUT:
        return None
    target = Path(output)
    descriptor = _descriptor(output)
    if descriptor is not None:
        return OutputTarget(target, "descriptor", descriptor)
    protected = [*inputs, *files_read()]
    source = _is_input(target, protected)
    if source is not None:
        raise InputError(output, f"is an input file ({source}); refusing to overwrite an input file with {what}")
    try:
        link_stat = os.lstat(target)
    except FileNotFoundError:
        link_stat = None
    except OSError as exc:
        raise InputError(output, f"cannot use it as the output: {exc.strerror or exc}") from None
    if link_stat is None:
        parent = target.parent
        if not parent.exists():
            raise InputError(output, f"the output folder {str(parent)!r} does not exist")
        if not parent.is_dir():
            raise InputError(output, f"{str(parent)!r} is not a folder")
        return OutputTarget(target, "new")
    is_link = stat.S_ISLNK(link_stat.st_mode)
    try:
        target_stat = os.stat(target) if is_link else link_stat
    except OSError:
        target_stat = None  # a dangling link
    if target_stat is not None:
        if stat.S_ISCHR(target_stat.st_mode) or stat.S_ISFIFO(target_stat.st_mode):
            return OutputTarget(target, "stream")
        refused = _special_kind(target_stat.st_mode)
        if refused == "a folder":
            raise InputError(output, "is a folder; give a file name")
        if refused is not None:
            raise InputError(output, f"is {refused}; {what} is written to a file, a character device or a pipe")
    if not force:
        raise InputError(output, "already exists; use --force to replace it")
    return OutputTarget(target, "link" if is_link else "file")


def _umask_mode() -> int:
    """The mode open() gives a new file: 0666 minus the process umask."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def _new_file_mode(target: OutputTarget) -> int:
    # Keep a replaced regular file's permissions; otherwise what open() would give (0666 - umask).
    if target.kind == "file":
        with contextlib.suppress(OSError):
            return os.lstat(target.path).st_mode & 0o7777
    return _umask_mode()


def _write_stream(target: OutputTarget, payload: bytes, shown: str) -> None:
    # O_NONBLOCK only for the open: a pipe nobody reads fails at once (ENXIO) instead of
    # waiting forever; the writes themselves block as usual.
    flags = os.O_WRONLY | os.O_NOCTTY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(target.path, flags)
    except OSError as exc:
        if exc.errno == errno.ENXIO:
            raise InputError(shown, "is a pipe that nobody is reading") from None
        raise InputError(shown, f"cannot write to it: {exc.strerror or exc}") from None
    try:
        os.set_blocking(fd, True)
        _write_all(fd, payload)
    except OSError as exc:
        raise InputError(shown, f"cannot write to it: {exc.strerror or exc}") from None
    finally:
        os.close(fd)


def _write_all(fd: int, payload: bytes) -> None:
    view = memoryview(payload)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def _write_descriptor(descriptor: int, payload: bytes, shown: str) -> None:
    if descriptor in (1, 2):
        (sys.stdout if descriptor == 1 else sys.stderr).flush()
    try:
        _write_all(descriptor, payload)
    except OSError as exc:
        if descriptor == 1 and exc.errno == errno.EPIPE:
            raise  # stdout's reader went away (`-o /dev/stdout | head`): the CLI stops quietly
        raise InputError(shown, f"cannot write to it: {exc.strerror or exc}") from None


def _write_atomic(target: OutputTarget, payload: bytes, shown: str) -> None:
    mode = _new_file_mode(target)
    folder = target.path.parent
    try:
        fd, temp_name = tempfile.mkstemp(prefix=f".{target.path.name}.", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise InputError(shown, f"cannot write in {str(folder)!r}: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(payload)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temp_name, mode)
        if target.kind == "new":
            _publish_exclusively(temp_name, target.path, shown)
        else:
            # rename() replaces the directory entry: for a symlink, the link itself.
            os.replace(temp_name, target.path)
    except InputError:
        Path(temp_name).unlink(missing_ok=True)
        raise
    except OSError as exc:
        Path(temp_name).unlink(missing_ok=True)
        raise InputError(shown, f"cannot write it: {exc.strerror or exc}") from None
    except BaseException:
        Path(temp_name).unlink(missing_ok=True)
        raise


def _publish_exclusively(temporary: str, path: Path, shown: str) -> None:
    """Give the finished temporary file its name only if the name is still free.

    Without --force a new output must stay new: two ``report -o same.md`` at once both saw no
    file, and the second rename silently replaced the first's. ``os.link`` fails when the name
    was taken meanwhile; the temporary name is removed by the caller.
    """
    try:
        os.link(temporary, path, follow_symlinks=False)
    except FileExistsError:
        raise InputError(
            shown, "already exists (it appeared while this was written); use --force to replace it"
        ) from None
    except OSError:
        # No hard links on this file system: check, then rename (a small race remains).
        if os.path.lexists(path):
            raise InputError(shown, "already exists; use --force to replace it") from None
        os.replace(temporary, path)
        return
    os.unlink(temporary)


def write_output(
    data: str | bytes, output: str, *, force: bool, inputs: Iterable[Path] = (), what: str = "the report"
) -> Path | None:
    """Write ``data`` to ``output`` (``-`` is stdout) by the rules above; returns the path written."""
    target = check_output(output, force=force, inputs=list(inputs), what=what)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    if target is None:
        write_stdout(payload)
        return None
    if target.kind == "descriptor":
        assert target.descriptor is not None
        _write_descriptor(target.descriptor, payload, output)
    elif target.kind == "stream":
        _write_stream(target, payload, output)
    else:
        _write_atomic(target, payload, output)
    return target.path


def write_new(path: Path, text: str) -> None:
    """Write ``path`` atomically and only if nothing is there (FileExistsError otherwise).

    The text goes to a temporary file in the same folder first; ``os.link`` then publishes
    it and fails if the name was taken meanwhile (a dangling symlink counts as taken).
    """
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        # mkstemp makes 0600 files: give the new file what open() would (0666 minus the umask).
        os.fchmod(handle, _umask_mode())
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
        try:
            os.link(temporary, path, follow_symlinks=False)
        except FileExistsError:
            raise
        except OSError:
            # No hard links on this file system: check, then rename (a small race remains).
            if os.path.lexists(path):
                raise FileExistsError(path) from None
            os.replace(temporary, path)
    finally:
        if os.path.exists(temporary):
            os.unlink(temporary)


def open_record_file(path: Path) -> int:
    """A descriptor on ``path`` as a new (or emptied) regular file, for output written over time (a capture).

    A pipe, a device or a folder is refused with an InputError, both before the open and by
    ``fstat`` on what was opened (so a swap in between cannot slip through); the open never waits
    for a pipe's reader (``O_NONBLOCK``). Such a file is read back later: it must be a file.
    """
    from ..inputs.input_files import checked_path, path_error

    shown = str(path)
    info = checked_path(path, "output file")
    if info is not None and not stat.S_ISREG(info.st_mode):
        raise InputError(shown, _not_a_file(info.st_mode))
    flags = os.O_WRONLY | os.O_CREAT | os.O_NONBLOCK | os.O_NOCTTY | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags, 0o644)
    except OSError as exc:
        raise path_error(path, exc, "output file") from None
    opened = os.fstat(fd)
    if not stat.S_ISREG(opened.st_mode):
        os.close(fd)
        raise InputError(shown, _not_a_file(opened.st_mode))
    os.set_blocking(fd, True)
    os.ftruncate(fd, 0)  # only now: truncating never touches what was not checked
    return fd


def _not_a_file(mode: int) -> str:
    kind = _special_kind(mode) or ("a named pipe (FIFO)" if stat.S_ISFIFO(mode) else "a character device")
    return f"is {kind}; this output is written to a regular file (toolscope reads it back)"
