"""Replay a recorded session's ``reset_tools`` calls against a real toolkit, and find
the turn where a tool was lost.

Every recorded ``reset_tools`` call becomes a step-through turn: it goes through the
stock and the guarded lane of a ``StepSession`` exactly like a script step, and the
recorded result is kept beside the stock lane's (``differs`` says how they disagree:
the session was recorded on another AgentScope version, or the toolkit changed).

The *recorded* active groups after each turn (the recording's truth, not the replay's)
come from the tap's ``groups`` when present, else from the recorded result text in
AgentScope's default template ("The currently activated tool group(s): a, b." / "All
tool groups are currently deactivated."), else from the stock replay when it agrees; a
recorded non-success leaves the groups unchanged (what every version does on ERROR).

Other tools' calls are classified against the stock lane at that moment (``visible``,
``inactive_group``, ``not_in_toolkit``). A recorded failure ("doesn't exist" /
"inactive") of a tool whose group the recording had turned off is linked to the turn
that removed the group: the lost-tool link, the headline answer (``lost_tools.py``).

Public API::

    await areplay_session(built, recorded, starting_from) -> SessionReplay
    starting_point(built, recorded, groups_given) -> (built, starting_from)
    replay_session(built, recorded, groups_given=False) -> SessionReplay (sync)
    SessionReplay: .turns, .others, .links, .diverged, .headline() -> list[str], .to_json()
"""

from __future__ import annotations

import contextvars
import dataclasses
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ...schemas.session_words import StartFrom
from .aio import checkpoint, run_sync
from .lost_tools import (
    LostToolLink,
    OtherCall,
    ReplayedTurn,
    Visibility,
    classify_calls,
)
from .recorded import RecordedCall, RecordedSession
from .script import CallStep
from .session import StepSession, Turn

if TYPE_CHECKING:
    from .v1.session import StepSessionV1

__all__ = [
    "REPLAY_PROGRESS",
    "LostToolLink",
    "OtherCall",
    "Progress",
    "ReplayedTurn",
    "SessionReplay",
    "StartFrom",
    "Visibility",
    "areplay_session",
    "groups_from_text",
    "replay_session",
    "starting_point",
]

_ACTIVE_TEXT = re.compile(r"^The currently activated tool group\(s\): (.*)\.$")
_NONE_TEXT = "All tool groups are currently deactivated."


def groups_from_text(text: str | None) -> tuple[str, ...] | None:
    """The active groups as AgentScope's default response template states them."""
    first = (text or "").split("\n", 1)[0].strip()
    if first == _NONE_TEXT:
        return ()
    match = _ACTIVE_TEXT.match(first)
    return tuple(g.strip() for g in match.group(1).split(",")) if match else None


def _short(text: str | None) -> str:
    first = (text or "").split("\n", 1)[0]
    return first if len(first) <= 90 else first[:89] + "…"


@dataclass
class SessionReplay:
    """A recorded session replayed: turns, the other calls, the lost-tool links."""

    recorded: RecordedSession
    session: StepSession | StepSessionV1
    starting_groups: tuple[str, ...]
    starting_from: StartFrom
    turns: list[ReplayedTurn]
    others: list[OtherCall]
    links: list[LostToolLink]
    groups_option_ignored: bool = False
    """--groups was given, but the session records its own starting groups (which win)."""

    @property
    def diverged(self) -> list[ReplayedTurn]:
        """Turns where the stock replay disagrees with the recording."""
        return [t for t in self.turns if t.differs]

    def headline(self) -> list[str]:
        """The answer first: one line per lost-tool link (and its guarded lane)."""
        lines = []
        for link in self.links:
            lines.append(link.summary())
            guarded = link.guarded()
            if guarded:
                lines.append("  " + guarded)
        return lines

    def to_json(self) -> dict[str, Any]:
        """The ``session`` block of ``step --json``."""
        rec = self.recorded
        return {
            "source": {"path": rec.source, "kind": rec.kind, "session_id": rec.session_id},
            "agentscope_version": rec.agentscope_version,
            "starting_groups": {"groups": list(self.starting_groups), "from": self.starting_from},
            "recorded_final_groups": list(rec.final_groups) if rec.final_groups is not None else None,
            "model_turns": rec.model_turns,
            "turns": [
                {
                    "turn": t.index,
                    "model_turn": t.call.model_turn,
                    "call": t.call.shown_input,
                    "assistant_text": t.call.assistant_text,
                    "recorded": {
                        "state": t.call.result_state,
                        "text": t.call.result_text,
                        "groups_after": list(t.recorded_after) if t.recorded_after is not None else None,
                    },
                    "stock_matches_recording": t.differs is None,
                    "difference": t.differs,
                    "note": t.call.note,
                }
                for t in self.turns
            ],
            "other_calls": [
                {
                    "position": o.call.position,
                    "model_turn": o.call.model_turn,
                    "tool": o.call.name,
                    "recorded_state": o.call.result_state,
                    "failure": o.call.failure,
                    "after_turn": o.after_turn,
                    "group": o.group,
                    "visibility": o.visibility,
                    "lost_to_turn": o.lost_to,
                }
                for o in self.others
            ],
            "diverged_turns": [t.index for t in self.diverged],
            "lost_tool_links": [link.to_json() for link in self.links],
            "headline": self.headline(),
            "notes": list(rec.notes),
        }


def _label(call: RecordedCall) -> str:
    """How a recorded call reads in the turn list: its model turn, the call, what was recorded."""
    return f"turn {call.model_turn}: reset_tools {call.shown_input}  [recorded: {call.result_state or 'no result'}]"


def _difference(call: RecordedCall, turn: Turn) -> str | None:
    stock = turn.stock
    assert stock is not None
    recorded_state = call.result_state or "(none)"
    if call.groups_after is not None:  # the tap: compare state and the real groups
        if recorded_state == stock.response_state and tuple(call.groups_after) == stock.groups_after:
            return None
        return (
            f"recorded {recorded_state} with groups [{', '.join(call.groups_after)}]; "
            f"the stock lane now returns {stock.response_state} with [{', '.join(stock.groups_after)}]"
        )
    if recorded_state == stock.response_state and (call.result_text or "") == stock.response_text:
        return None
    return (
        f"recorded {recorded_state} '{_short(call.result_text)}'; "
        f"the stock lane now returns {stock.response_state} '{_short(stock.response_text)}'"
    )


Progress = Callable[[int, int], None]
"""Called as ``progress(done, total)`` while a replay runs (the CLI shows it on stderr)."""

REPLAY_PROGRESS: contextvars.ContextVar[Progress | None] = contextvars.ContextVar("replay_progress", default=None)
"""Where ``replay_session`` reports progress when not given ``progress=`` (set by the CLI command)."""


async def areplay_session(
    built: Any, recorded: RecordedSession, starting_from: StartFrom, progress: Progress | None = None
) -> SessionReplay:
    """Replay every reset_tools call on both lanes; classify the other calls; link the losses.

    Cancellable between turns (``checkpoint``); ``progress(done, total)`` after each turn.
    A 1.x toolkit (``v1.build.BuiltToolkitV1``) is replayed by ``v1.replay``.
    """
    from .v1.build import BuiltToolkitV1

    if isinstance(built, BuiltToolkitV1):
        from .v1.replay import areplay_session_v1

        return await areplay_session_v1(built, recorded, starting_from)
    from . import meta_tool_cache
    from .stages import acollect

    meta_tool_cache.install()  # a replay calls the meta tool once per turn: compile its template once
    collected = await acollect(built.toolkit)
    group_of = {e.name: e.group for e in collected.entries}
    starting = tuple(built.state.tool_context.activated_groups)
    resets = recorded.resets
    session = StepSession(built, [CallStep(raw=c.raw_input or "", label=_label(c)) for c in resets])
    turns: list[ReplayedTurn] = []
    recorded_groups: tuple[str, ...] | None = recorded.initial_groups or starting
    for index, call in enumerate(resets, start=1):
        await checkpoint()  # Ctrl-C / quitting the TUI cancels a long replay here
        turn = await session.aforward()
        assert turn is not None and turn.stock is not None
        differs = _difference(call, turn)
        before = recorded_groups
        if call.groups_after is not None:
            after: tuple[str, ...] | None = call.groups_after
        elif call.result_state not in ("success", None):
            after = before
        else:
            after = groups_from_text(call.result_text)
            if after is None and differs is None:
                after = turn.stock.groups_after
        turns.append(ReplayedTurn(index, call, turn, before, after, differs))
        recorded_groups = after
        if progress is not None:
            progress(index, len(resets))

    others, links = classify_calls(recorded, turns, group_of, starting, session.known_groups())
    return SessionReplay(recorded, session, starting, starting_from, turns, others, links)


def starting_point(built: Any, recorded: RecordedSession, groups_given: bool) -> tuple[Any, StartFrom]:
    """The session's own starting groups when it records them, else --groups, else the toolkit's.

    Returns a BuiltToolkit whose state starts there (a copy: the caller's is not touched).
    AgentScope ignores group names it doesn't know; so does the replay. A 1.x session never
    records its starting groups (``v1/sessions.py``).
    """
    if recorded.initial_groups is None:
        return built, "--groups" if groups_given else "toolkit"
    state = built.state.model_copy(deep=True)
    state.tool_context.activated_groups[:] = list(recorded.initial_groups)
    return dataclasses.replace(built, state=state), "session"


def replay_session(
    built: Any, recorded: RecordedSession, groups_given: bool = False, progress: Progress | None = None
) -> SessionReplay:
    """Pick the starting point and replay (sync, for the CLI and the report)."""
    start_built, starting_from = starting_point(built, recorded, groups_given)
    sink = progress if progress is not None else REPLAY_PROGRESS.get()
    replay = run_sync(areplay_session(start_built, recorded, starting_from, sink))
    replay.groups_option_ignored = groups_given and starting_from == "session"
    return replay
