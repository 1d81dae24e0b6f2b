"""PNG pictures of the app's SVG screenshots, rendered by headless Chromium: the PNG has
the SVG's size, is not blank, and shows the SVG's own colours."""

from __future__ import annotations

import io
import re
from collections import Counter
from pathlib import Path

import pytest
from browser_helpers import require_chromium
from typer.testing import CliRunner

from toolscope.cli.app import app
from toolscope.core.report.png import svg_size

REPO = Path(__file__).resolve().parents[2]
SEED = str(REPO / "sample_configs" / "seed" / "step_config.json")
TOOLKIT = str(REPO / "sample_configs" / "agentscope" / "toolkit.yaml")
Image = pytest.importorskip("PIL.Image", reason="Pillow is in the test extras")


def assert_faithful_png(png: bytes, svg: str) -> None:
    """Same size as the SVG, many colours (not blank), the SVG's main fills dominant."""
    picture = Image.open(io.BytesIO(png)).convert("RGB")
    assert picture.size == svg_size(svg)
    colours = Counter({f"#{r:02x}{g:02x}{b:02x}": n for n, (r, g, b) in picture.getcolors(1 << 22)})
    assert len(colours) > 50  # text, borders, backgrounds: not a blank or single-colour image
    fills = Counter(re.findall(r'fill="(#[0-9a-f]{6})"', svg))
    background = fills.most_common(1)[0][0]
    assert colours.most_common(1)[0][0] == background  # the terminal's background, as in the SVG
    top = {colour for colour, _ in colours.most_common(12)}
    assert len(top & set(fills)) >= 3  # the SVG's own fills, rendered exactly


def _run(*args: str) -> str:
    result = CliRunner().invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def test_report_format_png_and_inspect_screenshot_png(tmp_path: Path) -> None:
    require_chromium()
    svg_file, png_file = tmp_path / "pipeline.svg", tmp_path / "pipeline.png"
    _run("report", SEED, "-m", "build", "--size", "100x30", "-o", str(svg_file))
    out = _run("report", SEED, "-m", "build", "--size", "100x30", "-o", str(png_file))
    assert out.startswith(f"wrote {png_file} (PNG report, {png_file.stat().st_size:,} bytes")
    assert_faithful_png(png_file.read_bytes(), svg_file.read_text(encoding="utf-8"))
    # --format png wins over the suffix; inspect takes the suffix.
    shot_svg, shot_png = tmp_path / "shot.svg", tmp_path / "shot.png"
    _run("inspect", TOOLKIT, "--screenshot", str(shot_svg), "--size", "80x24")
    _run("inspect", TOOLKIT, "--screenshot", str(shot_png), "--size", "80x24")
    assert_faithful_png(shot_png.read_bytes(), shot_svg.read_text(encoding="utf-8"))


def test_png_without_chromium_is_a_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TOOLSCOPE_CHROMIUM", str(tmp_path / "no-such-browser"))
    target = tmp_path / "r.png"
    result = CliRunner().invoke(app, ["report", SEED, "-o", str(target)])
    assert result.exit_code == 2
    assert "--format png" in result.output and "apt-get install chromium" in result.output
    assert "Traceback" not in result.output and not target.exists()
