"""filter_custom_tools must match coding-agent-loop's FilterCustomToolsByCategory (§3.2)."""

from __future__ import annotations

import pytest

from toolscope.core.systems.agentworks.custom_filter import (
    CustomDecision,
    filter_custom_tools,
    unknown_wildcard_categories,
)

# Category table as the caller passes it (CAL HEAD, aliases already expanded).
ADVANCED = [
    "execute_shell_command",
    "read_image",
    "generate_text_llm",
    "search_web_llm",
    "diff_patch_workspace_file",
    "image_gen",
    "image_edit",
    "generate_video",
    "text_to_speech",
    "speech_to_text",
    "generate_music",
]
CATEGORIES: dict[str, list[str]] = {
    "workspace_advanced": ADVANCED,
    "workspace_tools": [*ADVANCED, "agent_browser"],
    "workspace_image": ["image_gen", "image_edit"],
    "workspace_browser": ["agent_browser"],
    "human_tools": [
        "human_feedback",
        "notify_user",
        "get_human_input_request",
        "create_human_input_request",
        "answer_human_input_request",
        "mark_human_input_consumed",
    ],
    "workflow_db": ["query_workflow_db", "mutate_workflow_db"],
}
ALL_TOOLS = sorted({t for tools in CATEGORIES.values() for t in tools} | {"record_run_concern", "Notify_User"})


def _included(enabled: list[str]) -> set[str]:
    decisions = filter_custom_tools(enabled, CATEGORIES, ALL_TOOLS)
    assert set(decisions) == set(ALL_TOOLS)
    return {name for name, d in decisions.items() if d.include}


# (enabled, tool, include, code, entry)
CASES = [
    # enabled empty: everything unchanged
    ([], "agent_browser", True, "no_filter", None),
    ([], "record_run_concern", True, "no_filter", None),
    # cat:*
    (["human_tools:*"], "notify_user", True, "category_wildcard", "human_tools:*"),
    (["human_tools:*"], "execute_shell_command", False, "not_enabled", None),
    (["workspace_tools:*"], "agent_browser", True, "category_wildcard", "workspace_tools:*"),
    (["workspace_advanced:*"], "agent_browser", False, "not_enabled", None),
    # workflow_db:* does not expand to record_run_concern
    (["workflow_db:*"], "record_run_concern", False, "not_enabled", None),
    (["workflow_db:*"], "mutate_workflow_db", True, "category_wildcard", "workflow_db:*"),
    # unknown category (exact keys, no normalization) expands to nothing
    (["foo:*"], "notify_user", False, "not_enabled", None),
    (["Human_Tools:*"], "notify_user", False, "not_enabled", None),
    (["human-tools:*"], "notify_user", False, "not_enabled", None),
    (["human_tools :*"], "notify_user", False, "not_enabled", None),
    # cat:tool enables the name alone; the category is ignored
    (["anything:notify_user"], "notify_user", True, "tool_entry", "anything:notify_user"),
    (["workspace_advanced:notify_user"], "notify_user", True, "tool_entry", "workspace_advanced:notify_user"),
    (["human_tools:notify_user"], "human_feedback", False, "not_enabled", None),
    (["workflow_db:record_run_concern"], "record_run_concern", True, "tool_entry", "workflow_db:record_run_concern"),
    # tool names are exact: no case/hyphen normalization, no trimming
    (["human_tools:Notify_User"], "notify_user", False, "not_enabled", None),
    (["human_tools:Notify_User"], "Notify_User", True, "tool_entry", "human_tools:Notify_User"),
    (["human_tools:notify_user "], "notify_user", False, "not_enabled", None),
    (["human_tools:* "], "notify_user", False, "not_enabled", None),
    # split on the first ':'
    (["a:b:notify_user"], "notify_user", False, "not_enabled", None),
    # bare entry: skipped, but the list is non-empty so filtering is strict
    (["notify_user"], "notify_user", False, "not_enabled", None),
    ([""], "agent_browser", False, "not_enabled", None),
    (["human_tools"], "notify_user", False, "not_enabled", None),
    # the first enabling entry (list order) is reported
    (["anything:notify_user", "human_tools:*"], "notify_user", True, "tool_entry", "anything:notify_user"),
    (["human_tools:*", "anything:notify_user"], "notify_user", True, "category_wildcard", "human_tools:*"),
    (
        ["foo:*", "workspace_tools:*", "workspace_browser:*"],
        "agent_browser",
        True,
        "category_wildcard",
        "workspace_tools:*",
    ),
    (["workspace_browser:*", "workspace_tools:*"], "agent_browser", True, "category_wildcard", "workspace_browser:*"),
]


@pytest.mark.parametrize(("enabled", "tool", "include", "code", "entry"), CASES)
def test_filter_custom_tools(enabled: list[str], tool: str, include: bool, code: str, entry: str | None) -> None:
    decision = filter_custom_tools(enabled, CATEGORIES, ALL_TOOLS)[tool]
    assert (decision.include, decision.code, decision.entry) == (include, code, entry)


def test_whole_sets() -> None:
    assert _included([]) == set(ALL_TOOLS)
    assert _included(["notify_user"]) == set()
    assert _included(["foo:*"]) == set()
    assert _included(["workspace_image:*"]) == {"image_gen", "image_edit"}
    # the app's default list when enabled_custom_tools is empty (§2.3, no browser, read-only)
    assert _included(
        ["workspace_advanced:*", "human_tools:*", "workflow_db:query_workflow_db", "workflow_db:record_run_concern"]
    ) == set(ADVANCED) | set(CATEGORIES["human_tools"]) | {"query_workflow_db", "record_run_concern"}
    # phase agents (PreparePhaseAgentTools)
    assert _included(["workspace_advanced:execute_shell_command", "human_tools:*"]) == {
        "execute_shell_command",
        *CATEGORIES["human_tools"],
    }


def test_reasons_name_the_entry() -> None:
    decisions = filter_custom_tools(
        ["anything:notify_user", "human_tools:*", "bare"],
        CATEGORIES,
        ["notify_user", "human_feedback", "agent_browser"],
    )
    assert decisions["notify_user"].reason == (
        'enabled by "anything:notify_user" in enabled_custom_tools (the category of cat:tool entries is ignored)'
    )
    assert decisions["human_feedback"].reason == 'enabled by "human_tools:*" in enabled_custom_tools'
    dropped = decisions["agent_browser"]
    assert '"human_tools:*"' in dropped.reason and '"bare"' in dropped.reason
    assert "without ':'" in dropped.reason


def test_tool_names_not_in_any_category_are_decided_too() -> None:
    decisions = filter_custom_tools(["x:brand_new"], CATEGORIES, ["brand_new", "other"])
    assert decisions["brand_new"] == CustomDecision(True, "tool_entry", decisions["brand_new"].reason, "x:brand_new")
    assert not decisions["other"].include


def test_generator_input_and_tuple_enabled() -> None:
    decisions = filter_custom_tools(("human_tools:*",), CATEGORIES, (n for n in ["notify_user"]))
    assert decisions["notify_user"].include


def test_unknown_wildcard_categories() -> None:
    enabled = ["foo:*", "human_tools:*", "Human_Tools:*", "bar:x", "foo:*", "baz", "workspace_tools:* "]
    assert unknown_wildcard_categories(enabled, CATEGORIES) == ("foo:*", "Human_Tools:*")
    assert unknown_wildcard_categories([], CATEGORIES) == ()
