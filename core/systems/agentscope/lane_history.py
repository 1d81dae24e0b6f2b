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

__all__ = ["RECORDED", "LaneHistory", "LaneState", "RecordedSide", "recorded_states"]


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


RECORDED = "recorded"
"""The lane of what a recorded session did, as saved (the other lanes are what-ifs)."""


@dataclass(frozen=True)
class RecordedSide:
    """A recorded reset_tools call as a lane draws it (the fields a ``LaneTurn`` has)."""

    lane: str
    call: str
    accepted: bool
    response_state: str
    response_text: str
    groups_before: tuple[str, ...]
    groups_after: tuple[str, ...]
    groups_known: bool
    """The recording says which groups were active after the call (else: not recorded)."""
    model_turn: int
    plan: None = None


def recorded_states(replay: Any) -> tuple[LaneState, list[LaneState]]:
    """The recorded lane before any turn and after each turn of a ``SessionReplay``.

    The recording saves no tool list: ``visible`` stays empty (the stock lane replays it).
    """
    initial = LaneState(RECORDED, tuple(replay.starting_groups), (), 0)
    states = []
    for replayed in replay.turns:
        call = replayed.call
        after = replayed.recorded_after
        side = RecordedSide(
            RECORDED,
            call.raw_input or "",
            call.result_state == "success",
            call.result_state or "no result",
            call.result_text or "",
            tuple(replayed.recorded_before or ()),
            tuple(after or ()),
            after is not None,
            call.model_turn,
        )
        states.append(LaneState(RECORDED, side.groups_after, (), 0, side))
    return initial, states
