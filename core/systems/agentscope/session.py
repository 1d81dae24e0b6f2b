"""Step-through sessions: the same reset_tools calls against the stock and the guarded meta tool.

A session holds one real ``Toolkit`` and two lanes, ``stock`` and ``guarded``, each with
its own ``AgentState`` (copied from the spec's or the user's initial state). Every call
goes through the real ``toolkit.call_tool(ToolCallBlock(...), state)``; raw text is sent
as is. The lanes share the toolkit; the session swaps ``toolkit.builtin_meta_tool``
between the stock one and a guarded one (built once, with ``groups=toolkit.tool_groups``)
around each call — AgentScope re-reads that attribute on every lookup.

Turns (``Turn``, ``LaneTurn``), their JSON and the token estimate live in ``turns.py``
and are re-exported here.

Replay: ``back()`` undoes the last turn (restores each lane's state from the turn's
snapshot, and unregisters a group the turn registered); ``forward()`` redoes a recorded
turn from its snapshots, or runs the next script step. A manual ``call()`` after going
back drops the turns ahead (like undo/redo). States in turns are deep copies. That history
is ``stepping.SessionRunner``'s, shared with the 1.x session (``v1/session.py``).

Public API (async methods for the TUI's event loop; sync wrappers for the CLI)::

    StepSession(built: BuiltToolkit, steps: Sequence[Step] = ())
    session.lanes -> ("stock", "guarded");  session.history -> list[Turn] (up to cursor)
    session.cursor -> int;  session.at_end -> bool;  session.script_position -> int
    session.next_step() -> str | None   # what forward() would do next  session.known_groups() -> tuple[str, ...]
    session.active_groups(lane) -> tuple[str, ...]
    await session.acall(value: str | Mapping, label=None) -> Turn     # ad-hoc call
    await session.aforward() -> Turn | None;  session.back() -> Turn | None;  session.reset()
    await session.arun_all() -> list[Turn];   await session.avisible(lane) -> (names, tokens)
    session.call(...), session.forward(), session.run_all(), session.visible(lane)   # sync
    Turn.to_json(), LaneTurn.to_json()
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...model.errors import InputError, Problem
from ...text.clip import clip
from .planner import ActivationPlan
from .script import CallStep, RegisterGroupStep, Step
from .spec import BuiltToolkit, make_spec_group
from .stepping import SessionRunner, Side
from .turns import (
    LANES,
    Lane,
    LaneTurn,
    Turn,
    estimate_tokens,
)

__all__ = ["LANES", "Lane", "LaneTurn", "StepSession", "Turn", "estimate_tokens"]


class StepSession(SessionRunner):
    """The toolkit, two lanes, the script and the history of executed turns."""

    lanes = LANES
    meta_tool = "reset_tools"
    guard_description = (
        "GroupActivationGuard on reset_tools: validates names and booleans first; a refusal changes nothing"
    )
    stock_reply_shown = False
    """``step`` prints every stock reply (1.x: its replies claim what did not happen)."""
    notes: tuple[str, ...] = ()
    """Caveats of this session's lanes (AgentScope 1.x's ``StepSessionV1`` has some)."""

    def __init__(self, built: BuiltToolkit, steps: Sequence[Step] = ()) -> None:
        """Two lanes from ``built``'s state; register_group steps are checked now (InputError)."""
        from .guard import (
            GroupActivationGuard,
            build_guarded_meta_tool,
            known_group_reader,
        )

        self.built = built
        self.toolkit = built.toolkit
        self._start_history(steps)
        self._initial = built.state.model_copy(deep=True)
        self.states: dict[str, Any] = {lane: self._initial.model_copy(deep=True) for lane in LANES}
        self._plans: list[ActivationPlan] = []
        self.guard = GroupActivationGuard(known_group_reader(self.toolkit), observer=self._plans.append)
        self._stock_meta = self.toolkit.builtin_meta_tool
        self._guarded_meta = build_guarded_meta_tool(self.toolkit, self.guard)
        self._groups = self._prepare_groups()

    # -- setup ---------------------------------------------------------------
    def _prepare_groups(self) -> dict[int, Any]:
        """Build register_group steps' ToolGroups up front, so bad steps fail at load."""
        built = {}
        for index, step, where, item in self._registrations({g.name for g in self.toolkit.tool_groups}):
            try:
                built[index] = make_spec_group(step.group)
            except ValueError as exc:
                raise InputError(
                    step.source or "",
                    f"{where}: AgentScope refused the group",
                    [Problem(item, f"AgentScope says: {exc}")],
                ) from None
        return built

    # -- queries -------------------------------------------------------------
    def known_groups(self) -> tuple[str, ...]:
        """Registered non-basic groups now (script registrations included)."""
        return tuple(g.name for g in self.toolkit.tool_groups if g.name != "basic")

    def active_groups(self, lane: str) -> tuple[str, ...]:
        """The lane's activated_groups now."""
        return tuple(self.states[lane].tool_context.activated_groups)

    async def avisible(self, lane: str) -> tuple[tuple[str, ...], int]:
        """Tool names the model is offered in this lane now, and their token estimate."""
        schemas = await self.toolkit.get_tool_schemas(list(self.states[lane].tool_context.activated_groups))
        return tuple(s["function"]["name"] for s in schemas), estimate_tokens(schemas)

    # -- running -------------------------------------------------------------
    async def _call_lane(self, lane: Lane, step: CallStep) -> LaneTurn:
        from agentscope.message import ToolCallBlock

        state = self.states[lane]
        before = tuple(state.tool_context.activated_groups)
        snapshot_before = state.model_copy(deep=True)
        self._plans.clear()
        self.guard.last_input = None
        self.toolkit.builtin_meta_tool = self._guarded_meta if lane == "guarded" else self._stock_meta
        response = None
        try:
            block = ToolCallBlock(id=f"{lane}-{self.cursor + 1}", name="reset_tools", input=step.raw)
            async for item in self.toolkit.call_tool(block, state):
                response = item  # the last item is the accumulated ToolResponse
        finally:
            self.toolkit.builtin_meta_tool = self._stock_meta
        text = "".join(getattr(b, "text", "") for b in (response.content if response else []))
        response_state = response.state.value if response is not None else "error"
        names, tokens = await self.avisible(lane)
        return LaneTurn(
            lane=lane,
            call=step.raw,
            args=step.args,
            accepted=response_state == "success",
            response_state=response_state,
            response_text=clip(text),  # AgentScope echoes unknown names, however long
            groups_before=before,
            groups_after=tuple(state.tool_context.activated_groups),
            visible_tools=names,
            token_estimate=tokens,
            plan=self._plans[-1] if lane == "guarded" and self._plans else None,
            state_before=snapshot_before,
            state_after=state.model_copy(deep=True),
            received=_repaired(step.args, step.raw, self.guard.last_input) if lane == "guarded" else None,
        )

    def _register_group(self, step: RegisterGroupStep, script_index: int | None) -> Any:
        group = self._groups[script_index] if script_index is not None else make_spec_group(step.group)
        self.toolkit.tool_groups.append(group)  # the same list ResetTools and the guard read
        return group

    def _lane_state(self, lane_turn: LaneTurn, side: Side) -> Any:
        snapshot = lane_turn.state_before if side == "before" else lane_turn.state_after
        return snapshot.model_copy(deep=True)

    def _apply_registration(self, turn: Turn, side: Side) -> None:
        groups = self.toolkit.tool_groups
        if side == "before":
            groups[:] = [g for g in groups if g is not turn.group]  # in place: shared list
        elif not any(g is turn.group for g in groups):
            groups.append(turn.group)


def _repaired(args: dict[str, Any] | None, raw: str, received: dict[str, Any] | None) -> dict[str, Any] | None:
    """What the guard received, when it is not what the call carried (2.0.11 repairs calls)."""
    from .call_notes import call_args

    if received is None:
        return None
    written = call_args(args, raw)
    return None if written == received else dict(received)
