"""The answer of a replayed session (``inspect --session``), kept above the lanes rather than
in a toast that times out: which tool was lost, and where the installed AgentScope answers
differently from the recording."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.widgets import Static

from ....core.text.safe_text import inert


def replay_banner(replay: Any) -> Text:
    """The replay's answer, kept above the lanes: the lost-tool headline, then divergence."""
    text = Text()
    for number, link in enumerate(replay.links):
        text.append("\n" if number else "")
        _append_lost_tool(text, link)
    if not replay.links:
        text.append("no lost tools: no recorded call failed because the recording had turned its group off")
    if replay.diverged:
        turns = ", ".join(str(t.call.model_turn) for t in replay.diverged)
        text.append(f"\n≠ the installed AgentScope answers differently from the recording at turn {turns}", "yellow")
        text.append(" (recorded on another version, or the toolkit changed)", style="dim")
    return text


def _append_lost_tool(text: Text, link: Any) -> None:
    """One lost-tool headline, and what the guard would have done with that call."""
    text.append("lost tool  ", style="bold red")
    text.append(inert(link.summary(), single_line=True), style="bold")
    guarded = link.turn.turn.guarded if link.turn is not None else None
    if guarded is not None and guarded.plan is not None:
        # The guard's full answer is in the guarded lane; here only what it would have done.
        verdict = "would have accepted it" if guarded.plan.accepted else "would have refused it"
        text.append(f" · the guard {verdict}", style="green" if not guarded.plan.accepted else "")


class ReplayBanner(Static):
    """Hidden until a recorded session has been replayed; then its answer, up to four lines."""

    DEFAULT_CSS = """
    ReplayBanner { display: none; height: auto; max-height: 4; padding: 0 1; background: $error 15%; }
    ReplayBanner.-shown { display: block; }
    """

    def show_replay(self, replay: Any) -> None:
        """Show ``replay``'s answer (a ``SessionReplay``)."""
        self.update(replay_banner(replay))
        self.add_class("-shown")
