"""Writing a report: to stdout, or atomically to a file that is not one of the inputs.

A file is written to a temporary file in the same folder and renamed over the target
(``os.replace``), so a reader never sees half a report and a failure leaves the old
file intact. An existing file is only replaced when asked (``force``), and never when
it is one of toolscope's own input files.
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Iterable
from pathlib import Path

from toolscope.core.errors import InputError

STDOUT = "-"


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve() or (a.exists() and b.exists() and os.path.samefile(a, b))
    except OSError:
        return False


def check_output(output: str, *, force: bool, inputs: Iterable[Path] = (), what: str = "the report") -> Path | None:
    """Validate the ``-o`` target; returns its path, or None for stdout. Raises InputError.

    Refused: any input file (even with ``force``), a missing folder, a folder as target,
    and an existing file unless ``force``. ``what`` names the output in messages.
    """
    if output == STDOUT:
        return None
    target = Path(output)
    for source in inputs:
        if _same_file(target, source):
            raise InputError(output, f"is an input file ({source}); refusing to overwrite an input file with {what}")
    parent = target.parent
    if not parent.exists():
        raise InputError(output, f"the output folder {str(parent)!r} does not exist")
    if not parent.is_dir():
        raise InputError(output, f"{str(parent)!r} is not a folder")
    if target.is_dir():
        raise InputError(output, "is a folder; give a file name")
    if target.exists() and not force:
        raise InputError(output, "already exists; use --force to replace it")
    return target


def _new_file_mode(target: Path) -> int:
    # Keep an existing file's permissions; otherwise what open() would give (0666 - umask).
    if target.exists():
        return target.stat().st_mode & 0o7777
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def write_report(data: str | bytes, output: str, *, force: bool, inputs: Iterable[Path] = ()) -> Path | None:
    """Write the report to ``output`` (``-`` is stdout), atomically; returns the path written."""
    target = check_output(output, force=force, inputs=list(inputs))
    payload = data.encode("utf-8") if isinstance(data, str) else data
    if target is None:
        sys.stdout.flush()
        if hasattr(sys.stdout, "buffer"):
            sys.stdout.buffer.write(payload)  # bytes as rendered: no newline translation
            sys.stdout.buffer.flush()
        else:
            sys.stdout.write(payload.decode("utf-8"))
            sys.stdout.flush()
        return None
    mode = _new_file_mode(target)
    try:
        fd, temp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    except OSError as exc:
        raise InputError(output, f"cannot write in {str(target.parent)!r}: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(payload)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temp_name, mode)
        os.replace(temp_name, target)
    except OSError as exc:
        Path(temp_name).unlink(missing_ok=True)
        raise InputError(output, f"cannot write the report: {exc.strerror or exc}") from None
    except BaseException:
        Path(temp_name).unlink(missing_ok=True)
        raise
    return target
