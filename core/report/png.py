"""PNG pictures of the app's own SVG screenshots, for issue trackers and chat (which do
not take SVG): rendered by a headless Chromium, the same engine that shows the SVG in a
browser, so box drawing, colours and spacing are the SVG's own.

Chromium is run as a program (``--headless --screenshot``), found as ``chromium``,
``chromium-browser``, ``google-chrome`` or ``$TOOLSCOPE_CHROMIUM``. Its fetches are
cut off: the SVG's web-font URLs are removed (it falls back to local fonts), and the
page is a local file in a private temporary folder with a throwaway profile.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

from ..model.errors import InputError

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
_VIEWBOX = re.compile(r'<svg[^>]*\bviewBox="\s*[-\d.]+[\s,]+[-\d.]+[\s,]+([\d.]+)[\s,]+([\d.]+)\s*"')
_REMOTE_FONT = re.compile(r'\s*url\("https?://[^"]*"\)\s*format\("[\w-]*"\)\s*,?')


def find_chromium() -> str | None:
    """The Chromium to run: ``$TOOLSCOPE_CHROMIUM``, else the first browser on PATH."""
    explicit = os.environ.get("TOOLSCOPE_CHROMIUM")
    if explicit:
        return shutil.which(explicit) or (explicit if Path(explicit).is_file() else None)
    for name in BROWSERS:
        found = shutil.which(name)
        if found:
            return found
    return None


def svg_size(svg: str) -> tuple[int, int]:
    """The SVG's width and height in pixels, from its viewBox (rounded up)."""
    match = _VIEWBOX.search(svg)
    if not match:
        raise ValueError("the SVG has no viewBox")
    width, height = (int(-(-float(v) // 1)) for v in match.groups())
    return width, height


def svg_to_png(svg: str, *, what: str = "--format png", timeout: float = 60.0) -> bytes:
    """Render ``svg`` to PNG bytes at its own size. Raises InputError naming ``what``
    when no Chromium is installed or it fails."""
    browser = find_chromium()
    if browser is None:
        raise InputError(
            what,
            "PNG pictures are rendered by a headless Chromium and none is installed "
            "(Debian/Ubuntu: apt-get install chromium; or set TOOLSCOPE_CHROMIUM to a Chrome/Chromium binary)",
        )
    width, height = svg_size(svg)
    with tempfile.TemporaryDirectory(prefix="toolscope-png-") as folder:
        page = Path(folder) / "screen.svg"
        out = Path(folder) / "screen.png"
        page.write_text(_REMOTE_FONT.sub("", svg), encoding="utf-8")
        command = _chromium_command(browser, Path(folder), page, out, (width, height))
        try:
            done = subprocess.run(command, capture_output=True, timeout=timeout, stdin=subprocess.DEVNULL, check=False)
        except subprocess.TimeoutExpired:
            raise InputError(what, f"Chromium did not finish the PNG within {timeout:g}s ({browser})") from None
        except OSError as exc:
            raise InputError(what, f"cannot run {browser}: {exc.strerror or exc}") from None
        data = out.read_bytes() if out.is_file() else b""
        if done.returncode != 0 or not data.startswith(PNG_MAGIC):
            tail = done.stderr.decode("utf-8", "replace").strip().splitlines()[-1:] or ["no output"]
            raise InputError(what, f"Chromium could not render the PNG (exit {done.returncode}): {tail[0]}")
        return data


def _chromium_command(browser: str, folder: Path, page: Path, out: Path, size: tuple[int, int]) -> list[str]:
    """A headless Chromium screenshot of ``page`` into ``out``, with its profile in ``folder``."""
    width, height = size
    command = [
        browser,
        "--headless",
        "--disable-gpu",
        "--hide-scrollbars",
        "--no-first-run",
        "--no-default-browser-check",
        "--disable-extensions",
        "--disable-background-networking",
        "--force-device-scale-factor=1",
        f"--user-data-dir={folder / 'profile'}",
        f"--window-size={width},{height}",
        f"--screenshot={out}",
        page.as_uri(),
    ]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        command.insert(1, "--no-sandbox")  # Chromium refuses to start its sandbox as root
    return command
