"""The Pipeline view's state line (toolkits): which activation state its "offered" stage shows."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static

from ...core.text.safe_text import inert


def state_text(lane: str | None, turn: int, groups: Sequence[str]) -> Text:
    """``state guarded lane, turn 3 (Activation view) · active groups: web_search``, or the initial state."""
    text = Text(no_wrap=True, overflow="ellipsis")
    text.append("state ", style="dim")
    if lane is None or turn == 0:
        text.append("initial", style="bold")
        text.append(" (the config's)", style="dim")
    else:
        text.append(f" {lane} lane, turn {turn} ", style="bold reverse")
        text.append(" (Activation view)", style="dim")
    text.append(" · active groups: ", style="dim")
    text.append(", ".join(inert(g, single_line=True) for g in groups) if groups else "(none)", style="bold cyan")
    if lane is not None and turn:
        text.append(" · v in the Activation view follows the other lane", style="dim")
    return text


def agent_text(groups: Sequence[str]) -> Text:
    """``state the running agent's real groups · active groups: …`` (``inspect --follow``)."""
    text = Text(no_wrap=True, overflow="ellipsis")
    text.append("state ", style="dim")
    text.append(" the running agent's ", style="bold reverse")
    text.append(" (followed tap) · active groups: ", style="dim")
    text.append(", ".join(inert(g, single_line=True) for g in groups) if groups else "(none)", style="bold cyan")
    return text


@dataclass(frozen=True)
class BannerState:
    """What the state line shows: a lane's turn (0: the initial state) or a followed agent's groups."""

    lane: str | None
    turn: int
    groups: tuple[str, ...]
    agent: bool = False
    """The groups are a running agent's real ones (``inspect --follow``)."""


class StateBanner(Static):
    """One line above the pipeline grid; ``state`` is bound to the screen's."""

    DEFAULT_CSS = """
    StateBanner { height: 1; padding: 0 1; background: $boost; text-wrap: nowrap; text-overflow: ellipsis; }
    """

    state: reactive[BannerState | None] = reactive(None)
    """The activation state the Pipeline view's verdicts are computed in."""

    def watch_state(self, state: BannerState | None) -> None:
        """Redraw for the new state."""
        if state is None:
            return
        self.update(agent_text(state.groups) if state.agent else state_text(state.lane, state.turn, state.groups))
