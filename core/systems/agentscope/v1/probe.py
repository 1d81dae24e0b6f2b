"""Probe the installed stock 1.x ``reset_equipped_tools``: what does this AgentScope do?

Observed, not read from a version table: a throwaway 1.x Toolkit with groups ``alpha`` and
``beta`` and the meta tool registered by hand, asked through the real
``call_tool_function``:

1. does a refused call change the flags? (``alpha`` on, send ``{"beta": true, "alpha":
   "maybe"}``; 1.x clears first → nothing on);
2. is an unknown name stored, and does the reply claim it was activated?
3. are ``"yes"`` and ``1`` coerced? (1.x: no).

1.x has no error state, so ``refusal_reported_as_error`` is always False (kept for the
shared ``step --json`` shape).

Public API::

    StockProbeV1 (a ``..probe.StockProbe`` with a 1.x summary)
    arun_probe_v1() -> StockProbeV1
"""

from __future__ import annotations

from typing import Any

from ..probe import UNKNOWN_NAME, StockProbe
from .build import META, v1_api


class StockProbeV1(StockProbe):
    """What the installed stock 1.x meta tool did on a throwaway Toolkit."""

    unknown_names_claimed: bool = False
    """The reply to a call naming an unknown group said it was activated."""

    def summary(self) -> str:
        """One line for the stock lane's header."""
        order = (
            "clears every group before validating (a refused call turns everything off)"
            if self.refused_call_changes_state
            else "validates before applying"
        )
        unknown = "an unknown group name activates nothing"
        if self.unknown_names_claimed:
            unknown += " while the reply claims it was activated"
        coerced = [w for w, on in (('"yes"', self.coerces_yes), ("1", self.coerces_one)) if on]
        coercion = (
            f"{' and '.join(coerced)} coerced to true" if coerced else 'nothing is coerced ("yes", 1 are refused)'
        )
        return (
            f"stock {META} (agentscope {self.agentscope_version}, probed): {order}; {unknown}; {coercion}; "
            "no error state: every reply is a success to the agent loop"
        )


async def _call(toolkit: Any, args: dict[str, Any]) -> str:
    ToolUseBlock = v1_api("agentscope.message", "ToolUseBlock")

    last = None
    async for response in await toolkit.call_tool_function(
        ToolUseBlock(type="tool_use", id="probe", name=META, input=args)
    ):
        last = response
    return "".join(b.get("text", "") for b in (last.content if last else []) if b.get("type") == "text")


def _toolkit(active: list[str]) -> Any:
    Toolkit = v1_api("agentscope.tool", "Toolkit")

    toolkit = Toolkit()
    toolkit.create_tool_group("alpha", "Probe group A.")
    toolkit.create_tool_group("beta", "Probe group B.")
    toolkit.register_tool_function(toolkit.reset_equipped_tools)
    toolkit.update_tool_groups(active, active=True)
    return toolkit


def _active(toolkit: Any) -> list[str]:
    return list(toolkit.state_dict()["active_groups"])


async def arun_probe_v1() -> StockProbeV1:
    """Run the probes against throwaway 1.x Toolkits."""
    from ..version import installed_version

    toolkit = _toolkit(["alpha"])
    await _call(toolkit, {"beta": True, "alpha": "maybe"})
    changed = _active(toolkit) != ["alpha"]

    toolkit = _toolkit([])
    text = await _call(toolkit, {UNKNOWN_NAME: True})
    stored = UNKNOWN_NAME in _active(toolkit) or UNKNOWN_NAME in toolkit.groups
    claimed = f"'{UNKNOWN_NAME}'" in text and "activated" in text

    coerced = {}
    for key, value in (("yes", "yes"), ("one", 1)):
        toolkit = _toolkit([])
        await _call(toolkit, {"alpha": value})
        coerced[key] = _active(toolkit) == ["alpha"]
    return StockProbeV1(
        agentscope_version=installed_version() or "unknown",
        refused_call_changes_state=changed,
        refusal_reported_as_error=False,
        unknown_names_stored=stored,
        coerces_yes=coerced["yes"],
        coerces_one=coerced["one"],
        unknown_names_claimed=claimed,
    )
