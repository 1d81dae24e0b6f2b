"""Every shipped registry agrees with the verified facts of ../shared/reference/agentworks-semantics.md.

The samples are what users learn AgentWorks from; these checks keep them from drifting
into a world the real code does not have.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from toolscope.core.systems.agentworks.names import DEFAULT_SYSTEM_CATEGORY_BASES
from toolscope.core.systems.agentworks.registry import load_registry_model

SAMPLES = Path(__file__).resolve().parents[3] / "sample_configs"
REGISTRIES = sorted(SAMPLES.glob("*/toolscope.registry.yaml"))

# §3.2: getToolNamesByCategory expands cat:* only for these; any other category expands to nothing.
EXPANDED_CATEGORIES = {
    "workspace_tools",
    "workspace_advanced",
    "workspace_image",
    "workflow_db",
    "human_tools",
    "workspace_browser",
}
# §3.1: WorkflowDBToolNames; record_run_concern is registered as workflow_db but not in that list.
WORKFLOW_DB_EXPANSION = {"query_workflow_db", "mutate_workflow_db"}
# §3.3: WorkshopHumanToolNames in every version, plus CreateHumanToolExecutors.
HUMAN_TOOLS = {
    "notify_user",
    "submit_human_answer",
    "human_feedback",
    "create_human_input_request",
    "answer_human_input_request",
    "mark_human_input_consumed",
    "get_human_input_request",
    "list_approved_fixer_decisions",
    "dismiss_duplicate_human_input_request",
}
# §10.1: mcpagent system categories (bases) at 81894a11; the filter's own constant is the one copy.
SYSTEM_BASES = set(DEFAULT_SYSTEM_CATEGORY_BASES)
# §6.5: the app's cliProviders at HEAD and in era A.
CLI_PROVIDERS = {"claude-code", "codex-cli", "cursor-cli", "agy-cli", "pi-cli", "gemini-cli"}


def test_there_are_registries_to_check():
    assert {p.parent.name for p in REGISTRIES} >= {"seed", "realistic", "mcp"}


@pytest.mark.parametrize("path", REGISTRIES, ids=lambda p: p.parent.name)
def test_only_categories_the_real_code_expands_have_wildcard_tools(path):
    _, model = load_registry_model(path)
    for name, category in model.custom_tools.items():
        if category.tools:
            assert name in EXPANDED_CATEGORIES, f"{name}:* expands to nothing in the real code (§3.2)"
    workflow_db = model.custom_tools.get("workflow_db")
    if workflow_db is not None:
        assert set(workflow_db.tools) <= WORKFLOW_DB_EXPANSION
        assert "record_run_concern" not in workflow_db.tools


@pytest.mark.parametrize("path", REGISTRIES, ids=lambda p: p.parent.name)
def test_human_tools_system_categories_and_providers_are_real(path):
    _, model = load_registry_model(path)
    human = model.custom_tools.get("human_tools")
    if human is not None:
        assert set(human.tools) <= HUMAN_TOOLS
    if model.system_categories is not None:
        assert set(model.system_categories) == SYSTEM_BASES
    assert set(model.code_execution_providers) <= CLI_PROVIDERS


@pytest.mark.parametrize("path", REGISTRIES, ids=lambda p: p.parent.name)
def test_agent_browser_in_the_pool_means_the_workspace_browser_rule(path):
    """§2.3 rule 6: agent_browser in the pool → workspace_browser:* unless an entry starts with workspace_browser."""
    _, model = load_registry_model(path)
    pool = {tool for category in model.custom_tools.values() for tool in category.tools}
    if "agent_browser" not in pool:
        return
    assert model.profile.append_unless_prefix.get("workspace_browser") == "workspace_browser:*"
    if model.profile.defaults:
        assert "workspace_browser:*" in model.profile.defaults


@pytest.mark.parametrize("path", REGISTRIES, ids=lambda p: p.parent.name)
def test_workflow_servers_are_servers_of_the_registry(path):
    _, model = load_registry_model(path)
    if model.workflow is None:
        return
    assert set(model.workflow.servers) <= set(model.mcp_servers), "filterServersByWorkflow compares names exactly"
    for entry in model.workflow.append_selected_tools:
        assert entry == "workflow_db:record_run_concern"  # the only entry the app appends (§2.3)


def test_the_realistic_profile_is_prepare_custom_tools_at_head():
    _, model = load_registry_model(SAMPLES / "realistic" / "toolscope.registry.yaml")
    assert set(model.profile.defaults) == {
        "workspace_advanced:*",
        "human_tools:*",
        "workflow_db:query_workflow_db",
        "workflow_db:record_run_concern",
        "workspace_browser:*",
    }
    assert set(model.profile.append) == {"workflow_db:query_workflow_db", "workflow_db:record_run_concern"}
    assert model.profile.append_unless_prefix == {
        "workspace_advanced": "workspace_advanced:*",
        "workspace_browser": "workspace_browser:*",
    }
