"""``report --capture``: the recorded capture's requests and changes in md / html / json, and the
comparison when a config is given (disagreements first)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from toolscope.cli.app import app

REPO = Path(__file__).resolve().parents[2]
CAPTURE = REPO / "tests" / "capture" / "fixtures" / "agentscope_seed.capture.jsonl"
TOOLKIT = REPO / "sample_configs" / "agentscope" / "toolkit.yaml"
runner = CliRunner()


def test_markdown_lists_the_requests_and_what_changed() -> None:
    result = runner.invoke(app, ["report", "--capture", str(CAPTURE)])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "- the tool list changed at 1 request (2)" in out
    assert "| 2 | openai-chat | gpt-test | 4 | 475 | `web_search`, `page_fetch` |" in out
    assert "## Disagreements" not in out


@pytest.mark.agentscope
def test_with_a_config_the_disagreement_comes_first() -> None:
    result = runner.invoke(app, ["report", str(TOOLKIT), "--capture", str(CAPTURE), "--groups", "web_search"])
    out = result.stdout
    assert out.index("## Disagreements") < out.index("## Requests")
    assert "| 1 | `web_search`, `page_fetch` | (none) | (none) |" in out


@pytest.mark.agentscope
def test_json_and_html(tmp_path: Path) -> None:
    data = runner.invoke(app, ["report", str(TOOLKIT), "--capture", str(CAPTURE), "-f", "json"])
    doc = json.loads(data.stdout)
    assert doc["schema"] == "toolscope.capture-report/1" and doc["capture"]["agrees"] in (True, False)
    assert doc["requests"][1]["caused_by"] == [
        {"name": "reset_tools", "arguments": '{"web_search": true, "scraping": true}'}
    ]
    assert doc["requests"][2]["caused_by"] == [{"name": "web_search", "arguments": None}]  # user data: not kept
    page = tmp_path / "capture.html"
    written = runner.invoke(app, ["report", "--capture", str(CAPTURE), "-o", str(page)])
    assert written.exit_code == 0 and page.read_text().startswith("<!DOCTYPE html>")


def test_refusals(tmp_path: Path) -> None:
    svg = runner.invoke(app, ["report", "--capture", str(CAPTURE), "-f", "svg"])
    assert svg.exit_code == 2 and "md, html or json" in svg.output
    over_input = runner.invoke(app, ["report", "--capture", str(CAPTURE), "-o", str(CAPTURE), "--force"])
    assert over_input.exit_code == 2
    assert CAPTURE.read_bytes().count(b"\n") == 4
