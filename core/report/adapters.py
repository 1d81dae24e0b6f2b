"""Bridges from ``core.systems.agentscope`` into report data: the reset_tools probe and the
step-through session.

Both import their source lazily: AgentScope costs over a second to import, and a
step-config report needs neither.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..inputs.input_files import file_sha256
from ..model.errors import InputError
from ..model.subject import Subject
from ..systems.agentscope.capability import StepsActivation
from ..systems.agentworks.ids import AgentWorksInput
from .data import shown_name
from .transcript import LostToolLink, SessionSummary, Transcript, Turn, TurnSide

# A refusal lists every real group name; keep the report's cells readable.
MAX_OUTCOME = 400


def probe_facts() -> tuple[tuple[str, str], ...]:
    """The installed stock reset_tools' probed behaviour as (question, answer) pairs."""
    from ..systems.agentscope.probe import probe_stock_reset_tools

    probe = probe_stock_reset_tools()

    def yes(flag: bool) -> str:
        return "yes" if flag else "no"

    return (
        ("a refused call changes the active groups (clears before validating)", yes(probe.refused_call_changes_state)),
        ("a refused call is reported with state error", yes(probe.refusal_reported_as_error)),
        ("unknown group names are stored", yes(probe.unknown_names_stored)),
        ('call_tool coerces "yes" to true', yes(probe.coerces_yes)),
        ('call_tool coerces "1" to true', yes(probe.coerces_one)),
    )


def _outcome(lane_turn: Any) -> str:
    text = " ".join(str(lane_turn.response_text).split())
    if len(text) > MAX_OUTCOME:
        text = text[: MAX_OUTCOME - 3] + "..."
    return f"{lane_turn.response_state}: {text}" if text else str(lane_turn.response_state)


def run_transcript(subject: Subject, script: Path) -> tuple[Transcript, tuple[str, str]]:
    """Step a reset_tools script through the subject's real toolkit, stock and guarded.

    Returns the transcript and the script's (name, sha256) for the provenance. The
    toolkit is left as it was found (groups a script registers are removed again).
    """
    if subject.loaded.kind == AgentWorksInput.STEP_CONFIG or not isinstance(subject, StepsActivation):
        raise InputError("--script", "applies to AgentScope toolkits (reset_tools calls), not AgentWorks step configs")
    from ..systems.agentscope.script import load_script

    steps = load_script(script)
    digest = file_sha256(script, "script")
    session = subject.session(steps)
    try:
        initial = {lane: session.visible(lane)[0] for lane in session.lanes}
        history = session.run_all()
        final = {lane: session.active_groups(lane) for lane in session.lanes}
    finally:
        session.reset()  # unregister groups the script added: the subject's toolkit is shared
    turns = []
    last = dict(initial)
    for turn in history:
        sides = {}
        for lane in ("stock", "guarded"):
            lane_turn = turn.lanes.get(lane)
            if lane_turn is None:  # a register_group step: nothing called, nothing changed yet
                sides[lane] = TurnSide(tuple(last[lane]), "group registered", ())
                continue
            last[lane] = lane_turn.visible_tools
            sides[lane] = TurnSide(tuple(lane_turn.visible_tools), _outcome(lane_turn), tuple(lane_turn.groups_after))
        call = turn.description if turn.kind != "call" else (turn.stock.call if turn.stock else turn.description)
        turns.append(Turn(turn.index, call, sides["stock"], sides["guarded"]))
    notes = (
        "Both lanes call the installed reset_tools through the real toolkit.call_tool; the guarded lane "
        "goes through GroupActivationGuard first.",
    )
    name = shown_name(str(script))
    transcript = Transcript(name, tuple(turns), tuple(final["stock"]), tuple(final["guarded"]), notes)
    return transcript, (name, digest)


def run_session_transcript(
    subject: Subject, session: Path, session_id: str | None, groups_given: bool
) -> tuple[Transcript, tuple[str, str]]:
    """Replay a recorded AgentScope session's reset_tools calls, stock and guarded, with its lost-tool links.

    Returns the transcript and the session file's (name, sha256). Nothing is written to
    the session source; the subject's own state is not changed (the replay starts on a copy).
    """
    if subject.loaded.kind == AgentWorksInput.STEP_CONFIG or not isinstance(subject, StepsActivation):
        raise InputError("--session", "applies to AgentScope toolkits (reset_tools calls), not AgentWorks step configs")
    built = subject.built
    from ..systems.agentscope.session_replay import replay_session
    from ..systems.agentscope.session_source import load_session

    recorded = load_session(session, session_id=session_id)
    digest = file_sha256(session, "session database")
    replay = replay_session(built, recorded, groups_given=groups_given)
    turns = []
    for t in replay.turns:
        stock, guarded = t.turn.stock, t.turn.guarded
        assert stock is not None and guarded is not None, "a replayed reset_tools turn runs on both lanes"
        sides = [
            TurnSide(tuple(lane.visible_tools), _outcome(lane), tuple(lane.groups_after)) for lane in (stock, guarded)
        ]
        label = f"turn {t.call.model_turn}: reset_tools {t.call.shown_input}"
        turns.append(Turn(t.index, label, sides[0], sides[1]))
    notes = [f"turn {t.call.model_turn}: {t.differs}" for t in replay.diverged]
    notes.append(
        "Every recorded reset_tools call is replayed through the installed reset_tools (stock) and through "
        "GroupActivationGuard (guarded)."
    )
    name = shown_name(str(session))
    summary = SessionSummary(
        source=name,
        kind=recorded.kind,
        agentscope_version=recorded.agentscope_version,
        starting_groups=replay.starting_groups,
        starting_from=replay.starting_from,
        diverged_turns=tuple(t.call.model_turn for t in replay.diverged),
        links=tuple(LostToolLink(link.summary(), link.guarded()) for link in replay.links),
    )
    final = {lane: tuple(replay.session.active_groups(lane)) for lane in replay.session.lanes}
    transcript = Transcript(name, tuple(turns), final["stock"], final["guarded"], tuple(notes), summary)
    return transcript, (name, digest)
