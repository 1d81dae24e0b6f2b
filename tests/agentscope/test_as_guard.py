"""GroupActivationGuard through the real ``toolkit.call_tool`` of the installed AgentScope."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.agentscope


@pytest.fixture
def guarded(seed_built):
    from toolscope.core.systems.agentscope.guard import install_guard

    plans = []
    guard = install_guard(seed_built.toolkit, observer=plans.append)
    return seed_built.toolkit, seed_built.state, guard, plans


async def test_install_keeps_group_list_and_template(seed_built) -> None:
    from toolscope.core.systems.agentscope.guard import install_guard

    toolkit = seed_built.toolkit
    install_guard(toolkit)
    meta = toolkit.builtin_meta_tool.tool
    assert meta.name == "reset_tools"
    assert meta.groups is toolkit.tool_groups  # the same list object, not a copy
    assert meta.response_template == toolkit.meta_tool_response_template


async def test_accepted_call_is_applied_and_annotated(guarded, call, text) -> None:
    toolkit, state, guard, plans = guarded
    response = await call(toolkit, state, {"web_search": True, "scraping": True})
    assert response.state.value == "success"
    assert state.tool_context.activated_groups == ["web_search", "scraping"]
    body = text(response)
    assert "The currently activated tool group(s): web_search, scraping." in body  # stock text kept
    assert "[guard] Activated: web_search, scraping. Deactivated: (none). Kept: (none)." in body
    assert plans[-1].accepted and plans[-1].before == ()

    response = await call(toolkit, state, {"web_search": True})
    assert "[guard] Activated: (none). Deactivated: scraping. Kept: web_search." in text(response)
    assert state.tool_context.activated_groups == ["web_search"]


async def test_unknown_name_refused_state_untouched(guarded, call, text) -> None:
    toolkit, state, guard, plans = guarded
    await call(toolkit, state, {"web_search": True, "scraping": True})
    live_list = state.tool_context.activated_groups
    response = await call(toolkit, state, {"web_serch": True})
    assert response.state.value == "error"
    assert state.tool_context.activated_groups == ["web_search", "scraping"]
    assert state.tool_context.activated_groups is live_list  # not even replaced
    body = text(response)
    assert "'web_serch'" in body and "did you mean 'web_search'" in body
    assert "web_search, scraping" in body  # the real names are listed
    assert plans[-1].unknown == ("web_serch",)


async def test_refusal_never_reaches_the_stock_tool(seed_built, call) -> None:
    """A refused call does not delegate: a middleware inside the guard never runs."""
    from agentscope.tool import RegisteredTool, ResetTools, ToolMiddlewareBase

    from toolscope.core.systems.agentscope.guard import GroupActivationGuard, known_group_reader

    reached = []

    class Spy(ToolMiddlewareBase):
        async def on_tool_call(self, tool, input_kwargs, next_handler):
            reached.append(sorted(input_kwargs))
            async for chunk in next_handler(**input_kwargs):
                yield chunk

    toolkit, state = seed_built.toolkit, seed_built.state
    guard = GroupActivationGuard(known_group_reader(toolkit))
    toolkit.builtin_meta_tool = RegisteredTool(
        tool=ResetTools(
            groups=toolkit.tool_groups,
            response_template=toolkit.meta_tool_response_template,
            middlewares=[guard, Spy()],
        )
    )
    await call(toolkit, state, {"nope": True})
    assert reached == []
    await call(toolkit, state, {"web_search": True})
    assert reached == [["_agent_state", "web_search"]]  # the state is forwarded


@pytest.mark.parametrize("value", ["maybe", None, [True], {"x": "SECRET-VALUE"}, 2])
async def test_non_bool_refused_without_echoing_value(guarded, call, text, value) -> None:
    toolkit, state, guard, plans = guarded
    state.tool_context.activated_groups.append("scraping")
    response = await call(toolkit, state, {"web_search": value})
    assert response.state.value == "error"
    assert state.tool_context.activated_groups == ["scraping"]
    body = text(response)
    assert "'web_search'" in body
    assert "SECRET-VALUE" not in body and "maybe" not in body and "[True]" not in body
    assert plans[-1].non_bool == ("web_search",)


async def test_both_problem_kinds_at_once(guarded, call, text) -> None:
    toolkit, state, guard, plans = guarded
    response = await call(toolkit, state, {"web_serch": True, "scraping": "maybe"})
    body = text(response)
    assert response.state.value == "error"
    assert "Unknown group name(s): 'web_serch'" in body
    assert "Not a boolean: 'scraping'" in body
    assert plans[-1].unknown == ("web_serch",) and plans[-1].non_bool == ("scraping",)
    assert state.tool_context.activated_groups == []


async def test_group_registered_later_is_known_without_reinstalling(guarded, call, text) -> None:
    from agentscope.tool import ToolGroup

    from toolscope.core.systems.agentscope.spec import GroupSpec, ToolSpec, make_spec_group

    toolkit, state, guard, plans = guarded
    meta_before = toolkit.builtin_meta_tool
    refused = await call(toolkit, state, {"databases": True})
    assert refused.state.value == "error"

    toolkit.tool_groups.append(
        make_spec_group(GroupSpec(name="databases", description="DB", tools=[ToolSpec(name="sql_query")]))
    )
    assert toolkit.builtin_meta_tool is meta_before  # nothing reinstalled
    assert "databases" in toolkit.builtin_meta_tool.tool.input_schema["properties"]
    response = await call(toolkit, state, {"databases": True})
    assert response.state.value == "success", text(response)
    assert state.tool_context.activated_groups == ["databases"]
    names = [s["function"]["name"] for s in await toolkit.get_tool_schemas(state.tool_context.activated_groups)]
    assert "sql_query" in names
    assert isinstance(toolkit.tool_groups[-1], ToolGroup)


async def test_tool_in_inactive_group_is_refused_by_call_tool(guarded, call, text) -> None:
    toolkit, state, *_ = guarded
    response = await call(toolkit, state, {"query": "x"}, name="web_search")
    assert response.state.value == "error"
    assert "ToolGroupInactiveError" in text(response) and "'web_search'" in text(response)
    await call(toolkit, state, {"web_search": True})
    response = await call(toolkit, state, {"query": "x"}, name="web_search")
    assert response.state.value == "success"
    assert text(response).startswith("3 results")


@pytest.mark.parametrize("name_length", [8, 200])
async def test_refusal_text_stays_bounded_with_ten_thousand_unknown_keys(guarded, call, text, name_length) -> None:
    """The refusal goes back to the model: a few names and a count, the full list in the plan."""
    toolkit, state, guard, plans = guarded
    args = {f"g{index:0{name_length - 1}d}": True for index in range(10_000)}
    args["web_serch"] = "yes"
    response = await call(toolkit, state, args)
    assert response.state.value == "error"
    body = text(response)
    assert len(body) < 2_000, len(body)
    assert "and 9,996 more (the full list is in the plan)" in body
    assert len(plans[-1].unknown) == 10_001  # the full list is kept
    assert response.metadata["toolscope_guard"]["unknown"][:1] == [next(iter(args))]
