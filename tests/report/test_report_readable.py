"""Reports read as people read them: stage titles in "decided by", commands that run when
copied, no character references or literal \\n, no needless backslashes, toolkit
provenance and summary in the user's words."""

from __future__ import annotations

import re
from pathlib import Path

from hand_subject import HandSubject, make_tool
from typer.testing import CliRunner

from toolscope.cli.app import app
from toolscope.core.model.verdicts import LoadedInput
from toolscope.core.report.build import build_report
from toolscope.core.report.html import render_html
from toolscope.core.report.markdown import render_markdown

REPO = Path(__file__).resolve().parents[2]
SEED = str(REPO / "sample_configs" / "seed" / "step_config.json")
TOOLKIT = str(REPO / "sample_configs" / "agentscope" / "toolkit.yaml")


def _report_text(*args: str) -> str:
    result = CliRunner().invoke(app, ["report", *args])
    assert result.exit_code == 0, result.output
    return result.stdout


def test_seed_markdown_reads_as_text() -> None:
    text = _report_text(SEED, "-m", "build", "-t", "notify_user")
    assert "&#x" not in text and "\\n" not in text
    assert "step_config.json · step step-id-1" in text.replace("\\_", "_")
    assert "| toolscope | 0.1.0 |" in text  # a version, not 0\.1.0
    # "decided by" names stages by their titles, as the headers do.
    assert "| allow-listed: not in the system slice" in text
    assert "| allow\\_listed:" not in text and "allow_listed:" not in text
    # The suggested check runs as copied: a code span, no backslashes inside.
    command = re.search(r"`(toolscope check [^`]+)`", text)
    assert command and "\\" not in command.group(1)
    assert command.group(1).endswith("--mode build --expect visible:notify_user")


def test_toolkit_report_provenance_and_summary() -> None:
    text = _report_text(TOOLKIT, "-t", "web_search")
    provenance = text.split("## Provenance", 1)[1].split("\n## ", 1)[0]
    keys = re.findall(r"^\| ([^|]+?) \|", provenance, re.M)
    facts = keys[: keys.index("file")]
    assert len(facts) == len(set(facts)), facts  # each row once
    assert "step" not in facts and "registry" not in facts  # rows that do not apply to a toolkit
    assert "| input | toolkit spec |" in provenance
    summary = text.split("## Provenance", 1)[0]
    assert "Tool web\\_search in mode default: hidden (group 'web\\_search' not active)" in summary
    assert "(visible)" not in summary
    # The call that fixes it is a code span that runs as JSON when copied.
    assert '`{"web_search": true}`' in text


def test_multi_line_descriptions_read_on_one_line() -> None:
    loaded = LoadedInput(kind="step_config", label="x.json", files=(), step=None, registry=None, mode="build")
    tool = make_tool("fetch", "web", "allow_listed", rule="not listed", description="Fetch a page.\nReturns HTML.")
    subject = HandSubject(loaded, {"build": [tool]})
    report = build_report(subject, ["build"], ["fetch"])
    text = render_markdown(report)
    assert "Description: Fetch a page. Returns HTML." in text and "\\n" not in text
    page = render_html(report)
    assert "Fetch a page. Returns HTML." in page
    assert '<span class="fail mark">FAIL</span>' in page  # stage cells never wrap


def test_code_spans_copy_verbatim() -> None:
    from toolscope.core.report.markdown import code, prose

    # Outside a table a command is copied exactly; in a cell GFM undoes the "\|".
    assert prose("toolscope check 'a|b' --mode x") == "`toolscope check 'a|b' --mode x`"
    assert prose('call reset_tools with {"a|b": true}', cell=True) == 'call reset\\_tools with `{"a\\|b": true}`'
    assert code("a`b") == "``a`b``" and code("`x") == "`` `x ``"
    assert prose("line one\nline two") == "line one line two"


def test_registered_but_not_visible_leaves_out_tools_hidden_by_design() -> None:
    """The line names the tools that have a fix (notify_user), not the virtual tools code-execution
    mode leaves out, nor a toolkit's tools whose group is not active yet (#22 item 3)."""
    seed = _report_text(SEED, "--mode", "build").split("## Provenance", 1)[0]
    line = next(line for line in seed.splitlines() if "Registered but" in line)
    assert "notify\\_user" in line
    assert "get\\_prompt" not in line and "get\\_resource" not in line
    toolkit = _report_text(TOOLKIT).split("## Provenance", 1)[0]
    assert "web\\_search" not in toolkit and "Registered but" not in toolkit
