"""Probe the installed stock ``reset_tools``: which behaviour does this AgentScope have?

toolscope never decides this from a version table. It builds a throwaway Toolkit with two
groups (``alpha``, ``beta``) and asks the real stock meta tool, through the real
``toolkit.call_tool``, three questions on throwaway states:

1. does a refused call change the state? (start ``[alpha]``, send
   ``{"beta": true, "alpha": "maybe"}``; 2.0.6 clears first → ``[]``);
2. are unknown names stored? (start ``[]``, send ``{"alpha": true, "toolscope_probe_nope": true}``);
3. are ``"yes"`` and ``"1"`` coerced to booleans by ``call_tool``? (2.0.11 yes).

Public API::

    probe_stock_reset_tools() -> StockProbe          # cached per process
    run_probe() -> StockProbe                       # async-free, uncached
    StockProbe.summary() -> str                     # one line
"""

from __future__ import annotations

import functools
import json
from typing import Any

from ...schemas.step import ProbeFacts

UNKNOWN_NAME = "toolscope_probe_nope"


class StockProbe(ProbeFacts):
    """What the installed stock meta tool did on throwaway states (its fields: ``ProbeFacts``)."""

    def summary(self) -> str:
        """One line for the stock lane's header."""
        order = (
            "clears before validating (a refused call empties the active groups)"
            if self.refused_call_changes_state
            else "validates before applying (a refused call leaves the state untouched)"
        )
        unknown = "stores unknown group names" if self.unknown_names_stored else "rejects unknown group names"
        coerced = [w for w, on in (('"yes"', self.coerces_yes), ('"1"', self.coerces_one)) if on]
        coercion = (
            f"call_tool coerces {' and '.join(coerced)} to true" if coerced else 'call_tool does not coerce "yes"/"1"'
        )
        errors = "" if self.refusal_reported_as_error else "; refusals are reported as success"
        return (
            f"stock reset_tools (agentscope {self.agentscope_version}, probed): {order}; {unknown}; {coercion}{errors}"
        )

    def to_json(self) -> dict[str, Any]:
        """The ``probe`` object of ``step --json``."""
        return {name: getattr(self, name) for name in ProbeFacts.model_fields} | {"summary": self.summary()}


async def _call(toolkit: Any, state: Any, raw: str) -> Any:
    from agentscope.message import ToolCallBlock

    response = None
    async for item in toolkit.call_tool(ToolCallBlock(id="probe", name="reset_tools", input=raw), state):
        response = item  # the last item is the accumulated ToolResponse
    return response


async def arun_probe() -> StockProbe:
    """Run the three probes against a throwaway Toolkit (async form; 1.x: ``v1/probe.py``)."""
    from .version import agentscope_major

    if agentscope_major() == 1:
        from .v1.probe import arun_probe_v1

        return await arun_probe_v1()
    import agentscope
    from agentscope.message import ToolResultState
    from agentscope.state import AgentState
    from agentscope.tool import ToolGroup, Toolkit

    toolkit = Toolkit(tool_groups=[ToolGroup("alpha", "Probe group A."), ToolGroup("beta", "Probe group B.")])

    state = AgentState()
    state.tool_context.activated_groups.append("alpha")
    refused = await _call(toolkit, state, json.dumps({"beta": True, "alpha": "maybe"}))
    changed = list(state.tool_context.activated_groups) != ["alpha"]
    as_error = refused is not None and refused.state == ToolResultState.ERROR

    state = AgentState()
    await _call(toolkit, state, json.dumps({"alpha": True, UNKNOWN_NAME: True}))
    stored = UNKNOWN_NAME in state.tool_context.activated_groups

    coerced = {}
    for word in ("yes", "1"):
        state = AgentState()
        await _call(toolkit, state, json.dumps({"alpha": word}))
        coerced[word] = list(state.tool_context.activated_groups) == ["alpha"]

    return StockProbe(
        agentscope_version=getattr(agentscope, "__version__", "unknown"),
        refused_call_changes_state=changed,
        refusal_reported_as_error=as_error,
        unknown_names_stored=stored,
        coerces_yes=coerced["yes"],
        coerces_one=coerced["1"],
    )


def run_probe() -> StockProbe:
    """Run the probes (sync form; in a fresh thread if a loop is running)."""
    from .aio import run_sync

    return run_sync(arun_probe())


@functools.lru_cache(maxsize=1)
def probe_stock_reset_tools() -> StockProbe:
    """The probe result, computed once per process (the installed AgentScope can't change)."""
    return run_probe()
