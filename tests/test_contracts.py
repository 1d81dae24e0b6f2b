"""The JSON contracts: committed schemas equal the models, and outputs are checked against them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
from json_contracts import validate_document, validate_output, validated
from typer.testing import CliRunner

from toolscope.cli.app import app
from toolscope.core.schemas import ENVELOPES, committed_schema, schema_file_name
from toolscope.core.systems.schema_files import generated_schema

SCHEMAS = Path(__file__).resolve().parent.parent / "core" / "schemas"
SEED = "sample_configs/seed/step_config.json"


@pytest.mark.parametrize("schema_id", list(ENVELOPES))
def test_committed_schema_matches_the_model(schema_id: str) -> None:
    """Regenerate with `python -m toolscope.core.systems.schema_files` when a model changes."""
    committed = json.loads((SCHEMAS / schema_file_name(schema_id)).read_text("utf-8"))
    assert committed == generated_schema(schema_id), (
        f"{schema_file_name(schema_id)} differs from its model: run `python -m toolscope.core.systems.schema_files`"
    )
    assert committed_schema(schema_id) == committed, "the installed package ships the same schema"


@pytest.mark.parametrize("schema_id", list(ENVELOPES))
def test_schema_is_valid_and_names_its_id(schema_id: str) -> None:
    schema = committed_schema(schema_id)
    jsonschema.Draft202012Validator.check_schema(schema)
    # A document is one object shape, or a choice of shapes (step/1: scripted or replayed session).
    shapes = (
        [schema] if "properties" in schema else [schema["$defs"][r["$ref"].split("/")[-1]] for r in schema["anyOf"]]
    )
    for shape in shapes:
        assert shape["properties"]["schema"]["const"] == schema_id
        assert shape["additionalProperties"] is False
        assert set(shape["required"]) == set(shape["properties"]), "every key is always written"


def test_no_schema_file_without_a_model() -> None:
    assert sorted(p.name for p in SCHEMAS.glob("*.schema.json")) == sorted(schema_file_name(s) for s in ENVELOPES)


def test_validation_rejects_a_document_its_schema_does_not_allow(in_repo: Path) -> None:
    """The suite-wide check can fail: an extra key, a verdict outside the enum, a wrong schema id."""
    result = CliRunner().invoke(app, ["tools", SEED, "--json"])
    good = validated(result.stdout)
    assert good["schema"] == "toolscope.tools/2"
    for mutate in (
        lambda d: d.update(surprise=1),
        lambda d: d["tools"][0].update(verdict="maybe"),
        lambda d: d["stage_results"][0].update(name="reachable"),
        lambda d: d["tools"][0]["stages"].append("registered"),
        lambda d: d["counts"].pop("unknown"),
    ):
        bad = json.loads(result.stdout)
        mutate(bad)
        with pytest.raises(jsonschema.ValidationError):
            validate_document(bad)
        with pytest.raises(jsonschema.ValidationError):
            validate_output(json.dumps(bad))
    with pytest.raises(AssertionError):
        validate_document({**good, "schema": "toolscope.tools/9"})
    with pytest.raises(AssertionError):
        validate_output(json.dumps({**good, "schema": "toolscope.tools/9"}))


@pytest.mark.parametrize("config", [SEED, "sample_configs/agentscope/toolkit.yaml"])
def test_tools_writer_follows_its_model(config: str, in_repo: Path) -> None:
    """core.schemas.tools_json writes tools/2 as text; read back through ToolsEnvelope it is the same document."""
    from toolscope.cli.inputs import open_subject
    from toolscope.core.schemas.base import render
    from toolscope.core.schemas.tools_json import write_tools_document
    from toolscope.core.schemas.verdicts import ToolsEnvelope

    subject = open_subject(config)
    evaluation = subject.evaluate(subject.default_mode)
    for hidden_only in (False, True):
        pieces: list[str] = []
        write_tools_document(
            pieces.append, evaluation, hidden_only=hidden_only, config_findings=subject.config_findings
        )
        text = "".join(pieces)
        model = ToolsEnvelope.model_validate_json(text)
        assert json.loads(render(model)) == json.loads(text)
        indented: list[str] = []
        write_tools_document(indented.append, evaluation, hidden_only=hidden_only, indent=True)
        assert "".join(indented).startswith('{\n  "schema": "toolscope.tools/2"')


def test_subprocess_json_outputs_validate(in_repo: Path) -> None:
    """The installed console entry point prints documents that match their schemas."""
    for args in (
        ["explain", SEED, "notify_user", "-m", "build"],
        ["check", SEED],
        ["filter", "a:b", "--selected-tools", "a:*", "--virtual"],
    ):
        proc = subprocess.run(
            [sys.executable, "-m", "toolscope", *args, "--json"], capture_output=True, text=True, timeout=60
        )
        assert proc.returncode in (0, 1), proc.stderr
        validated(proc.stdout)


# The reference pages the README links to: the JSON documents, and the commands with their exit codes.
DOCS = Path(__file__).resolve().parent.parent / "docs"
JSON_PAGE = (DOCS / "json.md").read_text("utf-8")
COMMANDS_PAGE = (DOCS / "commands.md").read_text("utf-8")


def keys_not_named(model_path: str, text: str) -> list[str]:
    """The top-level keys of the document model ``module:Class`` (in core.schemas) that ``text``
    does not name in backticks (the model is the source; ``schema`` is the id itself)."""
    import importlib

    module_name, _, class_name = model_path.partition(":")
    model = getattr(importlib.import_module(f"toolscope.core.schemas.{module_name}"), class_name)
    keys = {field.alias or name for name, field in model.model_fields.items()} - {"schema"}
    return sorted(k for k in keys if f"`{k}`" not in text)


@pytest.mark.parametrize(
    ("schema_id", "model_path"),
    [
        ("toolscope.explain/1", "verdicts:ExplainEnvelope"),
        ("toolscope.tools/2", "verdicts:ToolsEnvelope"),
        ("toolscope.check/1", "verdicts:CheckEnvelope"),
        ("toolscope.filter/1", "filter:FilterEnvelope"),
    ],
)
def test_readme_lists_every_top_level_json_field(schema_id: str, model_path: str) -> None:
    """docs/json.md's line for a document names each of its keys (the model is the source)."""
    (line,) = [x for x in JSON_PAGE.splitlines() if x.startswith(f"- `{schema_id}`")]
    missing = keys_not_named(model_path, line)
    assert not missing, f"docs/json.md's {schema_id} line does not name {missing}"


def test_readme_stage_ids_and_exit_codes_match_the_code() -> None:
    import re

    from toolscope.core.model import errors
    from toolscope.core.systems.agentscope.ids import AGENTSCOPE_STAGES
    from toolscope.core.systems.agentworks.ids import AGENTWORKS_STAGES

    ids = JSON_PAGE.split("Stage names in JSON are ids")[1].split("tables print them")[0]
    named = re.findall(r"`([a-z_]+)`", ids)
    assert named == [*AGENTWORKS_STAGES, *AGENTSCOPE_STAGES]
    table = COMMANDS_PAGE.split("## Exit codes")[1].split("##")[0]
    documented = {int(code) for code in re.findall(r"^\| (\d+) \|", table, flags=re.MULTILINE)}
    assert documented == {value for name, value in vars(errors).items() if name.startswith("EXIT_")}


@pytest.mark.parametrize(
    ("schema_id", "model_path"),
    [
        ("toolscope.workflow-check/1", "verdicts:WorkflowCheckEnvelope"),
        ("toolscope.workflow-tools/1", "verdicts:WorkflowToolsEnvelope"),
        ("toolscope.workflow-explain/1", "verdicts:WorkflowExplainEnvelope"),
        ("toolscope.workflow-report/1", "report:WorkflowReportEnvelope"),
    ],
)
def test_readme_lists_every_workflow_json_field(schema_id: str, model_path: str) -> None:
    """docs/json.md's whole-workflow line names each key of each workflow document, after its id."""
    (line,) = [x for x in JSON_PAGE.splitlines() if x.startswith("- Whole workflows")]
    part = line.split(f"`{schema_id}`")[1].split("`toolscope.")[0]
    missing = keys_not_named(model_path, part)
    assert not missing, f"docs/json.md's {schema_id} part does not name {missing}"
