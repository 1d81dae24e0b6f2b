"""The step-through of a reset_tools script or a recorded session, as a report holds it."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class TurnSide:
    """One side (stock or guarded) of one scripted turn."""

    visible: tuple[str, ...]
    """Tool names the model sees after the turn."""
    outcome: str
    """What the reset_tools call did: its result text or state, secrets scrubbed."""
    active_groups: tuple[str, ...] = ()


@dataclass(frozen=True)
class Turn:
    """One turn of a reset_tools script, run stock and guarded."""

    index: int
    call: str
    stock: TurnSide
    guarded: TurnSide


@dataclass(frozen=True)
class LostToolLink:
    """A recorded session's lost-tool link: the sentence, and what the guard did with that call."""

    summary: str
    guarded: str | None = None


@dataclass(frozen=True)
class SessionSummary:
    """Where a replayed session came from, and the answer it gives (``report --session``)."""

    source: str
    kind: str
    agentscope_version: str | None
    starting_groups: tuple[str, ...]
    starting_from: str
    diverged_turns: tuple[int, ...]
    """Model turns where the stock replay differs from the recording."""
    links: tuple[LostToolLink, ...] = ()


@dataclass(frozen=True)
class Transcript:
    """The step-through of a reset_tools script (or a recorded session): stock vs guarded, turn by turn."""

    script: str
    turns: tuple[Turn, ...]
    stock_final_groups: tuple[str, ...] = ()
    guarded_final_groups: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    session: SessionSummary | None = None
