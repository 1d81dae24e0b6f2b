"""``render_json`` is the one report/2 writer: what it writes for every kind of report is valid
against the committed JSON Schema, and writing it builds none of the pydantic models."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from json_contracts import validated
from report_helpers import SAMPLE_CASES, SAMPLES, golden_environment

from toolscope.cli.commands.report_document import make_report
from toolscope.core.report.json_report import render_json

SESSION_CASE = (
    str(SAMPLES / "agentscope" / "toolkit.yaml"),
    {"tools": ["web_search"], "session": SAMPLES / "agentscope" / "session_typo.json"},
)


@pytest.mark.parametrize("case", [*sorted(SAMPLE_CASES), "session"])
def test_every_kind_of_report_is_valid_against_the_committed_schema(case: str, in_repo: Path) -> None:
    config, options = SESSION_CASE if case == "session" else SAMPLE_CASES[case]
    report, _ = make_report(config, environment=golden_environment("toolkit" if case == "session" else case), **options)
    text = render_json(report)
    document = validated(text)
    # Every section's tools are one line each, in the section's order.
    lines = [line.strip().rstrip(",") for line in text.splitlines() if line.lstrip().startswith('{"tool": ')]
    assert [json.loads(line) for line in lines] == [t for mode in document["modes"] for t in mode["tools"]]


def test_report_json_does_not_build_the_model_classes(tmp_path: Path, in_repo: Path) -> None:
    out = tmp_path / "r.json"
    code = (
        "import sys\n"
        "from toolscope.cli.app import main\n"
        f"sys.argv = ['toolscope', 'report', 'sample_configs/seed/step_config.json', '-f', 'json', '-o', {str(out)!r}]\n"
        "try:\n"
        "    main()\n"
        "except SystemExit:\n"
        "    pass\n"
        "print('LOADED' if 'toolscope.core.schemas.report' in sys.modules else 'NOT LOADED')\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip().splitlines()[-1] == "NOT LOADED" and out.stat().st_size > 0
