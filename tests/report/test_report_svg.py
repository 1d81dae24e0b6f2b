"""``report --format svg``: the TUI's pipeline view, headless, as a well-formed SVG."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from typer.testing import CliRunner

from toolscope.cli.app import app

SVG_NS = "{http://www.w3.org/2000/svg}"


def _svg_text(path: Path) -> tuple[ET.Element, str]:
    root = ET.parse(path).getroot()
    # Rich writes spaces as no-break spaces; compare on normal ones.
    return root, "".join(root.itertext()).replace("\xa0", " ")


def test_svg_report_parses_and_names_the_tools(tmp_path: Path, in_repo: Path) -> None:
    """The file is XML whose root is <svg>, showing the sample's tool names in the given mode."""
    out = tmp_path / "seed.svg"
    result = CliRunner().invoke(
        app, ["report", "sample_configs/seed/step_config.json", "-m", "run", "-o", str(out), "--size", "140x40"]
    )
    assert result.exit_code == 0, result.output
    root, text = _svg_text(out)
    assert root.tag == f"{SVG_NS}svg"
    for name in ("notify_user", "create_issue", "get_issue"):
        assert name in text, name
    assert root.findall(f".//{SVG_NS}script") == []
    assert "run" in text


def test_svg_report_of_a_toolkit(tmp_path: Path, in_repo: Path) -> None:
    """Toolkits render too (format chosen by --format, written to stdout with -o -)."""
    result = CliRunner().invoke(app, ["report", "sample_configs/agentscope/toolkit.yaml", "-f", "svg", "-o", "-"])
    assert result.exit_code == 0, result.output
    out = tmp_path / "toolkit.svg"
    out.write_bytes(result.stdout_bytes)
    root, text = _svg_text(out)
    assert root.tag == f"{SVG_NS}svg"
    for name in ("web_search", "page_fetch", "note_write"):
        assert name in text, name


def test_svg_rejects_what_a_screenshot_cannot_show(in_repo: Path) -> None:
    """--tool/--script and several modes need md/html/json: exit 2 with the reason."""
    for args in (["-t", "notify_user"], ["-m", "build", "-m", "run"]):
        result = CliRunner().invoke(app, ["report", "sample_configs/seed/step_config.json", "-f", "svg", *args])
        assert result.exit_code == 2
        assert "svg" in result.stderr
