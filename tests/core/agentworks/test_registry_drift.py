"""``toolscope registry check REGISTRY --go-src DIR`` on small Go checkouts in the shapes the reference
describes, one per era (parsed, never built). The three checkouts share most files, so
tests/core/agentworks/go_fixtures stores each file once, in layers: ``go_checkout`` lays an era's
layers over each other in a temporary folder."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from toolscope.cli.app import app
from toolscope.core.systems.agentworks.go_source import read_go_facts

HERE = Path(__file__).resolve().parent
ERAS = HERE / "eras"
GO = HERE / "go_fixtures"
ERA_LAYERS = {
    "era_a": ("shared", "era_a"),
    "era_b": ("shared", "eras_b_c", "era_b"),
    "era_c": ("shared", "eras_b_c", "era_c"),
}
"""Each era's checkout, bottom layer first: the files every era has, then what two or one of them have."""
runner = CliRunner()


@pytest.fixture
def go_checkout(tmp_path: Path) -> Callable[[str], Path]:
    """``go_checkout("era_a")`` → a folder holding that era's Go checkout."""

    def lay(era: str) -> Path:
        checkout = tmp_path / era
        for layer in ERA_LAYERS[era]:
            shutil.copytree(GO / layer, checkout, dirs_exist_ok=True)
        return checkout

    return lay


def check(registry: str, *sources: Path):
    args = ["registry", "check", str(ERAS / registry / "toolscope.registry.yaml")]
    for source in sources:
        args += ["--go-src", str(source)]
    result = runner.invoke(app, [*args, "--json"])
    return result.exit_code, json.loads(result.stdout) if result.stdout.startswith("{") else result.output


def by_fact(data: dict) -> dict[str, dict]:
    return {item["fact"]: item for item in data["lists"]}


def test_era_layers_hold_each_file_once():
    """A file two eras share lives in one layer: no two stored files are the same."""
    contents = [path.read_bytes() for path in GO.rglob("*") if path.is_file()]
    assert len(contents) == len(set(contents)) == 9


def test_go_facts_are_read_by_name_from_the_era_a_shape(go_checkout):
    facts = read_go_facts(go_checkout("era_a"))
    assert facts.mode_lists["builder"].names[-1] == "run_full_workflow"
    assert facts.mode_lists["optimizer"] == facts.mode_lists["builder"]  # one case, two labels
    assert facts.mode_calls == ("HumanToolNamesForWorkshopMode",)
    assert facts.human_tools.names == ("human_feedback", "notify_user")
    assert facts.providers.names == ("claude-code", "gemini-cli", "codex-cli")
    assert facts.bridge_tools.names == ("execute_shell_command", "get_api_spec")
    assert facts.denial_formats.names == ("tool %q is not available in the current workshop mode",)


def test_era_a_registry_in_sync_with_its_source(go_checkout):
    code, data = check("allow_list", go_checkout("era_a"))
    assert code == 0, data
    assert data["era"] == "allow_list" and data["drift"] is False
    assert {'mode "builder"', 'mode "run"', "human tools", "bridge tools", "execution denial text"} <= set(
        by_fact(data)
    )
    assert any("default branch" in line for line in data["not_compared"])
    assert data["not_found"] == ["product manifest: no agentworksproduct/product.yaml"]


def test_era_a_drift_names_what_the_registry_lacks_and_what_it_still_has(go_checkout):
    source = go_checkout("era_a")
    manager = source / "app" / "step_based_workflow" / "interactive_workshop_manager.go"
    text = manager.read_text().replace(
        'execution := []string{"execute_step", "query_step"}', 'execution := []string{"execute_step", "stop_step"}'
    )
    manager.write_text(text.replace('case "run", "ask":', 'case "run", "ask", "runner":'))
    code, data = check("allow_list", source)
    assert code == 1 and data["drift"] is True
    run = by_fact(data)['mode "run"']
    assert run["lacks"] == ["stop_step"] and run["stale"] == ["query_step"]
    assert by_fact(data)["mode canonicalisation labels"]["lacks"] == ["runner"]


def test_era_b_registry_compares_no_mode_lists(go_checkout):
    code, data = check("registration_only", go_checkout("era_b"))
    assert code == 0, data
    assert not any(item["fact"].startswith("mode") for item in data["lists"])
    assert any("registration-only era" in line for line in data["not_compared"])


def test_era_c_registry_compares_the_checkouts_product_yaml(go_checkout):
    code, data = check("product_manifest", go_checkout("era_c"))
    assert code == 1
    facts = by_fact(data)
    assert facts["chat.builder.tools"]["stale"] == ["execute_shell_command"]
    assert facts["chat.run.external_denylist"]["lacks"] == [] and facts["chat.run.external_denylist"]["stale"] == []
    assert facts["code-execution providers"]["lacks"] == ["gemini-cli", "codex-cli"]
    assert "mode lists: no func GetToolsForWorkshopMode" in data["not_found"]


def test_facts_split_over_two_checkouts_and_a_folder_with_none(tmp_path, go_checkout):
    app_dir, lib_dir = tmp_path / "app", tmp_path / "lib"
    era_a = go_checkout("era_a")
    shutil.move(era_a / "app", app_dir)
    shutil.move(era_a / "mcpagent", lib_dir)
    code, data = check("allow_list", app_dir, lib_dir)
    assert code == 0 and "bridge tools" in by_fact(data)
    empty = tmp_path / "empty"
    empty.mkdir()
    code, data = check("allow_list", empty)
    assert code == 0 and data["lists"] == [] and len(data["not_found"]) == 8
    code, output = check("allow_list", tmp_path / "missing")
    assert code == 2 and "not a folder" in output
