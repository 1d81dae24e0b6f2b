"""The line a command prints after writing a file: ``wrote FILE (Markdown report, 1,234 bytes)``."""

from __future__ import annotations

from pathlib import Path

import typer

FORMAT_NAMES = {"md": "Markdown", "html": "HTML", "json": "JSON", "svg": "SVG", "png": "PNG"}


def say_written(path: Path | None, kind: str, payload: str | bytes, modes: str = "") -> None:
    """Name the file written (never when the report itself went to stdout: ``path`` None)."""
    # Like inspect --screenshot and discover -o.
    if path is None:
        return
    from ...core.text.safe_text import inert

    size = len(payload.encode("utf-8") if isinstance(payload, str) else payload)
    extra = f"; {modes}" if modes else ""
    typer.echo(inert(f"wrote {path} ({FORMAT_NAMES.get(kind, kind)} report, {size:,} bytes{extra})", single_line=True))
