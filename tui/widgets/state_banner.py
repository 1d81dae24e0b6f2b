"""The Pipeline view's state line (toolkits): which activation state its "visible" stage shows."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
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


class StateBanner(Static):
    """One line above the pipeline grid; the screen calls ``show`` after every activation turn."""

    DEFAULT_CSS = """
    StateBanner { height: 1; padding: 0 1; background: $boost; text-wrap: nowrap; text-overflow: ellipsis; }
    """

    def show(self, lane: str | None, turn: int, groups: Sequence[str]) -> None:
        """Redraw for this lane, turn and active groups."""
        self.update(state_text(lane, turn, groups))

    def show_agent(self, groups: Sequence[str]) -> None:
        """Redraw for a followed agent's real active groups."""
        self.update(agent_text(groups))
