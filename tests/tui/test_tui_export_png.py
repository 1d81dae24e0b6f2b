"""The export key writes a PNG beside the SVG, rendered by headless Chromium in a thread."""

from __future__ import annotations

import os
import re
from collections import Counter
from pathlib import Path

import pytest
from tui_helpers import make_app

from toolscope.core.report.png import find_chromium, svg_size


async def test_tui_export_writes_a_png_beside_the_svg(tmp_path: Path) -> None:
    if find_chromium() is None:
        if os.environ.get("CI"):
            pytest.fail("CI must run the PNG export test: no Chromium installed")
        pytest.skip("no Chromium installed (apt-get install chromium)")
    image = pytest.importorskip("PIL.Image", reason="Pillow is in the test extras")
    application = make_app(mode="build", export_dir=str(tmp_path), export_png=True)
    async with application.run_test(size=(100, 30)) as pilot:
        await pilot.press("e")
        await pilot.pause()
        await application.workers.wait_for_complete()
        await pilot.pause()
    svgs = sorted(tmp_path.glob("*.svg"))
    assert len(svgs) == 1
    png = svgs[0].with_suffix(".png")
    assert png.is_file(), sorted(p.name for p in tmp_path.iterdir())
    svg = svgs[0].read_text(encoding="utf-8")
    picture = image.open(png).convert("RGB")
    assert picture.size == svg_size(svg)
    colours = Counter({f"#{r:02x}{g:02x}{b:02x}": n for n, (r, g, b) in picture.getcolors(1 << 22)})
    assert len(colours) > 50
    assert colours.most_common(1)[0][0] == Counter(re.findall(r'fill="(#[0-9a-f]{6})"', svg)).most_common(1)[0][0]
