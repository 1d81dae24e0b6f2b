"""The activation view as Markdown: the turns of a session and each lane's visible tools."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ...export import md
from .lanes import LaneState

if TYPE_CHECKING:
    from ....core.systems.agentscope.session import StepSession

__all__ = ["activation_markdown"]


def activation_markdown(
    session: StepSession,
    script_name: str | None,
    probe_summary: str | None,
    lane_state: Callable[[str, int | None], LaneState] | None,
) -> str:
    """The turns and both lanes' current state, as Markdown.

    ``lane_state`` gives a lane's state after a turn (``ActivationView.lane_state``); None
    before the lanes were measured, when every lane lists no tools.
    """
    lines = ["# toolscope: activation", ""]
    if script_name:
        lines.append(f"- script: {md(script_name)}")
    if probe_summary:
        lines.append(f"- {md(probe_summary)}")
    lines += [
        "",
        "| turn | call | stock groups | guarded groups | stock response | guarded response |",
        "|---|---|---|---|---|---|",
    ]
    lines += [_turn_row(turn) for turn in session.history]
    last = len(session.history) - 1 if session.history else None
    for lane in session.lanes:
        state = lane_state(lane, last) if lane_state is not None else None
        names, tokens = (state.visible, state.tokens) if state else ((), 0)
        lines.append(f"\n**{lane}** offered tools ({len(names)}, ~{tokens} tokens): {md(', '.join(names))}")
    return "\n".join(lines) + "\n"


def _turn_row(turn: Any) -> str:
    """A call turn's both lanes (groups after it, response); any other turn is its description."""
    s, g = turn.stock, turn.guarded
    if turn.kind != "call" or s is None or g is None:  # a call turn always has both lanes
        return f"| {turn.index} | {md(turn.description)} | | | | |"
    return (
        f"| {turn.index} | {md(s.call)} | {md(', '.join(s.groups_after))} | {md(', '.join(g.groups_after))} "
        f"| {s.response_state}: {md(s.response_text[:120])} | {g.response_state}: {md(g.response_text[:120])} |"
    )
