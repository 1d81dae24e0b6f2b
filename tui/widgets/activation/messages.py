"""What the activation view tells its screen (the Pipeline view follows a lane or an agent)."""

from __future__ import annotations

from textual.message import Message


class StateChanged(Message):
    """The followed lane's active groups now (after a turn, an undo, a new script)."""

    def __init__(self, lane: str, groups: tuple[str, ...], turn: int) -> None:
        self.lane = lane
        self.groups = groups
        self.turn = turn
        """How many turns the lane's state reflects (0: the initial state)."""
        super().__init__()

    def moves_from(self, before: StateChanged | None) -> bool:
        """This state differs from ``before`` (None: nothing reported yet, the initial state shown)."""
        if before is None:
            return self.turn != 0
        return (before.lane, before.turn, before.groups) != (self.lane, self.turn, self.groups)

    @property
    def where(self) -> str:
        """``guarded lane, turn 2``, or ``back to the initial state``."""
        return f"{self.lane} lane, turn {self.turn}" if self.turn else "back to the initial state"


class AgentGroupsChanged(Message):
    """A followed running agent's real active groups changed (``inspect --follow``)."""

    def __init__(self, groups: tuple[str, ...]) -> None:
        self.groups = groups
        super().__init__()
