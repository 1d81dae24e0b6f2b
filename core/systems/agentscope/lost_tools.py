"""The lost-tool links of a replayed session: which turn removed a group, and which later
calls failed because of it (``session_replay.py`` builds them; the CLI, the report and the
TUI print them).

A recorded failure ("doesn't exist" / "is currently inactive") of a tool whose group the
*recording* had turned off is linked to the turn that did it; a group that was never active
in the recording gets a link without a turn. Other calls are classified against the
replayed stock lane at that moment.

Public API::

    ReplayedTurn, OtherCall, LostToolLink (.summary(), .guarded(), .to_json())
    classify_calls(recorded, turns, group_of, starting, known, failure_words=FAILURE_WORDS) -> (others, links)
    Visibility, FAILURE_WORDS
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ...schemas.session_words import Visibility
from .recorded import RecordedCall, RecordedSession
from .session import Turn

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
    words: Mapping[str, str] = field(default_factory=lambda: FAILURE_WORDS)
    """How the failures read (AgentScope 1.x: ``FunctionInactiveError`` / ``FunctionNotFoundError``)."""

    def summary(self) -> str:
        """The headline sentence, e.g. turn 14: reset_tools(...) cleared a and b; turns 15–17 then called x and got 'doesn't exist'."""
        tools = _tool_phrase(self.calls)
        failures = sorted({self.words[c.call.failure] for c in self.calls if c.call.failure})
        got = " or ".join(failures) if failures else "an error"
        turns = _turn_range([c.call.model_turn for c in self.calls])
        if self.turn is None:
            group_names = _and(sorted({c.group for c in self.calls if c.group}))
            return f"{turns} called {tools} and got {got}: group {group_names} was never activated in this session"
        # "cleared": no registered group is left (2.0.6 keeps a misspelled name, which activates nothing).
        verb = "cleared" if not self.remaining else "deactivated"
        return (
            f"turn {self.turn.call.model_turn}: {self.turn.call.name}({self.turn.call.shown_input}) {verb} {_and(self.removed)}; "
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
            "call": self.turn.call.shown_input if self.turn else None,
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


def classify_calls(
    recorded: RecordedSession,
    turns: list[ReplayedTurn],
    group_of: dict[str, str],
    starting: tuple[str, ...],
    known: tuple[str, ...],
    failure_words: Mapping[str, str] = FAILURE_WORDS,
) -> tuple[list[OtherCall], list[LostToolLink]]:
    """Classify every non-reset call; link recorded failures to the turn that removed their group."""
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
            links.append(LostToolLink(turn, removed, failed, remaining, failure_words))
    never_calls = tuple(o for o in others if o.never_activated)
    if never_calls:
        links.append(LostToolLink(None, (), never_calls, words=failure_words))
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
