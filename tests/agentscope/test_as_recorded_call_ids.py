"""A model that reuses one call id for every call: each call keeps its own result (#31, from round 2).

The messages are built with AgentScope 2.x's own ``Msg`` and blocks, as its agents store them."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent / "fixtures"


def _assistant(*blocks: object) -> object:
    from agentscope.message import Msg

    return Msg(name="agent", role="assistant", content=list(blocks))


def test_calls_that_share_one_id_each_keep_their_own_result() -> None:
    pytest.importorskip("agentscope.state")  # the 2.x message model (1.x stores other blocks)
    from agentscope.message import ToolCallBlock, ToolResultBlock

    from toolscope.core.systems.agentscope.recorded import session_of_msgs

    msgs = [
        _assistant(ToolCallBlock(id="call", name="reset_tools", input='{"cloud": true}')),
        _assistant(ToolResultBlock(id="call", name="reset_tools", output="activated: cloud", state="success")),
        _assistant(ToolCallBlock(id="call", name="file_read", input="{}")),
        _assistant(ToolResultBlock(id="call", name="file_read", output="denied by rule", state="error")),
    ]
    session = session_of_msgs("memory", "msg_list", msgs)
    first, second = session.calls
    assert (first.name, first.result_state, first.result_text) == ("reset_tools", "success", "activated: cloud")
    assert (second.name, second.result_state) == ("file_read", "error")


def test_a_1x_session_whose_calls_share_one_id_keeps_each_result() -> None:
    """The recorded 1.x memory (one call, id c1) with that call and its result made twice, the
    second result different: each call reads its own."""
    from toolscope.core.systems.agentscope.v1.sessions import calls_from_v1

    recorded = json.loads((FIXTURES / "agentscope1x_msgs.json").read_text(encoding="utf-8"))
    call, result = copy.deepcopy(recorded[1]), copy.deepcopy(recorded[2])
    for block in result["content"]:
        if block.get("type") == "tool_result":
            block["output"] = [{"type": "text", "text": "the second answer"}]
    calls, _turns = calls_from_v1([*recorded, call, result])
    assert [c.result_text for c in calls][1] == "the second answer"
    assert calls[0].result_text != "the second answer"
