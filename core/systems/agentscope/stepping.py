"""The history both step-through sessions keep: a cursor over recorded turns, undo and redo.

The 2.x ``session.StepSession`` and the 1.x ``v1.session.StepSessionV1`` run their turns
differently (2.x: one ``AgentState`` per lane, ``call_tool``; 1.x: one ``state_dict`` per lane
loaded into the shared Toolkit, ``call_tool_function``), but they step through a script the
same way. ``SessionRunner`` holds that part once: the turns recorded so far, the cursor, the
script position after each turn, ``aforward``/``back``/``reset``, a manual ``acall`` dropping
the turns ahead (like undo/redo), the sync wrappers the CLI uses and the ``step --json`` body.

A session supplies five pieces: ``_call_lane`` (one call on one lane), ``_register_group``
(a ``register_group`` step on its toolkit), ``_lane_state``
(a lane's state as a turn recorded it, before or after), ``_apply_registration`` (undo or
redo a ``register_group`` turn on its toolkit) and ``avisible``; ``describe_step`` names a
step in ``next_step``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Literal

from ...model.errors import InputError, Problem
from .aio import run_sync
from .script import CallStep, RegisterGroupStep, Step, call_step
from .turns import LANES, Lane, LaneTurn, Turn, session_json

Side = Literal["before", "after"]


class SessionRunner:
    """Recorded turns, the cursor over them and the script position; what both sessions share."""

    states: dict[str, Any]
    """Each lane's activation state now, in the session's own form."""

    def _start_history(self, steps: Sequence[Step]) -> None:
        """No turn recorded yet; the script starts at its first step."""
        self.steps: list[Step] = list(steps)
        self._records: list[Turn] = []  # executed turns, including undone ones (redo)
        self.cursor = 0
        self._script_pos: list[int] = [0]  # script position after each cursor value

    # -- what each session supplies --------------------------------------------
    async def _call_lane(self, lane: Lane, step: CallStep) -> LaneTurn:  # pragma: no cover - per session
        """Run a meta-tool call on one lane; the lane's state moves on."""
        raise NotImplementedError

    def _register_group(self, step: RegisterGroupStep, script_index: int | None) -> Any:  # pragma: no cover
        """Register the step's group on the toolkit; returns what ``Turn.group`` keeps to undo it."""
        raise NotImplementedError

    def _lane_state(self, lane_turn: LaneTurn, side: Side) -> Any:  # pragma: no cover - per session
        """The lane's state as ``lane_turn`` recorded it, ready to become ``states[lane]``."""
        raise NotImplementedError

    def _apply_registration(self, turn: Turn, side: Side) -> None:  # pragma: no cover - per session
        """Take a ``register_group`` turn's group out (``before``) or put it back (``after``)."""
        raise NotImplementedError

    async def avisible(self, lane: str) -> tuple[tuple[str, ...], int]:  # pragma: no cover - per session
        """Tool names the model is offered in this lane now, and their token estimate."""
        raise NotImplementedError

    def describe_step(self, step: Step) -> str:
        """The step as one line (1.x names its own meta tool)."""
        return step.describe()

    # -- checks ----------------------------------------------------------------
    def _registrations(self, taken: set[str]) -> Iterator[tuple[int, RegisterGroupStep, str, str]]:
        """Each register_group step as ``(index, step, where, item)``, refusing a name already taken.

        Named like the script's own errors: ``where`` is the step (1-based), ``item`` the
        item's place in the document (``[0]`` is the first item). ``taken`` grows as it goes.
        """
        for index, step in enumerate(self.steps):
            if not isinstance(step, RegisterGroupStep):
                continue
            where = f"script step {index + 1} (register_group)"
            item = f"[{step.position if step.position is not None else index}].register_group"
            if step.group.name in taken:
                raise InputError(
                    step.source or "",
                    f"{where}: group '{step.group.name}' already exists",
                    [Problem(f"{item}.name", "AgentScope group names must be unique ('basic' is reserved)")],
                )
            yield index, step, where, item
            taken.add(step.group.name)

    # -- queries ---------------------------------------------------------------
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
        return self.describe_step(self.steps[pos]) if pos < len(self.steps) else None

    # -- stepping --------------------------------------------------------------
    def _push(self, turn: Turn, script_pos: int) -> Turn:
        del self._records[self.cursor :]
        del self._script_pos[self.cursor + 1 :]
        self._records.append(turn)
        self._script_pos.append(script_pos)
        self.cursor += 1
        return turn

    async def _run_step(self, step: Step, script_index: int | None) -> Turn:
        """Run ``step`` on both lanes (``script_index``: its place in the script; None ad hoc)."""
        index = self.cursor + 1
        if isinstance(step, RegisterGroupStep):
            group = self._register_group(step, script_index)
            return Turn(index, "register_group", step.describe(), group=group, group_name=step.group.name)
        lanes: dict[str, LaneTurn] = {lane: await self._call_lane(lane, step) for lane in LANES}
        return Turn(index, "call", self.describe_step(step), lanes=lanes)

    async def acall(self, value: str | Mapping[str, Any], label: str | None = None) -> Turn:
        """An ad-hoc meta-tool call on both lanes (the TUI composer); drops redo turns."""
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
        """Undo the last turn (lane states restored, a registered group removed)."""
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

    def _apply(self, turn: Turn, side: Side) -> None:
        if turn.kind == "register_group":
            self._apply_registration(turn, side)
            return
        for lane, lane_turn in turn.lanes.items():
            self.states[lane] = self._lane_state(lane_turn, side)

    async def arun_all(self) -> list[Turn]:
        """Run (or redo) every remaining step; returns the history."""
        while await self.aforward() is not None:
            pass
        return self.history

    # -- sync wrappers for the CLI ---------------------------------------------
    def call(self, value: str | Mapping[str, Any], label: str | None = None) -> Turn:
        """Sync ``acall``: an ad-hoc meta-tool call on both lanes."""
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
