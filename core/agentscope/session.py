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
back drops the turns ahead (like undo/redo). States in turns are deep copies.

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

from collections.abc import Mapping, Sequence
from typing import Any, Literal

from ..model.errors import InputError, Problem
from ..text.clip import clip
from .aio import run_sync
from .planner import ActivationPlan
from .script import (
    CallStep,
    RegisterGroupStep,
    Step,
    call_step,
)
from .spec import BuiltToolkit, make_spec_group
from .turns import (
    LANES,
    Lane,
    LaneTurn,
    Turn,
    estimate_tokens,
    session_json,
)

__all__ = ["LANES", "Lane", "LaneTurn", "StepSession", "Turn", "estimate_tokens"]


class SessionRunner:
    """What both sessions (2.x ``StepSession``, 1.x ``v1.session.StepSessionV1``) build on their
    async steps: running to the end, the sync wrappers the CLI uses, and the ``step --json`` body."""

    @property
    def history(self) -> list[Turn]:  # pragma: no cover - each session defines it
        raise NotImplementedError

    async def aforward(self) -> Turn | None:  # pragma: no cover - each session defines it
        raise NotImplementedError

    async def acall(self, value: str | Mapping[str, Any], label: str | None = None) -> Turn:  # pragma: no cover
        raise NotImplementedError

    async def avisible(self, lane: str) -> tuple[tuple[str, ...], int]:  # pragma: no cover
        raise NotImplementedError

    async def arun_all(self) -> list[Turn]:
        """Run (or redo) every remaining step; returns the history."""
        while await self.aforward() is not None:
            pass
        return self.history

    def call(self, value: str | Mapping[str, Any], label: str | None = None) -> Turn:
        """Sync ``acall``: an ad-hoc reset_tools call on both lanes."""
        return run_sync(self.acall(value, label))

    def forward(self) -> Turn | None:
        """Sync ``aforward``: redo a turn or run the next script step; None at the end."""
        return run_sync(self.aforward())

    def run_all(self) -> list[Turn]:
        """Sync ``arun_all``: run every remaining step; returns the history."""
        return run_sync(self.arun_all())

    def visible(self, lane: str) -> tuple[tuple[str, ...], int]:
        """Sync ``avisible``: the lane's offered tool names and their token estimate."""
        return run_sync(self.avisible(lane))

    def to_json(self) -> dict[str, Any]:
        """Lanes as lists of call turns plus the registration events (``step --json`` body)."""
        return session_json(self.history)


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
        self.steps: list[Step] = list(steps)
        self._initial = built.state.model_copy(deep=True)
        self.states: dict[str, Any] = {lane: self._initial.model_copy(deep=True) for lane in LANES}
        self._plans: list[ActivationPlan] = []
        self.guard = GroupActivationGuard(known_group_reader(self.toolkit), observer=self._plans.append)
        self._stock_meta = self.toolkit.builtin_meta_tool
        self._guarded_meta = build_guarded_meta_tool(self.toolkit, self.guard)
        self._records: list[Turn] = []  # executed turns, including undone ones (redo)
        self.cursor = 0
        self._script_pos: list[int] = [0]  # script position after each cursor value
        self._groups = self._prepare_groups()

    # -- setup ---------------------------------------------------------------
    def _prepare_groups(self) -> dict[int, Any]:
        """Build register_group steps' ToolGroups up front, so bad steps fail at load."""
        names = set(g.name for g in self.toolkit.tool_groups)
        built = {}
        for index, step in enumerate(self.steps):
            if not isinstance(step, RegisterGroupStep):
                continue
            # Named like the script's own errors: its file, then the step (1-based) and the
            # item's place in the document ([0] is the first item).
            where = f"script step {index + 1} (register_group)"
            item = f"[{step.position if step.position is not None else index}].register_group"
            source = step.source or ""
            if step.group.name in names:
                raise InputError(
                    source,
                    f"{where}: group '{step.group.name}' already exists",
                    [Problem(f"{item}.name", "AgentScope group names must be unique ('basic' is reserved)")],
                )
            try:
                built[index] = make_spec_group(step.group)
            except ValueError as exc:
                raise InputError(
                    source, f"{where}: AgentScope refused the group", [Problem(item, f"AgentScope says: {exc}")]
                ) from None
            names.add(step.group.name)
        return built

    # -- queries -------------------------------------------------------------
    @property
    def history(self) -> list[Turn]:
        """The turns up to the cursor (what the lanes currently reflect)."""
        return self._records[: self.cursor]

    @property
    def at_end(self) -> bool:
        """No recorded turn to redo and no script step left."""
        return self.cursor >= len(self._records) and self._script_pos[-1] >= len(self.steps)

    @property
    def script_position(self) -> int:
        """How many script steps the lanes reflect now (0 = none run)."""
        return self._script_pos[self.cursor]

    def next_step(self) -> str | None:
        """What ``forward`` would do next (redo a turn or run a script step); None at the end."""
        if self.cursor < len(self._records):
            return f"redo turn {self.cursor + 1}: {self._records[self.cursor].description}"
        pos = self._script_pos[self.cursor]
        return self.steps[pos].describe() if pos < len(self.steps) else None

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

    async def _run_step(self, step: Step, script_index: int | None) -> Turn:
        index = self.cursor + 1
        if isinstance(step, RegisterGroupStep):
            group = self._groups[script_index] if script_index is not None else make_spec_group(step.group)
            self.toolkit.tool_groups.append(group)  # the same list ResetTools and the guard read
            return Turn(index, "register_group", step.describe(), group=group, group_name=step.group.name)
        lanes: dict[str, LaneTurn] = {lane: await self._call_lane(lane, step) for lane in LANES}
        return Turn(index, "call", step.describe(), lanes=lanes)

    def _push(self, turn: Turn, script_pos: int) -> Turn:
        del self._records[self.cursor :]
        del self._script_pos[self.cursor + 1 :]
        self._records.append(turn)
        self._script_pos.append(script_pos)
        self.cursor += 1
        return turn

    async def acall(self, value: str | Mapping[str, Any], label: str | None = None) -> Turn:
        """An ad-hoc reset_tools call on both lanes (the TUI composer); drops redo turns."""
        step = call_step(value if isinstance(value, str) else dict(value), label)
        turn = await self._run_step(step, None)
        return self._push(turn, self._script_pos[self.cursor])

    async def aforward(self) -> Turn | None:
        """Redo the next recorded turn, or run the next script step; None at the end."""
        if self.cursor < len(self._records):
            turn = self._records[self.cursor]
            self._apply(turn, "after")
            self.cursor += 1
            return turn
        pos = self._script_pos[self.cursor]
        if pos >= len(self.steps):
            return None
        turn = await self._run_step(self.steps[pos], pos)
        return self._push(turn, pos + 1)

    def back(self) -> Turn | None:
        """Undo the last turn (state snapshots restored, a registered group removed)."""
        if self.cursor == 0:
            return None
        turn = self._records[self.cursor - 1]
        self._apply(turn, "before")
        self.cursor -= 1
        return turn

    def reset(self) -> None:
        """Back to the start (recorded turns stay available for forward)."""
        while self.back() is not None:
            pass

    def _apply(self, turn: Turn, side: Literal["before", "after"]) -> None:
        if turn.kind == "register_group":
            groups = self.toolkit.tool_groups
            if side == "before":
                groups[:] = [g for g in groups if g is not turn.group]  # in place: shared list
            elif not any(g is turn.group for g in groups):
                groups.append(turn.group)
            return
        for lane, lane_turn in turn.lanes.items():
            snapshot = lane_turn.state_before if side == "before" else lane_turn.state_after
            self.states[lane] = snapshot.model_copy(deep=True)


def _repaired(args: dict[str, Any] | None, raw: str, received: dict[str, Any] | None) -> dict[str, Any] | None:
    """What the guard received, when it is not what the call carried (2.0.11 repairs calls)."""
    from .call_notes import call_args

    if received is None:
        return None
    written = call_args(args, raw)
    return None if written == received else dict(received)
