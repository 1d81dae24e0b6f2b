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


class AgentGroupsChanged(Message):
    """A followed running agent's real active groups changed (``inspect --follow``)."""

    def __init__(self, groups: tuple[str, ...]) -> None:
        self.groups = groups
        super().__init__()
