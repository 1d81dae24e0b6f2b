"""Golden files: the Markdown and JSON reports of the real samples, byte for byte.

Regenerate after an intended change with ``TOOLSCOPE_UPDATE_GOLDEN=1 pytest tests/report``
and review the diff. Versions are fixed (``golden_environment``) so the files do not
depend on the machine; toolkit goldens are per installed AgentScope version.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import jsonschema
import pytest
from json_contracts import validate_document
from report_helpers import GOLDEN, SAMPLE_CASES, golden_environment, golden_stem

from toolscope.cli.commands.report_document import make_report, render
from toolscope.core.report.json_report import report_schema

# Read at import: the autouse fixture clears TOOLSCOPE_* variables before each test.
UPDATE = os.environ.get("TOOLSCOPE_UPDATE_GOLDEN") == "1"


def _compare(path: Path, text: str) -> None:
    if UPDATE:
        path.write_text(text, encoding="utf-8", newline="\n")
    if not path.exists():
        pytest.fail(f"no golden file {path.name}; create it with TOOLSCOPE_UPDATE_GOLDEN=1")
    expected = path.read_text(encoding="utf-8")
    assert text == expected, f"{path.name} differs; if intended, regenerate with TOOLSCOPE_UPDATE_GOLDEN=1"


@pytest.mark.parametrize("case", sorted(SAMPLE_CASES))
@pytest.mark.parametrize("fmt", ["md", "json"])
def test_golden(case: str, fmt: str, in_repo: Path) -> None:
    """The report of each sample matches its golden file."""
    config, options = SAMPLE_CASES[case]
    stem = golden_stem(case)
    if case == "toolkit" and not UPDATE and not (GOLDEN / f"{stem}.{fmt}").exists():
        pytest.skip(f"no golden for this AgentScope version ({stem}); record one with TOOLSCOPE_UPDATE_GOLDEN=1")
    report, _ = make_report(config, environment=golden_environment(case), **options)
    text = render(report, fmt)
    if fmt == "md":
        assert "\x1b" not in text and "&#x" not in text  # UTF-8 as it reads: no raw character references
    _compare(GOLDEN / f"{stem}.{fmt}", text)


def test_golden_json_files_match_the_schema() -> None:
    """Every committed JSON golden is a valid toolscope.report/2 document (a whole workflow's:
    toolscope.workflow-report/1, whose steps are report/2 documents)."""
    files = sorted(GOLDEN.glob("*.json"))
    assert len(files) >= 2
    schema = report_schema()
    for path in files:
        document = json.loads(path.read_text("utf-8"))
        if document["schema"] == "toolscope.workflow-report/1":
            validate_document(document)
            reports = list(document["steps"].values())
        else:
            reports = [document]
        for report in reports:
            jsonschema.validate(report, schema)


def test_seed_report_says_what_the_seed_incident_is(in_repo: Path) -> None:
    """The seed's notify_user incident: registered, hidden by the allow-list, with the fix."""
    config, options = SAMPLE_CASES["seed"]
    report, _ = make_report(config, environment=golden_environment("seed"), **options)
    document = json.loads(render(report, "json"))
    build = document["modes"][0]
    notify = next(t for t in build["tools"] if t["tool"] == "notify_user")
    assert notify["verdict"] == "hidden" and notify["first_failing_stage"] == "allow_listed"
    # Hidden tools come first in the verdict table.
    verdicts = [t["verdict"] for t in build["tools"]]
    assert verdicts == sorted(verdicts, key=lambda v: {"hidden": 0, "unknown": 1, "visible": 2}[v])
    checklist = next(c for c in document["checklists"] if c["tool"] == "notify_user" and c["mode"] == "build")
    assert checklist["fix"] and "notify_user" in checklist["fix"]
    assert any("notify_user (not allow-listed)" in line for line in document["summary"])
    # build vs run: the Pulse state tools' visibility differs between the modes.
    assert document["diff"]["modes"] == ["build", "run"]
    typo = next(c for c in document["checklists"] if c["tool"] == "notfy_user")
    assert "notify_user" in typo["did_you_mean"]
