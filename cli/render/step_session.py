"""``toolscope step TOOLKIT --session SESSION``, rendered: a recorded AgentScope session, replayed.

The answer first (the lost-tool links and what the guard would have done), then the
header (which source, which version recorded it, where the starting groups came from,
whether the stock replay agrees with the recording), then one row per reset_tools turn
with the recorded result beside the stock and guarded replays, then the other calls.
Argument values of other tools are never read, so never printed.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.text import Text

from ..output import print_document, print_wrapped, stdout_console
from ..styles import CALL_STATE_STYLE
from .step import names as _names
from .step import step_fields

if TYPE_CHECKING:
    from ...core.schemas.step import SessionStepEnvelope
    from ...core.systems.agentscope.subject import ToolkitSubject
    from ...core.systems.agentscope.v1.subject import ToolkitSubjectV1

VISIBILITY_TEXT = {
    "visible": "offered",  # its group was active: the model had its schema (#22: one word, one meaning)
    "inactive_group": "its group inactive",
    "not_in_toolkit": "not in the toolkit",
}
FROM_TEXT = {
    "session": "recorded in the session",
    "--groups": "from --groups (the session does not record them)",
    "toolkit": "the toolkit's initial state (the session does not record them; set them with --groups)",
}


def step_json(subject: ToolkitSubject | ToolkitSubjectV1, replay: Any, probe: Any) -> SessionStepEnvelope:
    """``toolscope.step/1`` with the ``session`` block."""
    from ...core.schemas.step import SessionStepEnvelope

    # Validated: the session block is assembled by core.systems.agentscope.session_replay as plain data.
    fields = step_fields(subject, replay.session, probe, replay.starting_groups, None)
    return SessionStepEnvelope.model_validate(fields | {"session": replay.to_json()})


def print_session_json(subject: ToolkitSubject | ToolkitSubjectV1, replay: Any, probe: Any) -> None:
    """Print the JSON document."""
    print_document(step_json(subject, replay, probe))


def print_session_human(subject: ToolkitSubject | ToolkitSubjectV1, replay: Any, probe: Any) -> None:
    """The answer first, then the header, the turns and the other calls (wrapped at word
    boundaries for the terminal's width: a block per turn, not a table that folds words)."""
    console = stdout_console()
    _print_answer(console, subject, replay)
    _print_header(console, replay, probe)
    _print_turns(console, replay, probe.agentscope_version)
    _print_others(console, replay)


def _print_answer(console: Any, subject: ToolkitSubject | ToolkitSubjectV1, replay: Any) -> None:
    """What was replayed, then the answer: the lost tools, or that there were none."""
    rec = replay.recorded
    print_wrapped(
        console,
        Text(""),
        f"{subject.loaded.label} · session {Path(rec.source).name} "
        f"({rec.describe_source()}, {rec.model_turns} model turns, {len(rec.calls)} tool calls)",
        "bold",
    )
    headline = replay.headline()
    if headline:
        console.print(Text("Lost tools:", style="bold red"))
        for line in headline:
            indent = len(line) - len(line.lstrip(" "))
            print_wrapped(console, Text(" " * (2 + indent)), line.strip())
    else:
        print_wrapped(
            console,
            Text(""),
            "No lost tools: no recorded call failed because the recording had turned its group off.",
            "green",
        )


def _print_header(console: Any, replay: Any, probe: Any) -> None:
    """Both lanes, which versions recorded and replayed, whether the stock replay matches, the groups."""
    rec = replay.recorded
    print_wrapped(console, Text("stock    ", style="bold"), probe.summary())
    print_wrapped(
        console,
        Text("guarded  ", style="bold"),
        replay.session.guard_description,
    )
    recorded_with = (
        f"recorded with AgentScope {rec.agentscope_version}"
        if rec.agentscope_version
        else "the session does not say which AgentScope version recorded it"
    )
    print_wrapped(console, Text(""), f"{recorded_with}; replayed on AgentScope {probe.agentscope_version}", "dim")
    if replay.diverged:
        turns = ", ".join(str(t.call.model_turn) for t in replay.diverged)
        print_wrapped(
            console,
            Text("≠ ", style="yellow"),
            f"the stock replay differs from the recording at turn {turns}: the session was recorded on "
            "another AgentScope version, or the toolkit changed",
            "yellow",
        )
    else:
        print_wrapped(console, Text(""), "= the stock replay matches the recording at every turn", "dim")
    ignored = "; --groups ignored" if replay.groups_option_ignored else ""
    print_wrapped(
        console,
        Text(""),
        f"starting groups: {_names(replay.starting_groups)} — {FROM_TEXT[replay.starting_from]}{ignored}",
        "dim",
    )
    if rec.final_groups is not None:
        print_wrapped(console, Text(""), f"recorded final groups: {_names(rec.final_groups)}", "dim")
    for note in (*rec.notes, *replay.session.notes):
        print_wrapped(console, Text("note: ", style="dim"), note, "dim")


def _first_line(text: str | None) -> str:
    return text.splitlines()[0] if text else ""


def _plan_short(plan: Any) -> str:
    if plan.accepted:
        return "accepted"
    parts = []
    # Bounded like the guard's own refusal: a few names, then a count.
    for label, names in (("unknown", plan.unknown), ("not a boolean", plan.non_bool)):
        if names:
            more = f" and {len(names) - 5:,} more" if len(names) > 5 else ""
            parts.append(f"{label}: " + ", ".join(n[:60] for n in names[:5]) + more)
    return "refused; " + "; ".join(parts)


def _print_turns(console: Any, replay: Any, version: str = "?") -> None:
    console.print()
    if not replay.turns:
        console.print(Text(f"The session has no {replay.session.meta_tool} call.", style="dim"))
        return
    console.print(Text(f"{replay.session.meta_tool} turns", style="bold underline"))
    for t in replay.turns:
        _print_turn(console, t, version)


def _print_turn(console: Any, t: Any, version: str) -> None:
    """One reset_tools turn: the call, its notes, then the recorded, stock and guarded outcomes."""
    from ...core.systems.agentscope.call_notes import call_args, call_notes

    pad = " " * 12
    guarded = t.turn.guarded
    head = Text(f"turn {t.call.model_turn}  " + ("≠ " if t.differs else ""), style="yellow" if t.differs else "bold")
    print_wrapped(console, head, f"{t.call.name} {t.call.shown_input}")
    if t.call.assistant_text:
        print_wrapped(console, Text(pad), t.call.assistant_text, "italic dim")
    if t.call.note:
        print_wrapped(console, Text(pad), t.call.note, "dim")
    for note in call_notes(call_args(guarded.args, guarded.call), guarded.plan, version, guarded.received):
        print_wrapped(console, Text(pad), note, "yellow")
    for lane, state, detail, after in _lane_outcomes(t):
        _print_lane(console, lane, state, detail, after)


def _lane_outcomes(t: Any) -> tuple[tuple[str, str | None, str, str], ...]:
    """(lane, result state, detail, groups after) of the recording, the stock and the guarded replay."""
    stock, guarded = t.turn.stock, t.turn.guarded
    recorded_after = _names(t.recorded_after) if t.recorded_after is not None else "?"
    return (
        ("recorded", t.call.result_state, _first_line(t.call.result_text), recorded_after),
        ("stock", stock.response_state, _first_line(stock.response_text), _names(stock.groups_after)),
        (
            "guarded",
            guarded.response_state,
            _plan_short(guarded.plan) if guarded.plan is not None else "",
            _names(guarded.groups_after),
        ),
    )


def _print_lane(console: Any, lane: str, state: str | None, detail: str, after: str) -> None:
    """One lane's outcome: its result state and the groups after it, then its detail."""
    line = Text(f"  {lane:<9} ", style="bold")
    line.append(state or "(no result)", style=CALL_STATE_STYLE.get(state or "", ""))
    line.append("  groups after ")
    print_wrapped(console, line, after, "cyan")
    if detail:
        print_wrapped(console, Text(" " * 12), detail, "dim")


def _print_others(console: Any, replay: Any) -> None:
    if not replay.others:
        return
    from ...core.text.safe_text import inert
    from ..layout import Cell, Column, layout_table
    from ..output import print_lines

    console.print()
    console.print(Text("other tool calls", style="bold underline"))
    rows = []
    for o in replay.others:
        recorded = o.call.result_state or "(no result)"
        if o.call.failure:
            recorded += " " + {"not_found": "doesn't exist", "inactive_group": "inactive"}[o.call.failure]
        where = VISIBILITY_TEXT[o.visibility] + (f" ({o.group})" if o.group and o.group != "basic" else "")
        lost = ""
        if o.lost_to is not None:
            lost = f"turn {replay.turns[o.lost_to - 1].call.model_turn}"
        elif o.never_activated:
            lost = "never activated"
        rows.append(
            [
                Cell(str(o.call.model_turn)),
                Cell(inert(o.call.name, single_line=True), "bold"),
                Cell(recorded, CALL_STATE_STYLE.get(o.call.result_state or "", "")),
                Cell(inert(where, single_line=True)),
                Cell(lost, "bold red"),
            ]
        )
    columns = [
        Column("TURN", "right"),
        Column("TOOL"),
        Column("RECORDED"),
        Column("PER THE STOCK LANE"),
        Column("LOST AT"),
    ]
    print_lines(console, layout_table(columns, rows, console.width).lines)
