"""``toolscope step TOOLKIT --script S``: a reset_tools script, stock vs guarded, turn by turn.

Every call goes through the real ``toolkit.call_tool`` twice: once against the installed
stock meta tool, once against it wrapped by GroupActivationGuard. The stock lane's header
says which behaviour the installed AgentScope has, probed on a throwaway state.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from ...core.model.errors import InputError
from ...core.model.presentation import MARK
from ...core.systems.agentworks.ids import AgentWorksInput
from ..output import handle_errors, print_document, stdout_console
from ..styles import CALL_STATE_STYLE
from .common import CaptureOpt, GroupsOpt, JsonOpt, SessionIdOpt, SessionOpt, split_groups

if TYPE_CHECKING:
    from rich.text import Text

    from ...core.systems.agentscope.subject import ToolkitSubject
    from ...core.systems.agentscope.v1.subject import ToolkitSubjectV1


@handle_errors
def step_command(
    toolkit: Annotated[str, typer.Argument(help="Toolkit spec (YAML/JSON) or module:function / file.py:function.")],
    script: Annotated[
        Path | None, typer.Option("--script", "-s", help="Script: a JSON/YAML list of reset_tools calls.")
    ] = None,
    session: SessionOpt = None,
    session_id: SessionIdOpt = None,
    groups: GroupsOpt = None,
    capture: CaptureOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Step reset_tools calls (a script, a recorded session, or a capture's) through the stock and the guarded meta tool."""
    from ..input_kind import detect_kind

    kind = detect_kind(toolkit)
    if kind == AgentWorksInput.STEP_CONFIG:
        raise InputError(toolkit, "step works on AgentScope toolkits", [])
    feeds = [name for name, value in (("--script", script), ("--session", session), ("--capture", capture)) if value]
    if not feeds:
        raise InputError(
            "",
            "step needs calls to step through: --script SCRIPT (a reset_tools script), --session SESSION "
            "or --capture FILE",
        )
    if len(feeds) > 1:
        raise InputError(feeds[1], f"give either {feeds[0]} or {feeds[1]}, not both")
    if session_id is not None and session is None:
        raise InputError("--session-id", "--session-id goes with --session (a database, or a tap holding several runs)")
    from ...core.systems.agentscope.probe import probe_stock_reset_tools

    if capture is not None:
        from .step_capture import open_capture_replay, print_capture_human, print_capture_json

        subject, result = open_capture_replay(toolkit, kind, capture, split_groups(groups))
        probe = probe_stock_reset_tools()
        # Exit 0 whatever the comparison, like every step (check --capture is the one that fails).
        (print_capture_json if as_json else print_capture_human)(subject, result, probe)
        return
    if session is not None:
        from ..replay_progress import replay_progress
        from .step_session import open_replay, print_session_human, print_session_json

        with replay_progress():
            subject, replay = open_replay(toolkit, kind, session, session_id, split_groups(groups))
        probe = probe_stock_reset_tools()
        if as_json:
            print_session_json(subject, replay, probe)
        else:
            print_session_human(subject, replay, probe)
        return
    assert script is not None
    from ...core.systems.agentscope.script import load_script, script_for_config
    from ...core.systems.agentscope.subject import load_toolkit_subject

    script = script_for_config(script, toolkit)
    steps = load_script(script)
    subject = load_toolkit_subject(toolkit, kind=kind, groups=split_groups(groups))
    stepper = subject.session(steps)
    stepper.run_all()
    probe = probe_stock_reset_tools()
    if as_json:
        from ...core.schemas.step import StepEnvelope

        # Validated: lanes and events are assembled by core.systems.agentscope.turns as plain data.
        print_document(
            StepEnvelope.model_validate(
                step_fields(subject, stepper, probe, subject.active_groups(), script.name)
                | {
                    "mcp_outages": [
                        {"group": group, "client": client, "error": error}
                        for group, client, error in subject.mcp_outages()
                    ],
                    "call_notes": _json_call_notes(stepper, probe.agentscope_version),
                }
            )
        )
        return
    _print_human(subject, stepper, probe, script.name)


def _outage_notes(outages: list[tuple[str, str, str]], active: Any) -> list[str]:
    """For each active group with a failed MCP client: its tools are missing from the list (an outage)."""
    return [
        f"(MCP client '{client}' of group '{group}' failed: {error}; its tools are missing from this list: "
        "an outage, not a deactivation)"
        for group, client, error in outages
        if group == "basic" or group in active
    ]


def _json_call_notes(session: Any, version: str) -> list[dict[str, Any]]:
    from ...core.systems.agentscope.call_notes import call_args, call_notes

    out = []
    for turn in session.history:
        guarded = turn.lanes.get("guarded") if turn.kind == "call" else None
        notes = (
            call_notes(call_args(guarded.args, guarded.call), guarded.plan, version, guarded.received)
            if guarded
            else []
        )
        if notes:
            out.append({"turn": turn.index, "notes": notes})
    return out


def _names(items: Any) -> str:
    return ", ".join(items) if items else "(none)"


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


def _print_human(subject: ToolkitSubject | ToolkitSubjectV1, session: Any, probe: Any, script_name: str) -> None:
    from rich.text import Text

    from ...core.systems.agentscope.call_notes import call_args, call_notes
    from ..output import print_wrapped

    console = stdout_console()
    outages = subject.mcp_outages()
    print_wrapped(console, Text(""), f"{subject.loaded.label} · script {script_name}", "bold")
    print_wrapped(console, Text("stock    ", style="bold"), probe.summary())
    print_wrapped(
        console,
        Text("guarded  ", style="bold"),
        session.guard_description,
    )
    print_wrapped(console, Text(""), f"initial active groups: {_names(subject.active_groups())}", "dim")
    for note in session.notes:
        print_wrapped(console, Text("note: ", style="dim"), note, "dim")
    # A block per turn (the call on its own line, then each lane's outcome indented below):
    # reads at 80 columns, where a six-column table would fold every cell.
    for turn in session.history:
        console.print()
        if turn.kind == "register_group":
            print_wrapped(console, Text(f"turn {turn.index}  ", style="bold"), turn.description, "cyan")
            continue
        head = Text(f"turn {turn.index}  ", style="bold")
        if turn.diverged:
            head = Text(f"turn {turn.index}  ≠ ", style="bold red")
        print_wrapped(console, head, turn.stock.call if turn.stock else turn.description)
        for lane in session.lanes:
            lt = turn.lanes[lane]
            result = Text(f"  {lane:<8} ", style="bold")
            result.append(f"{MARK[lt.accepted]} {lt.response_state}", style=CALL_STATE_STYLE.get(lt.response_state, ""))
            result.append("  groups ")
            print_wrapped(console, result, f"{_names(lt.groups_before)} → {_names(lt.groups_after)}", "cyan")
            if lane == "guarded" and lt.plan is not None:
                print_wrapped(console, Text(" " * 11), lt.plan.summary(), "dim")
            elif not lt.accepted or lane == "stock" and (_looks_refused(lt.response_text) or session.stock_reply_shown):
                first = lt.response_text.splitlines()[0] if lt.response_text else ""
                print_wrapped(console, Text(" " * 11), first, "dim")
            print_wrapped(
                console, Text(" " * 11 + "sees "), f"{_names(lt.visible_tools)} (≈{lt.token_estimate} tokens)"
            )
            for note in _outage_notes(outages, lt.groups_after):
                print_wrapped(console, Text(" " * 11), note, "yellow")
        guarded = turn.lanes.get("guarded")
        if guarded is not None:
            for note in call_notes(
                call_args(guarded.args, guarded.call), guarded.plan, probe.agentscope_version, guarded.received
            ):
                print_wrapped(console, Text("  "), note, "yellow")
    console.print()
    # The seed's comparison, in the seed's own shape.
    for lane in session.lanes:
        console.print(Text(f"-- {lane} {session.meta_tool}", style="bold"))
        for turn in session.history:
            if turn.kind == "register_group":
                print_wrapped(console, Text("   "), f"turn {turn.index}: ({turn.description})", "dim")
                continue
            print_wrapped(console, Text("   "), f"turn {turn.index}: {', '.join(turn.lanes[lane].visible_tools)}")
        print_wrapped(console, Text("   "), f"activated_groups at the end: {list(session.active_groups(lane))}")
    console.print(Text("tokens: ≈ len(compact JSON of the offered schemas) / 4", style="dim"))
    console.print(divergence_summary(session.history))


def divergence_summary(history: Any) -> Text:
    """One line: whether the stock and guarded lanes diverged, and at which turns."""
    from rich.text import Text

    calls = [t for t in history if t.kind == "call"]
    turns = [t.index for t in calls if t.diverged]
    if not calls:
        return Text("no reset_tools calls in the script", style="bold")
    if not turns:
        return Text(f"lanes agree: same groups and outcome at every turn ({len(calls)} calls)", style="bold green")
    which = "turn" if len(turns) == 1 else "turns"
    return Text(
        f"lanes diverged at {which} {', '.join(map(str, turns))} of {len(calls)} calls (groups or outcome differ; ≠ above)",
        style="bold red",
    )


def _looks_refused(text: str) -> bool:
    """2.0.6 reports a bad argument as success with an error text: flag it."""
    return text.startswith("Invalid arguments") or text.startswith("Invalid group name")
