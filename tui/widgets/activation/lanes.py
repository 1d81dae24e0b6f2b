"""The two lanes of the activation view: what one lane saw in one turn, compactly.

A lane is drawn from a ``LaneState`` (plain data: the lane's side of a turn, or the state
before any turn), so any source of turns — a live session, a replayed one — can feed it.
At 80x24 every line that matters (call, accepted/refused, response, groups diff, visible
tools) fits without scrolling: the probe/guard description and long texts are one line
each until the user asks for details (``d``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Console, ConsoleOptions, RenderResult
from rich.segment import Segment
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.content import Content
from textual.widgets import Static

from ....core.model.presentation import MARK
from ....core.systems.agentscope.lane_history import RECORDED, LaneState
from ....core.text.safe_text import inert

LANE_TITLES = {
    "recorded": "recorded (as saved)",
    "stock": "stock reset_tools",
    "guarded": "guarded reset_tools",
}
"""Lane titles when the lane is wide enough (else the bare lane name)."""
SHOWN_UNKNOWN = 3
"""Unknown group names named on the plan line (a call may carry thousands)."""
RECORDED_SUMMARY = "what the session recorded: the call, its result and the groups after it, as saved"


class Clamped:
    """A Rich renderable: ``text`` wrapped to the width, cut to ``max_lines`` with an ellipsis."""

    def __init__(self, text: Text, max_lines: int | None) -> None:
        self.text = text
        self.max_lines = max_lines

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = max(options.max_width, 1)
        lines: list[Text] = list(self.text.wrap(console, width, overflow="fold"))
        if self.max_lines is not None and len(lines) > self.max_lines:
            lines = lines[: self.max_lines]
            last = lines[-1]
            last.truncate(width - 1)
            last.append("…", style="bold")
        for line in lines:
            yield from line.render(console)
            yield Segment.line()


def _names(items: Sequence[str]) -> str:
    return ", ".join(inert(i, single_line=True) for i in items) if items else "(none)"


def _outcome(lane_turn: Any) -> Text:
    text = Text()
    if lane_turn.accepted:
        text.append(f"{MARK[True]} accepted", style="bold green")
    else:
        text.append(f"{MARK[False]} REFUSED", style="bold red")
    text.append(f" ({inert(lane_turn.response_state, single_line=True)})", style="dim")
    plan = lane_turn.plan
    if plan is not None:
        if plan.accepted != lane_turn.accepted:
            # Only when the plan and the outcome differ does the plan's own word add anything.
            text.append(" plan ", style="dim")
            text.append("ok" if plan.accepted else "refused", style="green" if plan.accepted else "bold red")
        if plan.unknown:
            _append_unknown(text, plan)
        if plan.non_bool:
            text.append(" not a boolean: ", style="dim")
            text.append(_names(plan.non_bool), style="yellow")
    return text


def _append_unknown(text: Text, plan: Any) -> None:
    """The names the guard does not know, each with its did-you-mean. On this line, the line
    that is never cut: at 80 columns the response text that also says it is cut before it gets there."""
    text.append(" unknown: ", style="dim")
    for number, name in enumerate(plan.unknown[:SHOWN_UNKNOWN]):
        text.append(", " if number else "")
        text.append(inert(name, single_line=True), style="yellow")
        close = plan.suggestions(name)
        if close:
            guesses = " or ".join(repr(inert(c, single_line=True)) for c in close)
            text.append(f" (did you mean {guesses}?)", style="bold")
    if len(plan.unknown) > SHOWN_UNKNOWN:
        text.append(f" +{len(plan.unknown) - SHOWN_UNKNOWN} more", style="dim")


def _groups(state: LaneState) -> Text:
    """``groups +added -removed =kept``, or just the active groups when nothing moved."""
    text = Text()
    text.append("groups ", style="dim")
    lane_turn = state.turn
    if lane_turn is None:
        text.append(_names(state.active), style="bold cyan")
        return text
    if getattr(lane_turn, "groups_known", True) is False:
        text.append("not recorded", style="dim italic")
        return text
    before, after = set(lane_turn.groups_before), set(lane_turn.groups_after)
    added, removed, kept = sorted(after - before), sorted(before - after), sorted(before & after)
    if not (added or removed):
        text.append(_names(kept), style="bold cyan")
        text.append(" (unchanged)", style="dim")
        return text
    parts = [("+", added, "bold green"), ("-", removed, "bold red"), ("=", kept, "cyan")]
    for sign, names, style in parts:
        if names:
            text.append(f"{sign}{_names(names)} ", style=style)
    text.rstrip()
    return text


def lane_body(
    state: LaneState, description: str | None, details: bool = False, compact: bool = False, limit: int = 2
) -> list[Any]:
    """The lane's lines, most important first; ``details`` shows long texts in full.

    Otherwise each long text (call, response, groups, visible tools) takes at most
    ``limit`` rows and the description one. ``compact`` (short terminals) leaves out the
    call, which the composer and the turn list already show, and keeps every line to one row.
    """
    cap: int | None = None if details else (1 if compact else limit)
    lines: list[Any] = []
    if description:
        lines.append(Clamped(Text().append(inert(description), style="italic dim"), None if details else 1))
    lane_turn = state.turn
    if lane_turn is not None:
        lines += _turn_lines(lane_turn, details, compact, cap)
    elif state.event:
        lines.append(Clamped(Text().append(inert(state.event, single_line=True), style="bold"), cap))
    lines.append(Clamped(_groups(state), cap))
    if state.lane == RECORDED:
        # A session saves no tool list: the stock lane replays what was offered.
        return lines
    visible = Text(f"offered {len(state.visible)} (~{state.tokens:,} tokens) ", style="dim")
    visible.append(_names(state.visible))
    lines.append(Clamped(visible, cap))
    return lines


def _turn_lines(lane_turn: Any, details: bool, compact: bool, cap: int | None) -> list[Clamped]:
    """The call (unless ``compact``), its outcome and the response text."""
    lines = []
    if not compact:
        call = Text("call ", style="dim")
        call.append(inert(lane_turn.call, single_line=True), style="bold")
        lines.append(Clamped(call, cap))
    # The outcome carries the guard's reasons and did-you-mean: a row more than other texts.
    lines.append(Clamped(_outcome(lane_turn), None if cap is None else cap + (not compact)))
    body = inert(lane_turn.response_text.strip()) or "(empty)"
    if not details:
        body = body.replace("\n", " ↵ ")  # one paragraph: the first words are what matter
    response = Text("says ", style="dim")
    response.append(body, style="red" if not lane_turn.accepted else "")
    lines.append(Clamped(response, cap))
    return lines


class LanePane(VerticalScroll):
    """One lane: a titled, scrollable column showing a ``LaneState``."""

    DEFAULT_CSS = """
    LanePane { width: 1fr; height: 1fr; padding: 0 1; border-top: solid $primary; scrollbar-size-vertical: 1; }
    LanePane > Static { width: 1fr; }
    """

    def __init__(self, lane: str, *, id: str | None = None) -> None:
        super().__init__(id=id, classes="lane")
        self.lane = lane
        self.border_title = Content(LANE_TITLES.get(lane, lane))
        self.state: LaneState | None = None
        self.full = False
        """The last ``show`` drew every text in full."""

    def compose(self) -> ComposeResult:
        yield Static(id=f"lane-{self.lane}")

    def show(
        self,
        state: LaneState,
        description: str | None,
        details: bool | None,
        turn_label: str,
        compact: bool,
        meta_tool: str = "reset_tools",
    ) -> None:
        """Draw ``state``; the border title says which turn it is.

        ``details`` None: in full when that fits the pane's height, else one line per text
        (``full`` says which was drawn).
        """
        from rich.console import Group

        self.state = state
        # A narrow lane keeps the turn readable: "stock · turn 3/9".
        title = LANE_TITLES.get(self.lane, self.lane) if self.size.width >= 44 else self.lane
        if self.lane != "recorded":
            title = title.replace("reset_tools", meta_tool)  # 1.x: reset_equipped_tools
        self.border_title = Content(f"{title} · {turn_label}")
        body = Group(*lane_body(state, description, True, False))
        self.full = details is True or (details is None and self._fits(body))
        if not self.full:
            body = self._clamped_body(state, description, roomy=details is None and not compact, compact=compact)
        self.query_one(Static).update(body)

    def _clamped_body(self, state: LaneState, description: str | None, *, roomy: bool, compact: bool) -> Any:
        """The lane with each long text clamped; ``roomy``: the most rows per text that still fits."""
        from rich.console import Group

        if roomy:
            for limit in (8, 5, 3):
                roomier = Group(*lane_body(state, description, False, False, limit))
                if self._fits(roomier):
                    return roomier
        return Group(*lane_body(state, None if compact else description, False, compact))

    def _fits(self, body: Any) -> bool:
        region = self.scrollable_content_region
        if not region.width or not region.height:
            return False
        console = self.app.console
        return len(console.render_lines(body, console.options.update_width(region.width), pad=False)) <= region.height
