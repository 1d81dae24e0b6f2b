"""The activation view's lanes side by side, each drawn for the highlighted turn.

The board keeps each lane's state before any turn (measured on the shared loop) and asks
``core.systems.agentscope.lane_history`` what a lane shows at a turn; the view tells it which turn.
"""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.containers import Horizontal

from ....core.systems.agentscope.aio import on_shared_loop
from ....core.systems.agentscope.lane_history import RECORDED, LaneHistory, LaneState, recorded_states
from .lanes import RECORDED_SUMMARY, LanePane


class LaneBoard(Horizontal):
    """One ``LanePane`` per lane, left to right: the recording first when there is one."""

    def __init__(self, lanes: tuple[str, ...], *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.lanes = lanes
        self.initial: dict[str, LaneState] = {}
        """Each session lane before any turn (empty until measured)."""

    def compose(self) -> ComposeResult:
        for lane in self.lanes:
            yield LanePane(lane, id=f"{lane}-lane")

    async def measure_initial(self, session: Any) -> None:
        """Each session lane's state before any turn (what the lanes show until the first one)."""
        for lane in session.lanes:
            names, tokens = await on_shared_loop(session.avisible(lane))
            self.initial[lane] = LaneState(lane, session.active_groups(lane), names, tokens)

    def lane_state(self, session: Any, replay: Any, lane: str, index: int | None) -> LaneState:
        """What ``lane`` shows for turn ``index`` of the history (None: before any turn)."""
        if lane == RECORDED:
            if replay is None:  # the session is still being read and replayed
                return LaneState(RECORDED, (), (), 0)
            initial, states = recorded_states(replay)
            return initial if index is None or index >= len(states) else states[index]
        return LaneHistory(session.history, self.initial).state(lane, index)

    def show(
        self,
        session: Any,
        replay: Any,
        selected: int | None,
        probe_summary: str | None,
        details: bool | None,
        compact: bool,
    ) -> None:
        """Draw every lane for turn ``selected`` (None: before any turn)."""
        if not self.initial:
            return
        total = len(session.history)
        label = f"turn {selected + 1}/{total}" if selected is not None and total else "before any turn"
        if replay is not None and selected is not None and total:
            # One numbering: a replayed call is named by the model turn that made it.
            label = f"turn {replay.turns[selected].call.model_turn}"
        descriptions = {RECORDED: RECORDED_SUMMARY, "stock": probe_summary, "guarded": session.guard_description}
        for lane in self.lanes:
            pane = self.query_one(f"#{lane}-lane", LanePane)
            state = self.lane_state(session, replay, lane, selected)
            pane.show(state, descriptions[lane], details, label, compact, session.meta_tool)
