"""``toolscope step TOOLKIT --script S``, rendered: each turn's call, both lanes' outcome and
the tools each lane then offers; the ``toolscope.step/1`` fields every step document starts with."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from ...core.model.presentation import MARK
from ..output import print_document, print_wrapped, stdout_console
from ..styles import CALL_STATE_STYLE

if TYPE_CHECKING:
    from rich.text import Text

    from ...core.systems.agentscope.subject import ToolkitSubject
    from ...core.systems.agentscope.v1.subject import ToolkitSubjectV1


def outage_notes(outages: list[tuple[str, str, str]], active: Any) -> list[str]:
    """For each active group with a failed MCP client: its tools are missing from the list (an outage)."""
    return [
        f"(MCP client '{client}' of group '{group}' failed: {error}; its tools are missing from this list: "
        "an outage, not a deactivation)"
        for group, client, error in outages
        if group == "basic" or group in active
    ]


def names(items: Any) -> str:
    """``a, b`` or ``(none)``."""
    return ", ".join(items) if items else "(none)"


def _guarded_notes(turn: Any, version: str) -> list[str]:
    """The guarded lane's notes on a call turn (what the call asked for beyond its names)."""
    from ...core.systems.agentscope.call_notes import call_args, call_notes

    guarded = turn.lanes.get("guarded") if turn.kind == "call" else None
    if guarded is None:
        return []
    return call_notes(call_args(guarded.args, guarded.call), guarded.plan, version, guarded.received)


def step_fields(
    subject: ToolkitSubject | ToolkitSubjectV1,
    stepped: Any,
    probe: Any,
    initial_groups: Iterable[str],
    script: str | None,
) -> dict[str, Any]:
    """What every ``toolscope.step/1`` document starts with, whatever fed the lanes (a script, a
    session, a capture): the input, the probe, and ``stepped``'s lanes, events and final groups."""
    body = stepped.to_json()
    return {
        "input": {"kind": subject.loaded.kind, "label": subject.loaded.label, "files": list(subject.loaded.files)},
        "script": script,
        "agentscope_version": probe.agentscope_version,
        "initial_groups": list(initial_groups),
        "probe": probe.to_json(),
        "lanes": body["lanes"],
        "events": body["events"],
        "final_groups": {lane: list(stepped.active_groups(lane)) for lane in stepped.lanes},
    }


def print_script_json(subject: ToolkitSubject | ToolkitSubjectV1, stepper: Any, probe: Any, script_name: str) -> None:
    """``toolscope.step/1`` of a script run, with the MCP outages and the guarded lane's call notes."""
    from ...core.schemas.step import StepEnvelope

    outages = [{"group": group, "client": client, "error": error} for group, client, error in subject.mcp_outages()]
    notes = [
        {"turn": turn.index, "notes": found}
        for turn in stepper.history
        if (found := _guarded_notes(turn, probe.agentscope_version))
    ]
    fields = step_fields(subject, stepper, probe, subject.active_groups(), script_name)
    # Validated: lanes and events are assembled by core.systems.agentscope.turns as plain data.
    print_document(StepEnvelope.model_validate(fields | {"mcp_outages": outages, "call_notes": notes}))


def print_script_human(subject: ToolkitSubject | ToolkitSubjectV1, session: Any, probe: Any, script_name: str) -> None:
    """The header, a block per turn, each lane's tools per turn, and whether the lanes diverged."""
    from rich.text import Text

    console = stdout_console()
    print_wrapped(console, Text(""), f"{subject.loaded.label} · script {script_name}", "bold")
    print_wrapped(console, Text("stock    ", style="bold"), probe.summary())
    print_wrapped(console, Text("guarded  ", style="bold"), session.guard_description)
    print_wrapped(console, Text(""), f"initial active groups: {names(subject.active_groups())}", "dim")
    for note in session.notes:
        print_wrapped(console, Text("note: ", style="dim"), note, "dim")
    # A block per turn (the call on its own line, then each lane's outcome indented below):
    # reads at 80 columns, where a six-column table would fold every cell.
    outages = subject.mcp_outages()
    for turn in session.history:
        console.print()
        _print_turn(console, session, turn, outages, probe.agentscope_version)
    console.print()
    _print_lane_lists(console, session)
    console.print(Text("tokens: ≈ len(compact JSON of the offered schemas) / 4", style="dim"))
    console.print(divergence_summary(session.history))


def _print_turn(console: Any, session: Any, turn: Any, outages: list[tuple[str, str, str]], version: str) -> None:
    """One turn: the call, then each lane's outcome, groups and tools."""
    from rich.text import Text

    if turn.kind == "register_group":
        print_wrapped(console, Text(f"turn {turn.index}  ", style="bold"), turn.description, "cyan")
        return
    head = Text(f"turn {turn.index}  ≠ ", style="bold red") if turn.diverged else Text(f"turn {turn.index}  ", "bold")
    print_wrapped(console, head, turn.stock.call if turn.stock else turn.description)
    for lane in session.lanes:
        _print_lane_turn(console, session, lane, turn.lanes[lane], outages)
    for note in _guarded_notes(turn, version):
        print_wrapped(console, Text("  "), note, "yellow")


def _print_lane_turn(console: Any, session: Any, lane: str, lt: Any, outages: list[tuple[str, str, str]]) -> None:
    """One lane's outcome of a call: accepted or not, the groups before and after, what it sees."""
    from rich.text import Text

    result = Text(f"  {lane:<8} ", style="bold")
    result.append(f"{MARK[lt.accepted]} {lt.response_state}", style=CALL_STATE_STYLE.get(lt.response_state, ""))
    result.append("  groups ")
    print_wrapped(console, result, f"{names(lt.groups_before)} → {names(lt.groups_after)}", "cyan")
    indent = Text(" " * 11)
    if lane == "guarded" and lt.plan is not None:
        print_wrapped(console, indent, lt.plan.summary(), "dim")
    elif not lt.accepted or lane == "stock" and (_looks_refused(lt.response_text) or session.stock_reply_shown):
        print_wrapped(console, indent, lt.response_text.splitlines()[0] if lt.response_text else "", "dim")
    print_wrapped(console, Text(" " * 11 + "sees "), f"{names(lt.visible_tools)} (≈{lt.token_estimate} tokens)")
    for note in outage_notes(outages, lt.groups_after):
        print_wrapped(console, indent, note, "yellow")


def _print_lane_lists(console: Any, session: Any) -> None:
    """The seed's comparison, in the seed's own shape: per lane, the tools at each turn."""
    from rich.text import Text

    for lane in session.lanes:
        console.print(Text(f"-- {lane} {session.meta_tool}", style="bold"))
        for turn in session.history:
            if turn.kind == "register_group":
                print_wrapped(console, Text("   "), f"turn {turn.index}: ({turn.description})", "dim")
                continue
            print_wrapped(console, Text("   "), f"turn {turn.index}: {', '.join(turn.lanes[lane].visible_tools)}")
        print_wrapped(console, Text("   "), f"activated_groups at the end: {list(session.active_groups(lane))}")


def divergence_summary(history: Any) -> Text:
    """One line: whether the stock and guarded lanes diverged, and at which turns."""
    from rich.text import Text

    calls = [t for t in history if t.kind == "call"]
    turns = [t.index for t in calls if t.diverged]
    if not calls:
        return Text("no reset_tools calls in the script", style="bold")
    if not turns:
        return Text(f"lanes agree: same groups and outcome at every turn ({_calls(len(calls))})", style="bold green")
    which = "turn" if len(turns) == 1 else "turns"
    return Text(
        f"lanes diverged at {which} {', '.join(map(str, turns))} of {_calls(len(calls))} (groups or outcome differ; ≠ above)",
        style="bold red",
    )


def _looks_refused(text: str) -> bool:
    """2.0.6 reports a bad argument as success with an error text: flag it."""
    return text.startswith("Invalid arguments") or text.startswith("Invalid group name")


def _calls(count: int) -> str:
    return f"{count} call" if count == 1 else f"{count} calls"
