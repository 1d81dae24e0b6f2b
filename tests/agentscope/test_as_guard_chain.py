"""The guarded lane wraps a user's own middlewares on the 2.x meta tool instead of dropping
them (issue 19): a DENY stays a DENY in both lanes, a logger sees both lanes' calls."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.agentscope


def _user_meta_tool(toolkit, middlewares):
    from agentscope.tool import RegisteredTool, ResetTools

    toolkit.builtin_meta_tool = RegisteredTool(
        tool=ResetTools(
            groups=toolkit.tool_groups, response_template=toolkit.meta_tool_response_template, middlewares=middlewares
        )
    )


def test_a_users_deny_middleware_denies_in_both_lanes(seed_built) -> None:
    from agentscope.message import TextBlock, ToolResultState
    from agentscope.tool import ToolChunk, ToolMiddlewareBase

    from toolscope.core.systems.agentscope.session import StepSession

    class Deny(ToolMiddlewareBase):
        async def on_tool_call(self, tool, input_kwargs, next_handler):
            yield ToolChunk(content=[TextBlock(type="text", text="DENIED by policy")], state=ToolResultState.ERROR)

    _user_meta_tool(seed_built.toolkit, [Deny()])
    session = StepSession(seed_built)
    turn = session.call({"web_search": True})
    assert turn.stock.response_state == "error" and "DENIED by policy" in turn.stock.response_text
    assert turn.guarded.response_state == "error" and "DENIED by policy" in turn.guarded.response_text
    assert turn.stock.groups_after == turn.guarded.groups_after == ()
    assert turn.guarded.plan is not None and turn.guarded.plan.accepted  # the guard ran first, then the user's chain
    assert not turn.diverged


def test_a_users_logger_sees_both_lanes_and_the_guard_still_refuses(seed_built) -> None:
    from agentscope.tool import ToolMiddlewareBase

    from toolscope.core.systems.agentscope.session import StepSession

    seen = []

    class Logger(ToolMiddlewareBase):
        async def on_tool_call(self, tool, input_kwargs, next_handler):
            seen.append(sorted(k for k in input_kwargs if k != "_agent_state"))
            async for chunk in next_handler(**input_kwargs):
                yield chunk

    _user_meta_tool(seed_built.toolkit, [Logger()])
    session = StepSession(seed_built)
    ok = session.call({"web_search": True})
    typo = session.call({"web_serch": True})
    assert ok.stock.groups_after == ok.guarded.groups_after == ("web_search",)
    assert typo.guarded.response_state == "error" and typo.guarded.groups_after == ("web_search",)
    # stock + guarded for the accepted call; the refused one reaches only the stock lane's logger.
    assert seen == [["web_search"], ["web_search"], ["web_serch"]]


def test_the_repaired_call_is_shown_as_written_and_as_repaired(seed_built) -> None:
    from toolscope.core.systems.agentscope.call_notes import call_notes
    from toolscope.core.systems.agentscope.probe import probe_stock_reset_tools
    from toolscope.core.systems.agentscope.session import StepSession

    session = StepSession(seed_built)
    turn = session.call({"web_search": "yes"})
    written = session.call({"web_search": True}).guarded
    assert written.received is None and "received_args" not in written.to_json()  # as written: nothing to show
    guarded = turn.guarded
    if not probe_stock_reset_tools().coerces_yes:  # 2.0.6: no repair, the guard sees "yes"
        assert guarded.received is None and guarded.plan.non_bool == ("web_search",)
        return
    assert guarded.args == {"web_search": "yes"}
    assert guarded.received == {"web_search": True, "scraping": False}  # a default the model never wrote
    assert guarded.to_json()["received_args"] == {"web_search": True, "scraping": False}
    (note, *_) = call_notes(guarded.args, guarded.plan, "2.0.11", guarded.received)
    assert 'as written: {"web_search": "yes"}' in note and '"scraping": false' in note
    assert "filled in 'scraping', which the model never wrote" in note
