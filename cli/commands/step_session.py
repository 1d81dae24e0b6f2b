"""``toolscope step TOOLKIT --session SESSION``: a recorded AgentScope session, replayed.

The answer first (the lost-tool links and what the guard would have done), then the
header (which source, which version recorded it, where the starting groups came from,
whether the stock replay agrees with the recording), then one row per reset_tools turn
with the recorded result beside the stock and guarded replays, then the other calls.
Argument values of other tools are never read, so never printed.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.table import Table
from rich.text import Text

from toolscope.output import plain, print_document, stdout_console

if TYPE_CHECKING:
    from toolscope.core.schemas.step import SessionStepEnvelope

STATE_STYLE = {"success": "green", "error": "bold red", "denied": "bold red"}
VISIBILITY_TEXT = {
    "visible": "visible",
    "inactive_group": "its group inactive",
    "not_in_toolkit": "not in the toolkit",
}
FROM_TEXT = {
    "session": "recorded in the session",
    "--groups": "from --groups (the session does not record them)",
    "toolkit": "the toolkit's initial state (the session does not record them; set them with --groups)",
}


def open_replay(toolkit: str, kind: str, session: Path, session_id: str | None, groups: list[str] | None) -> Any:
    """Load the toolkit and the session, pick the starting groups, replay. Returns the SessionReplay."""
    from toolscope.core.agentscope.session_replay import replay_session
    from toolscope.core.agentscope.session_source import load_session
    from toolscope.core.agentscope.subject import load_toolkit_subject

    recorded = load_session(session, session_id=session_id)
    subject = load_toolkit_subject(toolkit, kind=kind, groups=groups)
    return subject, replay_session(subject.built, recorded, groups_given=groups is not None)


def step_json(subject: Any, replay: Any, probe: Any) -> SessionStepEnvelope:
    """``toolscope.step/1`` with the ``session`` block."""
    from toolscope.core.schemas.step import SessionStepEnvelope

    session = replay.session
    body = session.to_json()
    # Validated: the session block is assembled by core.agentscope.session_replay as plain data.
    return SessionStepEnvelope.model_validate(
        {
            "input": {
                "kind": subject.loaded.kind,
                "label": subject.loaded.label,
                "files": list(subject.loaded.files),
            },
            "script": None,
            "agentscope_version": probe.agentscope_version,
            "initial_groups": list(replay.starting_groups),
            "probe": probe.to_json(),
            "lanes": body["lanes"],
            "events": body["events"],
            "final_groups": {lane: list(session.active_groups(lane)) for lane in session.lanes},
            "session": replay.to_json(),
        }
    )


def print_session_json(subject: Any, replay: Any, probe: Any) -> None:
    """Print the JSON document."""
    print_document(step_json(subject, replay, probe))


def _names(items: Any) -> str:
    return ", ".join(items) if items else "(none)"


def print_session_human(subject: Any, replay: Any, probe: Any) -> None:
    """The answer first, then the header, the turns and the other calls."""
    console = stdout_console()
    rec = replay.recorded
    console.print(
        plain(
            f"{subject.loaded.label} · session {Path(rec.source).name} "
            f"({rec.describe_source()}, {rec.model_turns} model turns, {len(rec.calls)} tool calls)",
            "bold",
        )
    )
    headline = replay.headline()
    if headline:
        console.print(Text("Lost tools:", style="bold red"))
        for line in headline:
            console.print(plain("  " + line))
    else:
        console.print(
            Text(
                "No lost tools: no recorded call failed because the recording had turned its group off.", style="green"
            )
        )
    console.print(Text("stock   ", style="bold").append_text(plain(probe.summary())))
    console.print(
        Text("guarded ", style="bold").append(
            "GroupActivationGuard on reset_tools: validates names and booleans first; a refusal changes nothing"
        )
    )
    recorded_with = (
        f"AgentScope {rec.agentscope_version}" if rec.agentscope_version else "an AgentScope version it does not record"
    )
    console.print(plain(f"recorded with {recorded_with}; replayed on AgentScope {probe.agentscope_version}", "dim"))
    if replay.diverged:
        turns = ", ".join(str(t.call.model_turn) for t in replay.diverged)
        console.print(
            plain(
                f"≠ the stock replay differs from the recording at turn {turns}: the session was recorded on "
                "another AgentScope version, or the toolkit changed",
                "yellow",
            )
        )
    else:
        console.print(plain("= the stock replay matches the recording at every turn", "dim"))
    ignored = "; --groups ignored" if replay.groups_option_ignored else ""
    console.print(
        plain(f"starting groups: {_names(replay.starting_groups)} — {FROM_TEXT[replay.starting_from]}{ignored}", "dim")
    )
    if rec.final_groups is not None:
        console.print(plain(f"recorded final groups: {_names(rec.final_groups)}", "dim"))
    for note in rec.notes:
        console.print(plain(f"note: {note}", "dim"))
    _print_turns(console, replay, probe.agentscope_version)
    _print_others(console, replay)


def _result(state: str | None, text: str | None) -> Text:
    out = Text(state or "(no result)", style=STATE_STYLE.get(state or "", ""))
    if text:
        out.append("\n")
        out.append_text(plain(text.splitlines()[0] if text else "", "dim"))
    return out


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
    from toolscope.core.agentscope.call_notes import call_args, call_notes

    if not replay.turns:
        console.print(Text("The session has no reset_tools call.", style="dim"))
        return
    table = Table(header_style="bold", show_lines=True, title="reset_tools turns", title_justify="left")
    for column in ("turn", "call", "recorded", "stock replay", "guarded", "groups after (rec / stock / guarded)"):
        table.add_column(column, overflow="fold")
    for t in replay.turns:
        stock, guarded = t.turn.stock, t.turn.guarded
        call = plain(f"reset_tools {t.call.raw_input}")
        if t.call.assistant_text:
            call.append("\n")
            call.append_text(plain(t.call.assistant_text, "italic dim"))
        if t.call.note:
            call.append("\n")
            call.append_text(plain(t.call.note, "dim"))
        for note in call_notes(call_args(guarded.args, guarded.call), guarded.plan, version):
            call.append("\n")
            call.append_text(plain(note, "yellow"))
        marker = "≠ " if t.differs else ""
        guarded_cell = _result(guarded.response_state, None)
        if guarded.plan is not None:  # the short form; the headline quotes the whole refusal
            guarded_cell.append("\n")
            guarded_cell.append_text(plain(_plan_short(guarded.plan), "dim"))
        recorded_after = _names(t.recorded_after) if t.recorded_after is not None else "?"
        table.add_row(
            Text(f"{marker}{t.call.model_turn}", style="yellow" if t.differs else ""),
            call,
            _result(t.call.result_state, t.call.result_text),
            _result(stock.response_state, stock.response_text),
            guarded_cell,
            plain(f"{recorded_after}\n{_names(stock.groups_after)}\n{_names(guarded.groups_after)}"),
        )
    console.print(table)


def _print_others(console: Any, replay: Any) -> None:
    if not replay.others:
        return
    table = Table(header_style="bold", title="other tool calls", title_justify="left")
    for column in ("turn", "tool", "recorded", "per the stock lane then", "lost at"):
        table.add_column(column, overflow="fold")
    for o in replay.others:
        recorded = Text(o.call.result_state or "(no result)", style=STATE_STYLE.get(o.call.result_state or "", ""))
        if o.call.failure:
            recorded.append(" " + {"not_found": "doesn't exist", "inactive_group": "inactive"}[o.call.failure])
        where = VISIBILITY_TEXT[o.visibility] + (f" ({o.group})" if o.group and o.group != "basic" else "")
        lost = ""
        if o.lost_to is not None:
            lost = f"turn {replay.turns[o.lost_to - 1].call.model_turn}"
        elif o.never_activated:
            lost = "never activated"
        table.add_row(
            str(o.call.model_turn), plain(o.call.name, single_line=True), recorded, plain(where), Text(lost, "bold red")
        )
    console.print(table)
