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
that removed the group: the lost-tool link, the headline answer.

Public API::

    await areplay_session(built, recorded, starting_from) -> SessionReplay
    starting_point(built, recorded, groups_given) -> (built, starting_from)
    replay_session(built, recorded, groups_given=False) -> SessionReplay (sync)
    SessionReplay: .turns, .others, .links, .diverged, .headline() -> list[str], .to_json()
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from typing import Any, Literal

from toolscope.core.agentscope.aio import run_sync
from toolscope.core.agentscope.recorded import RecordedCall, RecordedSession
from toolscope.core.agentscope.script import CallStep
from toolscope.core.agentscope.session import StepSession, Turn

StartFrom = Literal["session", "--groups", "toolkit"]
Visibility = Literal["visible", "inactive_group", "not_in_toolkit"]
_ACTIVE_TEXT = re.compile(r"^The currently activated tool group\(s\): (.*)\.$")
_NONE_TEXT = "All tool groups are currently deactivated."
FAILURE_WORDS = {"not_found": "'doesn't exist'", "inactive_group": "'is currently inactive'"}


@dataclass(frozen=True)
class ReplayedTurn:
    """One recorded reset_tools call and its replay on both lanes."""

    index: int
    call: RecordedCall
    turn: Turn
    recorded_before: tuple[str, ...] | None
    recorded_after: tuple[str, ...] | None
    differs: str | None
    """How the stock replay disagrees with the recording (None: it agrees)."""


@dataclass(frozen=True)
class OtherCall:
    """A call to another tool, between turns."""

    call: RecordedCall
    after_turn: int | None
    """The step-through turn before it (None: before the first reset_tools call)."""
    group: str | None
    visibility: Visibility
    """Per the replayed stock lane at that moment."""
    lost_to: int | None = None
    """The turn that removed its group (the link), when the recorded failure is explained by one."""
    never_activated: bool = False


@dataclass(frozen=True)
class LostToolLink:
    """A turn that removed groups, and the later calls that failed because of it."""

    turn: ReplayedTurn | None
    """None: the group was never active in the recording."""
    removed: tuple[str, ...]
    calls: tuple[OtherCall, ...]
    remaining: tuple[str, ...] = ()
    """Registered groups still active after the turn, per the recording."""

    def summary(self) -> str:
        """The headline sentence, e.g. turn 14: reset_tools(...) cleared a and b; turns 15–17 then called x and got 'doesn't exist'."""
        tools = _tool_phrase(self.calls)
        failures = sorted({FAILURE_WORDS[c.call.failure] for c in self.calls if c.call.failure})
        got = " or ".join(failures) if failures else "an error"
        turns = _turn_range([c.call.model_turn for c in self.calls])
        if self.turn is None:
            group_names = _and(sorted({c.group for c in self.calls if c.group}))
            return f"{turns} called {tools} and got {got}: group {group_names} was never activated in this session"
        # "cleared": no registered group is left (2.0.6 keeps a misspelled name, which activates nothing).
        verb = "cleared" if not self.remaining else "deactivated"
        return (
            f"turn {self.turn.call.model_turn}: reset_tools({self.turn.call.raw_input}) {verb} {_and(self.removed)}; "
            f"{turns} then called {tools} and got {got}"
        )

    def guarded(self) -> str | None:
        """What the guard did with the same call (None when the guard never ran)."""
        if self.turn is None:
            return None
        lane = self.turn.turn.guarded
        if lane is None or lane.plan is None:
            return None
        verdict = "would have refused it" if not lane.plan.accepted else "would have accepted it"
        return f"guarded lane at turn {self.turn.call.model_turn}: the guard {verdict}. {lane.plan.summary()}"

    def to_json(self) -> dict[str, Any]:
        """The link: the removing turn, the groups, the failed calls and the sentences."""
        return {
            "turn": self.turn.index if self.turn else None,
            "model_turn": self.turn.call.model_turn if self.turn else None,
            "call": self.turn.call.raw_input if self.turn else None,
            "removed_groups": list(self.removed),
            "tools": sorted({c.call.name for c in self.calls}),
            "failed_calls": [c.call.position for c in self.calls],
            "failed_model_turns": [c.call.model_turn for c in self.calls],
            "summary": self.summary(),
            "guarded": self.guarded(),
        }


def _and(items: Any) -> str:
    items = list(items)
    if not items:
        return "(no group)"
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _turn_range(turns: list[int]) -> str:
    unique = sorted(set(turns))
    if len(unique) == 1:
        return f"turn {unique[0]}"
    if unique == list(range(unique[0], unique[-1] + 1)):
        return f"turns {unique[0]}–{unique[-1]}"
    return "turns " + ", ".join(map(str, unique))


def _tool_phrase(calls: tuple[OtherCall, ...]) -> str:
    names = list(dict.fromkeys(c.call.name for c in calls))
    return _and(names)


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
    session: StepSession
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
                    "call": t.call.raw_input,
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
    return f"turn {call.model_turn}: reset_tools {call.raw_input}  [recorded: {call.result_state or 'no result'}]"


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


async def areplay_session(built: Any, recorded: RecordedSession, starting_from: StartFrom) -> SessionReplay:
    """Replay every reset_tools call on both lanes; classify the other calls; link the losses."""
    from toolscope.core.agentscope.stages import acollect

    collected = await acollect(built.toolkit)
    group_of = {e.name: e.group for e in collected.entries}
    starting = tuple(built.state.tool_context.activated_groups)
    resets = recorded.resets
    session = StepSession(built, [CallStep(raw=c.raw_input or "", label=_label(c)) for c in resets])
    turns: list[ReplayedTurn] = []
    recorded_groups: tuple[str, ...] | None = recorded.initial_groups or starting
    for index, call in enumerate(resets, start=1):
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

    others, links = _classify(recorded, turns, group_of, starting, session.known_groups())
    return SessionReplay(recorded, session, starting, starting_from, turns, others, links)


def _classify(
    recorded: RecordedSession,
    turns: list[ReplayedTurn],
    group_of: dict[str, str],
    starting: tuple[str, ...],
    known: tuple[str, ...],
) -> tuple[list[OtherCall], list[LostToolLink]]:
    by_position = {t.call.position: t for t in turns}
    previous: ReplayedTurn | None = None
    others: list[OtherCall] = []
    for call in recorded.calls:
        if call.position in by_position:
            previous = by_position[call.position]
            continue
        stock_groups = previous.turn.stock.groups_after if previous and previous.turn.stock else starting
        group = group_of.get(call.name)
        if group is None:
            visibility: Visibility = "not_in_toolkit"
        elif group == "basic" or group in stock_groups:
            visibility = "visible"
        else:
            visibility = "inactive_group"
        lost_to, never = None, False
        if call.failure and group not in (None, "basic"):
            recorded_now = previous.recorded_after if previous else (recorded.initial_groups or starting)
            if recorded_now is not None and group not in recorded_now:
                lost_to = _remover(turns, previous, group)
                never = lost_to is None
        others.append(
            OtherCall(call, previous.index if previous else None, group, visibility, lost_to, never_activated=never)
        )
    links = []
    for turn in turns:
        failed = tuple(o for o in others if o.lost_to == turn.index)
        if failed:
            removed = tuple(g for g in (turn.recorded_before or ()) if g not in (turn.recorded_after or ()))
            remaining = tuple(g for g in (turn.recorded_after or ()) if g in known)
            links.append(LostToolLink(turn, removed, failed, remaining))
    never_calls = tuple(o for o in others if o.never_activated)
    if never_calls:
        links.append(LostToolLink(None, (), never_calls))
    return others, links


def _remover(turns: list[ReplayedTurn], upto: ReplayedTurn | None, group: str) -> int | None:
    """The last turn up to ``upto`` after which ``group`` went from active to inactive."""
    if upto is None:
        return None
    for turn in reversed(turns[: upto.index]):
        before, after = turn.recorded_before, turn.recorded_after
        if before is not None and after is not None and group in before and group not in after:
            return turn.index
        if after is not None and group in after:
            return None
    return None


def starting_point(built: Any, recorded: RecordedSession, groups_given: bool) -> tuple[Any, StartFrom]:
    """The session's own starting groups when it records them, else --groups, else the toolkit's.

    Returns a BuiltToolkit whose state starts there (a copy: the caller's is not touched).
    AgentScope ignores group names it doesn't know; so does the replay.
    """
    if recorded.initial_groups is None:
        return built, "--groups" if groups_given else "toolkit"
    state = built.state.model_copy(deep=True)
    state.tool_context.activated_groups[:] = list(recorded.initial_groups)
    return dataclasses.replace(built, state=state), "session"


def replay_session(built: Any, recorded: RecordedSession, groups_given: bool = False) -> SessionReplay:
    """Pick the starting point and replay (sync, for the CLI and the report)."""
    start_built, starting_from = starting_point(built, recorded, groups_given)
    replay = run_sync(areplay_session(start_built, recorded, starting_from))
    replay.groups_option_ignored = groups_given and starting_from == "session"
    return replay
