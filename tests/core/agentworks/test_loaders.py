"""Bad input: every case is exit 2 material with one clear message naming the file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from toolscope.core.model.errors import InputError
from toolscope.core.systems.agentworks.load_request import StepConfigLoad
from toolscope.core.systems.agentworks.subject import load_agentworks_subject

SEED = Path(__file__).resolve().parents[3] / "sample_configs" / "seed"
REGISTRY = (SEED / "toolscope.registry.yaml").read_text()


def world(tmp_path: Path, step_text: str, registry_text: str = REGISTRY, step_name: str = "step.json") -> Path:
    (tmp_path / "toolscope.registry.yaml").write_text(registry_text)
    path = tmp_path / step_name
    path.write_text(step_text)
    return path


def error_for(path: Path, **kwargs) -> str:
    with pytest.raises(InputError) as excinfo:
        load_agentworks_subject(StepConfigLoad(path, **kwargs))
    return excinfo.value.render()


def test_missing_file(tmp_path):
    assert "no such step config" in error_for(tmp_path / "nope.json")


def test_directory(tmp_path):
    (tmp_path / "d").mkdir()
    assert "is a directory" in error_for(tmp_path / "d")


def test_empty_file(tmp_path):
    assert "is empty" in error_for(world(tmp_path, "  \n"))


def test_invalid_json_has_line_and_column(tmp_path):
    message = error_for(world(tmp_path, '{\n  "id": "x",\n  "agent_configs": {,}\n}'))
    assert "invalid JSON" in message and "line 3, column 21" in message and "step.json" in message


def test_invalid_yaml_has_line_and_column(tmp_path):
    path = world(tmp_path, '{"id": "s"}', registry_text="modes:\n  lists: [a\n  b: c\n")
    message = error_for(path)
    assert "toolscope.registry.yaml" in message and "invalid YAML" in message and "line 3" in message


def test_wrong_type_names_the_path_inside_the_document(tmp_path):
    step = {"steps": [{"id": "a", "agent_configs": {"selected_tools": ["github:a", "github:b", 3]}}]}
    message = error_for(world(tmp_path, json.dumps(step)))
    assert "steps[0].agent_configs.selected_tools[2]" in message


def test_unknown_agentworks_fields_are_kept(tmp_path):
    step = {
        "id": "a",
        "agent_configs": {
            "execution_tier": "high",
            "execution_tier_reason": "x",
            "lock_learnings": True,
            "enabled_custom_tools": ["human_tools:*"],
        },
    }
    subject = load_agentworks_subject(StepConfigLoad(world(tmp_path, json.dumps(step))))
    assert subject.step.step.agent_configs.extra["execution_tier"] == "high"


def test_several_steps_need_step_and_unknown_step_lists_ids():
    assert "step ids: triage, sheets-report, pulse-monitor" in error_for(SEED / "steps.json")
    assert "no step with id 'nope'" in error_for(SEED / "steps.json", step="nope")


def test_registry_that_contradicts_itself(tmp_path):
    registry = REGISTRY.replace("aliases: {builder: build,", "aliases: {builder: biuld,").replace(
        "build: [read_image, submit_human_answer]", 'build: [read_image, "@missing"]'
    )
    message = error_for(world(tmp_path, '{"id": "s"}', registry_text=registry))
    assert "contradicts itself" in message
    assert "modes.aliases.builder" in message and "modes.lists.build[1]" in message


def test_no_registry_found(tmp_path):
    (tmp_path / "step.json").write_text('{"id": "s"}')
    assert "no registry found" in error_for(tmp_path / "step.json")


def test_input_files_are_never_written(tmp_path):
    path = world(tmp_path, (SEED / "step_config.json").read_text())
    before = {p: p.read_bytes() for p in tmp_path.iterdir()}
    subject = load_agentworks_subject(StepConfigLoad(path))
    subject.evaluate("build")
    subject.findings(["build", "run"])
    assert {p: p.read_bytes() for p in tmp_path.iterdir()} == before
