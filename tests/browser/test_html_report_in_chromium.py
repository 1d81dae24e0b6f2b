"""The HTML report in a real browser engine: the realistic sample fits a 1280 px window,
reads on a 390 px phone (tables scroll in their own box, no word broken in a stage cell
or inside a name), and prints on A4 without cut columns."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from toolscope.cli.app import app

REPO = Path(__file__).resolve().parents[2]
REALISTIC = str(REPO / "sample_configs" / "realistic" / "step_config.json")
TOOLKIT = str(REPO / "sample_configs" / "agentscope" / "toolkit.yaml")
A4_CONTENT_PX = 703  # 210 mm minus the stylesheet's 2 x 12 mm page margins, at 96 px per inch

# Layout facts of the page as the engine laid it out.
MEASURE = r"""() => {
  const boxes = [...document.querySelectorAll('.scroll')];
  const bodyWidth = document.body.clientWidth;
  const lines = el => {
    const range = document.createRange(); range.selectNodeContents(el);
    return new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top))).size;
  };
  // A name may wrap only at spaces and its <wbr> opportunities: no word of a piece is split.
  const pieces = [...document.querySelectorAll('table.tools td:nth-child(-n+2)')].flatMap(td =>
    [...td.querySelectorAll('strong, td')].concat([td]).flatMap(el => [...el.childNodes])
      .filter(n => n.nodeType === 3 && n.textContent.trim()));
  const splitNames = [];
  for (const n of pieces) {
    for (const word of n.textContent.matchAll(/\S+/g)) {
      const range = document.createRange();
      range.setStart(n, word.index); range.setEnd(n, word.index + word[0].length);
      if (new Set([...range.getClientRects()].map(r => Math.round(r.top))).size > 1) splitNames.push(word[0]);
    }
  }
  return {
    pageWidth: document.documentElement.scrollWidth,
    overflowingBoxes: boxes.filter(b => b.scrollWidth > b.clientWidth + 1).length,
    widerThanBody: boxes.filter(b => b.querySelector('table').offsetWidth > bodyWidth + 1).length,
    tables: boxes.length,
    marks: document.querySelectorAll('td .mark').length,
    brokenMarks: [...document.querySelectorAll('td .mark')].filter(m => lines(m) > 1).length,
    splitNames,
  };
}"""


@pytest.fixture(scope="module")
def realistic_html(tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp("html") / "realistic.html"
    args = ["report", REALISTIC, "--step", "research", "-m", "workshop", "-m", "run", "-t", "tavily_search"]
    result = CliRunner().invoke(app, [*args, "-o", str(target)])
    assert result.exit_code == 0, result.output
    return target


def _measure(browser: Any, page_file: Path, width: int, *, print_media: bool = False) -> dict[str, Any]:
    page = browser.new_page(viewport={"width": width, "height": 900})
    try:
        if print_media:
            page.emulate_media(media="print")
        page.goto(page_file.as_uri())
        return page.evaluate(MEASURE)
    finally:
        page.close()


def test_fits_a_1280_px_window(browser: Any, realistic_html: Path) -> None:
    facts = _measure(browser, realistic_html, 1280)
    assert facts["tables"] >= 5 and facts["marks"] > 1000
    assert facts["pageWidth"] <= 1280
    assert facts["overflowingBoxes"] == 0, facts  # no table needs sideways scrolling
    assert facts["brokenMarks"] == 0 and facts["splitNames"] == []


def test_reads_on_a_390_px_phone(browser: Any, realistic_html: Path) -> None:
    facts = _measure(browser, realistic_html, 390)
    assert facts["pageWidth"] <= 390  # the page never scrolls sideways; wide tables do, in their box
    assert facts["brokenMarks"] == 0, facts  # "pass"/"FAIL"/verdicts whole
    assert facts["splitNames"] == [], facts  # names wrap at _ . / : - only


def test_prints_on_a4_without_cut_columns(browser: Any, realistic_html: Path) -> None:
    facts = _measure(browser, realistic_html, A4_CONTENT_PX, print_media=True)
    assert facts["pageWidth"] <= A4_CONTENT_PX
    assert facts["widerThanBody"] == 0, facts  # every table within the page's width
    assert facts["brokenMarks"] == 0 and facts["splitNames"] == [], facts
    page = browser.new_page()
    try:
        page.goto(realistic_html.as_uri())
        pdf = page.pdf(format="A4", prefer_css_page_size=True)
    finally:
        page.close()
    assert pdf.startswith(b"%PDF") and pdf.count(b"/Type /Page") > 3


def test_toolkit_report_in_a_phone_window(browser: Any, tmp_path: Path) -> None:
    target = tmp_path / "toolkit.html"
    script = str(REPO / "sample_configs" / "agentscope" / "typo.json")
    result = CliRunner().invoke(app, ["report", TOOLKIT, "--script", script, "-t", "web_search", "-o", str(target)])
    assert result.exit_code == 0, result.output
    facts = _measure(browser, target, 390)
    assert facts["pageWidth"] <= 390 and facts["brokenMarks"] == 0 and facts["splitNames"] == []
