"""Characterization of the installed *stock* reset_tools, gated on the AgentScope version.

CI runs this module on 2.0.6 and on the newest 2.0.x (``.ci/agentscope-compat.sh``): the
2.0.6 tests pin clear-before-validate, unknown names stored and no coercion; the newer
ones pin validate-first (PR #2302) and call_tool's schema coercion. If a release changes
any of it, a test breaks rather than the text toolscope shows.
"""

from __future__ import annotations

import pytest
from agentscope_version import agentscope_version

pytestmark = pytest.mark.agentscope


V = agentscope_version()
ON_206 = pytest.mark.skipif(V != (2, 0, 6), reason="2.0.6 behaviour")
ON_NEWER = pytest.mark.skipif(V < (2, 0, 7), reason="2.0.7+ behaviour (validate first)")
ON_2011 = pytest.mark.skipif(V < (2, 0, 11), reason="2.0.11+ behaviour (call_tool coerces)")


def test_version_is_supported() -> None:
    assert (2, 0, 6) <= V < (2, 1, 0)


async def test_stock_activation_and_full_reset(seed_built, call, text) -> None:
    toolkit, state = seed_built.toolkit, seed_built.state
    response = await call(toolkit, state, {"web_search": True, "scraping": True})
    assert response.state.value == "success"
    assert state.tool_context.activated_groups == ["web_search", "scraping"]
    assert '<group name="web_search">Cite the URL of every page you use.</group>' in text(response)
    await call(toolkit, state, {"scraping": True})
    assert state.tool_context.activated_groups == ["scraping"]  # final state, not a delta
    await call(toolkit, state, {})
    assert state.tool_context.activated_groups == []


async def test_meta_tool_schema_follows_the_live_group_list(seed_built) -> None:
    from agentscope.tool import ToolGroup

    toolkit = seed_built.toolkit
    schema = toolkit.builtin_meta_tool.tool.input_schema
    assert set(schema["properties"]) == {"web_search", "scraping"}
    assert "additionalProperties" not in schema  # unknown names reach ResetTools.call
    toolkit.tool_groups.append(ToolGroup("late", "Late group."))
    assert "late" in toolkit.builtin_meta_tool.tool.input_schema["properties"]


@ON_206
async def test_206_clears_before_validating(seed_built, call, text) -> None:
    toolkit, state = seed_built.toolkit, seed_built.state
    state.tool_context.activated_groups.extend(["web_search", "scraping"])
    response = await call(toolkit, state, {"scraping": True, "web_search": "maybe"})
    assert state.tool_context.activated_groups == []  # cleared, then the bad value returned early
    assert response.state.value == "success"  # the error text travels in a non-error response
    assert text(response).startswith("Invalid arguments: the argument web_search should be a bool value")


@ON_206
async def test_206_stores_unknown_names(seed_built, call) -> None:
    toolkit, state = seed_built.toolkit, seed_built.state
    state.tool_context.activated_groups.extend(["web_search", "scraping"])
    response = await call(toolkit, state, {"web_serch": True})
    assert response.state.value == "success"
    assert state.tool_context.activated_groups == ["web_serch"]  # the seed's end state
    names = [s["function"]["name"] for s in await toolkit.get_tool_schemas(state.tool_context.activated_groups)]
    assert names == ["reset_tools", "note_write"]


@ON_206
async def test_206_call_tool_does_not_coerce(seed_built, call, text) -> None:
    toolkit, state = seed_built.toolkit, seed_built.state
    for word in ("yes", "1", "true"):
        response = await call(toolkit, state, {"web_search": word})
        assert state.tool_context.activated_groups == []
        assert "should be a bool value" in text(response)


@ON_NEWER
async def test_newer_validates_names_first(seed_built, call, text) -> None:
    toolkit, state = seed_built.toolkit, seed_built.state
    state.tool_context.activated_groups.extend(["web_search", "scraping"])
    response = await call(toolkit, state, {"web_serch": True})
    assert response.state.value == "error"
    assert state.tool_context.activated_groups == ["web_search", "scraping"]
    assert text(response) == "Invalid group name(s): web_serch. The current available groups are: web_search, scraping"


@ON_NEWER
async def test_newer_non_bool_leaves_state(seed_built, call, text) -> None:
    toolkit, state = seed_built.toolkit, seed_built.state
    state.tool_context.activated_groups.append("web_search")
    response = await call(toolkit, state, {"scraping": True, "web_search": "maybe"})
    assert response.state.value == "error"
    assert state.tool_context.activated_groups == ["web_search"]
    assert "the argument 'web_search' should be a bool value" in text(response)


@ON_NEWER
async def test_newer_direct_call_does_not_repair(seed_built) -> None:
    from agentscope.state import AgentState

    state = AgentState()
    chunk = await seed_built.toolkit.builtin_meta_tool.tool(_agent_state=state, web_search="yes")
    assert chunk.state.value == "error"
    assert state.tool_context.activated_groups == []


@ON_2011
@pytest.mark.parametrize("word", ["yes", "1", "true", "on"])
async def test_2011_call_tool_coerces_string_booleans(seed_built, call, word) -> None:
    toolkit, state = seed_built.toolkit, seed_built.state
    response = await call(toolkit, state, {"web_search": word})
    assert response.state.value == "success"
    assert state.tool_context.activated_groups == ["web_search"]
