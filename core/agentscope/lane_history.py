"""What each lane of a step-through session shows at each turn, as plain data.

A ``LaneState`` is one lane's side of a turn, or its state before any turn; ``LaneHistory``
answers "what does lane L show at turn i" from a session's history and the lanes' initial
states (a group registration changes no lane's groups: the lane stays as the turn before
left it). Front ends draw from these; any source of turns (a script, a replayed session,
a followed agent) feeds them alike.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["LaneHistory", "LaneState"]


@dataclass(frozen=True)
class LaneState:
    """What one lane shows: its side of a turn (or none: the state before any turn)."""

    lane: str
    active: tuple[str, ...]
    """The lane's active groups after the turn."""
    visible: tuple[str, ...]
    """Tool names the model is offered after the turn."""
    tokens: int
    """Token estimate of those tools' schemas."""
    turn: Any = None
    """The lane's ``LaneTurn`` (call, response, groups before/after, plan), if this was a call."""
    event: str | None = None
    """For a turn that was not a call (a group registration): what happened."""

    @classmethod
    def of_turn(cls, lane_turn: Any) -> LaneState:
        """A lane's side of a call turn."""
        return cls(lane_turn.lane, lane_turn.groups_after, lane_turn.visible_tools, lane_turn.token_estimate, lane_turn)


@dataclass(frozen=True)
class LaneHistory:
    """Each lane's state at each turn of ``history`` (a session's ``Turn`` list)."""

    history: Sequence[Any]
    initial: Mapping[str, LaneState]
    """Each lane before any turn."""

    def state(self, lane: str, index: int | None) -> LaneState:
        """What ``lane`` shows for turn ``index`` of the history (None: before any turn)."""
        # Walk back to the newest call turn at or before ``index`` (registrations keep the groups).
        events: list[str] = []
        position = index if self.history else None
        while position is not None and position >= 0:
            turn = self.history[position]
            if turn.kind == "call":
                state = LaneState.of_turn(turn.lanes[lane])
                break
            events.append(turn.description)
            position -= 1
        else:
            state = self.initial[lane]
        if events:
            # The shown turn was a registration: the lane as the turn before left it, with the event.
            return LaneState(lane, state.active, state.visible, state.tokens, event=events[0])
        return state
