"""Follow a running agent through its tap: each new reset_tools call becomes a step-through turn.

``LiveFollow`` polls the tap file (``TapFollower``, read-only) and feeds a ``StepSession``:
every new ``reset_tools`` call is run on the stock and the guarded lane (``acall``, so the
activation view's turn list shows it like any turn), labelled with what really happened in
the agent (its result state and real groups). Other calls are kept with their name and
result state; a failed one whose group the agent had turned off is linked to the call that
did it (``lost``: the live headline). ``real_groups`` are the agent's active groups after
its last call: the pipeline view follows them.

The lanes start from the groups the tap saw first (the agent's real starting point); until
the agent writes its header they start from the toolkit's initial state.

Public API::

    LiveFollow(built, path)
    await follow.apoll() -> list[FollowEvent]     (new since the last poll; [] when nothing new)
    follow.session (StepSession | None), follow.real_groups, follow.others, follow.lost
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .recorded import RecordedCall
from .session import StepSession, Turn
from .tap_reader import TapFollower

FAILURE_TEXT = {"not_found": "doesn't exist", "inactive_group": "is currently inactive"}


@dataclass(frozen=True)
class FollowEvent:
    """One new call seen in the tap: a turn (reset_tools) or another tool's call."""

    call: RecordedCall
    turn: Turn | None = None
    lost: str | None = None
    """For a failed call of a tool whose group the agent had turned off: which call did it."""


def agent_outcome(call: RecordedCall) -> str:
    """What really happened in the agent: its result state and active groups."""
    groups = ", ".join(call.groups_after) if call.groups_after else "(none)"
    return f"agent: {call.result_state or '?'} → {groups}"


class LiveFollow:
    """A StepSession fed by a running agent's tap file."""

    def __init__(self, built: Any, path: Path | str) -> None:
        """Follow ``path`` (it may not exist yet) for the toolkit ``built``."""
        self.built = built
        self.path = Path(path)
        self.follower = TapFollower(path)
        self.session: StepSession | None = None
        self.real_groups: tuple[str, ...] | None = None
        self.others: list[FollowEvent] = []
        self.lost: list[str] = []
        self._resets: list[tuple[RecordedCall, tuple[str, ...]]] = []  # (call, real groups before it)
        self._group_of: dict[str, str] | None = None
        self._restarts = 0

    def _start(self) -> StepSession:
        groups = (self.follower.header or {}).get("groups")
        built = self.built
        if isinstance(groups, list):
            state = built.state.model_copy(deep=True)
            state.tool_context.activated_groups[:] = [str(g) for g in groups]
            built = dataclasses.replace(built, state=state)
            self.real_groups = tuple(str(g) for g in groups)
        return StepSession(built, ())

    async def apoll(self) -> list[FollowEvent]:
        """Read the tap's new records; run new reset_tools calls on both lanes."""
        calls = self.follower.poll()
        if self.follower.restarts != self._restarts:  # a new agent run rewrote the file: new lanes
            self._restarts = self.follower.restarts
            self.session, self.real_groups, self._resets = None, None, []
            self.others, self.lost = [], []
        if not calls and (self.session is not None or self.follower.header is None):
            return []
        session = await self._ready_session()
        while await session.aforward() is not None:  # back at the newest turn before adding one
            pass
        events = []
        for call in calls:
            events.append(await self._event(session, call, self.real_groups or ()))
            if call.groups_after is not None:
                self.real_groups = call.groups_after
        return events

    async def _ready_session(self) -> StepSession:
        """The lanes (started on the first records) and the toolkit's tool → group map (listed once)."""
        if self.session is None:
            self.session = self._start()
        if self._group_of is None:
            from . import meta_tool_cache
            from .stages import acollect

            meta_tool_cache.install()

            self._group_of = {e.name: e.group for e in (await acollect(self.built.toolkit)).entries}
        return self.session

    async def _event(self, session: StepSession, call: RecordedCall, before: tuple[str, ...]) -> FollowEvent:
        """A reset_tools call runs on both lanes; another call is kept, linked to the reset that lost it."""
        if call.is_reset:
            label = f"turn {call.model_turn}: reset_tools {call.shown_input}  [{agent_outcome(call)}]"
            turn = await session.acall(call.raw_input or "", label=label)
            self._resets.append((call, before))
            return FollowEvent(call, turn=turn)
        event = FollowEvent(call, lost=self._lost(call, before))
        if event.lost:
            self.lost.append(event.lost)
        self.others.append(event)
        return event

    def _lost(self, call: RecordedCall, groups_now: tuple[str, ...]) -> str | None:
        group = (self._group_of or {}).get(call.name)
        if not call.failure or group in (None, "basic") or group in groups_now:
            return None
        what = f"turn {call.model_turn}: {call.name} got '{FAILURE_TEXT[call.failure]}'"
        for reset, before in reversed(self._resets):
            after = reset.groups_after or ()
            if group in after:
                break
            if group in before:
                return (
                    f"{what}: group {group} was turned off at turn {reset.model_turn} by reset_tools({reset.raw_input})"
                )
        return f"{what}: its group {group} was never activated"
