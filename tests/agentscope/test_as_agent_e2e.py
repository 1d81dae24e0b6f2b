"""End to end, like the seed: a real ``Agent`` with a scripted offline model calls
reset_tools, then a tool from the activated group, then misspells a group, stock and
guarded. We assert what the model was offered on every model call. No network.
"""

from __future__ import annotations

import pytest
from agentscope_version import agentscope_version
from session_helpers import sample_recorder

pytestmark = pytest.mark.agentscope


def _scripted_model(turns):
    """The shipped recording script's offline model; records the tool names offered and the
    results it got on every call."""
    offered, results = [], []

    def observe(messages, tools) -> None:
        offered.append([t["function"]["name"] for t in tools or []])
        results.append(_tool_results(messages))

    model = sample_recorder().scripted_model(turns, observe=observe)
    model.offered, model.results = offered, results
    return model


def _tool_results(messages) -> list[tuple[str, str, str]]:
    out = []
    for msg in messages:
        content = msg.content if isinstance(msg.content, list) else []
        for block in content:
            if getattr(block, "type", None) == "tool_result":
                output = (
                    block.output
                    if isinstance(block.output, str)
                    else "".join(getattr(b, "text", "") for b in block.output)
                )
                out.append(
                    (block.name, block.state.value if hasattr(block.state, "value") else str(block.state), output)
                )
    return out


def _turns():
    from agentscope.message import TextBlock

    turn = sample_recorder().turn
    return [
        turn(None, "reset_tools", {"web_search": True, "scraping": True}, "c1"),
        turn(None, "web_search", {"query": "agentscope"}, "c2"),
        turn(None, "reset_tools", {"web_serch": True}, "c3"),
        turn(None, "web_search", {"query": "again"}, "c4"),
        [TextBlock(text="done")],
    ]


async def _run(built, guarded: bool):
    from agentscope.agent import Agent, ReActConfig
    from agentscope.message import UserMsg

    from toolscope.core.systems.agentscope.guard import install_guard

    if guarded:
        install_guard(built.toolkit)
    model = _scripted_model(_turns())
    agent = Agent(
        name="dbg",
        system_prompt="Test agent.",
        model=model,
        toolkit=built.toolkit,
        state=built.state.model_copy(deep=True),
        react_config=ReActConfig(max_iters=8),
    )
    reply = await agent.reply(UserMsg(name="user", content="search for agentscope"))
    return model, agent, reply


BASIC = ["reset_tools", "note_write"]
WITH_WEB = ["reset_tools", "note_write", "web_search", "page_fetch"]


async def test_guarded_agent_keeps_its_tools(seed_built) -> None:
    model, agent, reply = await _run(seed_built, guarded=True)
    assert model.offered == [BASIC, WITH_WEB, WITH_WEB, WITH_WEB, WITH_WEB]
    assert agent.state.tool_context.activated_groups == ["web_search", "scraping"]
    results = model.results[-1]
    names_states = [(n, s) for n, s, _ in results]
    assert names_states == [
        ("reset_tools", "success"),
        ("web_search", "success"),
        ("reset_tools", "error"),
        ("web_search", "success"),
    ]
    refusal = results[2][2]
    assert "'web_serch'" in refusal and "did you mean 'web_search'" in refusal
    assert [b.text for b in reply.content if getattr(b, "type", "") == "text"] == ["done"]


async def test_stock_agent_on_the_installed_version(seed_built) -> None:
    model, agent, reply = await _run(seed_built, guarded=False)
    results = model.results[-1]
    assert model.offered[:3] == [BASIC, WITH_WEB, WITH_WEB]
    assert [(n, s) for n, s, _ in results[:2]] == [("reset_tools", "success"), ("web_search", "success")]
    if agentscope_version() == (2, 0, 6):
        # The seed: one transposed letter and both capability groups are gone.
        assert model.offered[3:] == [BASIC, BASIC]
        assert agent.state.tool_context.activated_groups == ["web_serch"]
        assert results[2][1] == "success"
        assert results[3][1] == "error"  # web_search is no longer available
    else:
        assert model.offered[3:] == [WITH_WEB, WITH_WEB]
        assert agent.state.tool_context.activated_groups == ["web_search", "scraping"]
        assert results[2][1] == "error" and "Invalid group name(s): web_serch" in results[2][2]
        assert results[3][1] == "success"
