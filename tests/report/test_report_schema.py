"""Every sample's JSON report validates against the shipped ``schema.json``."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import jsonschema
import pytest
from typer.testing import CliRunner

from toolscope.cli.app import app
from toolscope.core.report.json_report import report_schema

# (CONFIG, extra CLI args): every sample input, with the options that make each section appear.
SAMPLE_REPORTS = [
    ("sample_configs/seed/step_config.json", ["-m", "build", "-m", "run", "-t", "notify_user", "-t", "nope"]),
    ("sample_configs/seed/steps.json", ["--step", "sheets-report", "-m", "run"]),
    ("sample_configs/realistic/step_config.json", ["--step", "research"]),
    (
        "sample_configs/realistic/step_config.json",
        ["--step", "pulse-check", "-m", "workshop", "-m", "run", "-t", "get_pulse_module_state"],
    ),
    ("sample_configs/agentscope/toolkit.yaml", ["--script", "sample_configs/agentscope/typo.json", "-t", "web_search"]),
    ("sample_configs/agentscope/toolkit.yaml", ["--script", "sample_configs/agentscope/non_bool.json"]),
    (
        "sample_configs/agentscope/toolkit.yaml",
        ["--script", "sample_configs/agentscope/late_group.yaml", "-m", "default", "-m", "bypass"],
    ),
    ("sample_configs/agentscope/toolkit.json", ["--groups", "web_search"]),
    ("sample_configs/agentscope/my_agent.py:build_toolkit", ["-t", "page_fetch"]),
]


@pytest.fixture(scope="module")
def schema() -> dict:
    return report_schema()


@pytest.mark.parametrize(("config", "args"), SAMPLE_REPORTS, ids=lambda v: v if isinstance(v, str) else " ".join(v))
def test_sample_report_validates(config: str, args: list[str], schema: dict, in_repo: Path) -> None:
    """The CLI's JSON report of the sample is a valid toolscope.report/2 document."""
    result = CliRunner().invoke(app, ["report", config, *args, "--format", "json"])
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    jsonschema.validate(document, schema)
    assert document["schema"] == "toolscope.report/2"
    if "--script" in args:
        assert document["transcript"]["turns"], "the step-through has turns"
    if args.count("-m") >= 2:
        assert document["diff"] is not None


def test_schema_rejects_what_it_should(schema: dict, in_repo: Path) -> None:
    """The schema is strict: wrong version, extra keys, absolute file names fail."""
    result = CliRunner().invoke(app, ["report", "sample_configs/seed/step_config.json", "-f", "json"])
    good = json.loads(result.stdout)
    jsonschema.validate(good, schema)
    for mutate in (
        lambda d: d.update(schema="toolscope.report/1"),
        lambda d: d.update(surprise=1),
        lambda d: d["provenance"]["files"][0].update(name="/home/me/step_config.json"),
        lambda d: d["modes"][0]["tools"][0].update(verdict="maybe"),
        lambda d: d["modes"][0]["tools"][0].update(stages=[d["modes"][0]["stage_results"][0]]),  # v1's objects
        lambda d: d["modes"][0].pop("stage_results"),
        lambda d: d["provenance"]["files"][0].update(sha256="xyz"),
    ):
        bad = copy.deepcopy(good)
        mutate(bad)
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(bad, schema)


def test_schema_is_a_valid_json_schema(schema: dict) -> None:
    """schema.json itself is a valid Draft 2020-12 schema, shipped as package data."""
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["properties"]["schema"]["const"] == "toolscope.report/2"
