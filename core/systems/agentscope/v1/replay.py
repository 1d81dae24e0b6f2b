"""Replay a recorded AgentScope 1.x session on both lanes and find where a tool was lost.

Like ``..session_replay`` (whose ``SessionReplay`` it returns), with 1.x's own truths:

- the recorded groups after each ``reset_equipped_tools`` call follow from its reply and
  1.x's contract (PR #962: every call sets the final state, after clearing every group):
  ``Now tool groups 'a', 'b' are activated.`` → the named groups that exist (a misspelled
  name activates nothing, whatever the reply claims); ``Invalid arguments …`` → none;
  ``All tool groups are now deactivated currently.`` → none;
- the starting groups are never saved: they are assumed (``--groups``, else the toolkit's
  own flags), and the replay says so;
- failures are 1.x's texts (``FunctionInactiveError``, ``FunctionNotFoundError``).

Public API::

    groups_from_text_v1(text, known) -> tuple[str, ...] | None
    await areplay_session_v1(built, recorded, starting_from) -> SessionReplay
"""

from __future__ import annotations

import json
import re
from typing import Any

from ....schemas.session_words import StartFrom
from ..lost_tools import ReplayedTurn, classify_calls
from ..recorded import RecordedSession
from ..script import CallStep
from ..session_replay import SessionReplay, _difference
from .build import META, BuiltToolkitV1
from .session import StepSessionV1
from .sessions import FAILURE_WORDS_V1, STARTING_ASSUMED

_ACTIVATED = re.compile(r"^Now tool groups (.*) are activated\.")
_NONE = "All tool groups are now deactivated currently."


def groups_from_text_v1(text: str | None, known: tuple[str, ...]) -> tuple[str, ...] | None:
    """The groups really on after a 1.x reply (None when the text is not 1.x's)."""
    first = (text or "").split("\n", 1)[0].strip()
    if first.startswith(_NONE) or first.startswith("Invalid arguments"):
        return ()
    match = _ACTIVATED.match(first)
    if not match:
        return None
    inner = match.group(1)
    if not (inner.startswith("'") and inner.endswith("'")):
        return None
    named = inner[1:-1].split("', '")
    return tuple(g for g in dict.fromkeys(named) if g in known)


def _label(call: Any) -> str:
    return f"turn {call.model_turn}: {META} {call.shown_input}  [recorded: {'reply' if call.result_state else 'no result'}]"


async def areplay_session_v1(
    built: BuiltToolkitV1, recorded: RecordedSession, starting_from: StartFrom
) -> SessionReplay:
    """Replay every reset_equipped_tools call on both lanes; classify the rest; link the losses."""
    toolkit = built.toolkit
    group_of = {name: tool.group for name, tool in toolkit.tools.items()}
    starting = tuple(built.initial_groups)
    resets = recorded.resets
    steps = []
    for call in resets:
        args = json.loads(call.raw_input or "{}")
        steps.append(
            CallStep(raw=call.raw_input or "{}", args=args if isinstance(args, dict) else {}, label=_label(call))
        )
    session = StepSessionV1(built, steps, start=starting)
    known = tuple(toolkit.groups)
    turns: list[ReplayedTurn] = []
    current: tuple[str, ...] | None = starting
    for index, call in enumerate(resets, start=1):
        turn = await session.aforward()
        assert turn is not None and turn.stock is not None
        differs = _difference(call, turn)
        after = groups_from_text_v1(call.result_text, known) if call.result_state else current
        if after is None and differs is None:
            after = turn.stock.groups_after
        turns.append(ReplayedTurn(index, call, turn, current, after, differs))
        current = after
    others, links = classify_calls(recorded, turns, group_of, starting, known, failure_words=FAILURE_WORDS_V1)
    shown = json.dumps(list(starting))
    where = {"--groups": "--groups", "toolkit": "the toolkit's own flags", "session": "the session"}[starting_from]
    notes = (STARTING_ASSUMED.format(start=f"{shown} ({where})"),)
    replay = SessionReplay(recorded, session, starting, starting_from, turns, others, links)  # type: ignore[arg-type]
    replay.recorded = _with_notes(recorded, notes)
    return replay


def _with_notes(recorded: RecordedSession, notes: tuple[str, ...]) -> RecordedSession:
    import dataclasses

    return dataclasses.replace(recorded, notes=(*recorded.notes, *notes))
