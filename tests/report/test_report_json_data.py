"""``render_json`` builds the report's data without the pydantic models (``json_data``): that
data must be exactly the typed model's dump, keys in the same order, for every kind of report."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from report_helpers import SAMPLE_CASES, SAMPLES, golden_environment

from toolscope.cli.commands.report import make_report
from toolscope.core.report.json_data import report_data
from toolscope.core.report.json_report import to_document

SESSION_CASE = (
    str(SAMPLES / "agentscope" / "toolkit.yaml"),
    {"tools": ["web_search"], "session": SAMPLES / "agentscope" / "session_typo.json"},
)


def _plain_document(report) -> dict:  # type: ignore[no-untyped-def]
    data, sections = report_data(report)
    for mode, lines in zip(data["modes"], sections, strict=True):
        mode["tools"] = [json.loads(line) for line in lines]
    return data


@pytest.mark.parametrize("case", [*sorted(SAMPLE_CASES), "session"])
def test_plain_data_is_the_models_dump(case: str, in_repo: Path) -> None:
    config, options = SESSION_CASE if case == "session" else SAMPLE_CASES[case]
    report, _ = make_report(config, environment=golden_environment("toolkit" if case == "session" else case), **options)
    plain, typed = _plain_document(report), to_document(report)
    # Key order too: the text is written in the data's order.
    assert json.dumps(plain, indent=1) == json.dumps(typed, indent=1)


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
