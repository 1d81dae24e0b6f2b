"""The activation view's turn list: one line per turn, scrollable, following the newest.

It shows any sequence of ``core.systems.agentscope.turns.Turn`` (a live session's history, or a
replayed one); highlighting a row (keys, mouse, wheel) tells the view which turn's lanes
to show.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text
from textual.content import Content
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from ....core.model.presentation import MARK
from ....core.text.safe_text import inert


def _names(items: Sequence[str]) -> str:
    return ",".join(inert(i, single_line=True) for i in items) if items else "∅"


def diverged(turn: Any) -> bool:
    """The two lanes ended in different groups, or one accepted what the other refused."""
    if turn.kind != "call":
        return False
    stock, guarded = turn.stock, turn.guarded
    return stock.groups_after != guarded.groups_after or stock.accepted != guarded.accepted


def turn_prompt(turn: Any) -> Text:
    """One line: ``≠ 3. stock ✓ web_search  guarded ✗ ∅  {"web_serch": true}``, or ``= 2. both ✓
    web_search  {…}`` when the lanes agree (no wrapping)."""
    text = Text(no_wrap=True, overflow="ellipsis")
    if turn.kind != "call":
        text.append("+ ", style="bold cyan")
        text.append(f"{turn.index}. ")
        text.append(inert(turn.description, single_line=True))
        return text
    split = diverged(turn)
    text.append("≠ " if split else "= ", style="bold red" if split else "green")
    text.append(f"{turn.index}. ", style="bold")
    _lane_outcomes(text, [(lane, turn.lanes[lane]) for lane in ("stock", "guarded")])
    text.append(inert(_without_meta_tool(turn.description, turn.lanes["guarded"].call), single_line=True))
    return text


def _without_meta_tool(description: str, call: str) -> str:
    """``reset_tools {…}`` → ``{…}``: the meta tool's name is the same on every row (the lanes'
    titles say it). Anything else (a followed agent's ``turn 3: … [agent: …]``) is kept whole."""
    tool, _, arguments = description.partition(" ")
    return arguments if arguments == call and tool and " " not in tool else description


def _outcome_chunks(lanes: Sequence[tuple[str, Any]], together: str = "both", tail: str = "") -> list[Text]:
    """``stock ✓ a,b`` and ``guarded ✗ a``, or one ``both ✓ a,b`` when the lanes agree: at 80
    columns saying an agreeing outcome once leaves room for the call, which names the turn."""
    if len(lanes) == 2 and _same_outcome(lanes[0][1], lanes[1][1]):
        lanes = [(together, lanes[0][1])]
    return [_outcome(lane, lane_turn.accepted, _names(lane_turn.groups_after), tail) for lane, lane_turn in lanes]


def _outcome(lane: str, accepted: bool, groups: str, tail: str = "") -> Text:
    """``stock ✓ a,b`` (and ``tail``, in the groups' style)."""
    text = Text()
    text.append(f"{lane} ", style="dim")
    text.append(MARK[True] if accepted else MARK[False], style="green" if accepted else "bold red")
    text.append(f" {groups}{tail}", style="cyan")
    return text


def _lane_outcomes(text: Text, lanes: Sequence[tuple[str, Any]], together: str = "both") -> None:
    """Append the lanes' outcomes, each followed by two spaces."""
    for chunk in _outcome_chunks(lanes, together, tail="  "):
        text.append_text(chunk)


def _same_outcome(one: Any, other: Any) -> bool:
    return bool(one.accepted == other.accepted and one.groups_after == other.groups_after)


def replayed_prompt(turn: Any, replayed: Any, width: int | None = None) -> Text:
    """A row of a replay: ``≠ turn 4  recorded ✓ ∅  stock+guarded ✗ web_search  {"web_serch": true}``.

    ``≠`` marks a turn whose stock replay differs from the recording (``=``: it agrees);
    the recording comes first, the what-if lanes after it, lanes that agree named together. When the row is wider than
    ``width`` it wraps between its parts (never inside one), the later lines indented under
    the first outcome, so no lane's outcome and no call is cut at the right edge.
    """
    head = Text()
    split = replayed.differs is not None
    head.append("≠ " if split else "= ", style="bold red" if split else "green")
    head.append(f"turn {replayed.call.model_turn}  ", style="bold")
    call = replayed.call
    after = replayed.recorded_after
    outcomes: dict[tuple[bool, Any], list[str]] = {}
    # Lanes that agree share one outcome ("recorded+stock ✓ ∅", or "all ✓ a,b" when the what-ifs
    # agree with the recording): at 80 columns that leaves the row room for the call.
    outcomes.setdefault((call.result_state == "success", after), []).append("recorded")
    for lane in ("stock", "guarded"):
        lane_turn = turn.lanes[lane]
        outcomes.setdefault((lane_turn.accepted, lane_turn.groups_after), []).append(lane)
    parts = [
        _outcome("all" if len(lanes) == 3 else "+".join(lanes), accepted, _names(groups) if groups is not None else "?")
        for (accepted, groups), lanes in outcomes.items()
    ]
    return _flowed(head, [*parts, Text(inert(call.shown_input, single_line=True))], width)


def _flowed(head: Text, parts: Sequence[Text], width: int | None, gap: str = "  ", gap_style: str = "cyan") -> Text:
    """``head`` then ``parts`` separated by ``gap``; on one line when it fits in ``width`` (or
    ``width`` is None), else wrapped between parts with a hanging indent as wide as ``head``."""
    lines = [head.copy()]
    for part in parts:
        line = lines[-1]
        starts_line = line.cell_len == head.cell_len
        if width is not None and not starts_line and line.cell_len + len(gap) + part.cell_len > width:
            lines.append(Text(" " * head.cell_len))
        elif not starts_line:
            line.append(gap, style=gap_style)
        lines[-1].append_text(part)
    text = Text("\n", no_wrap=True, overflow="ellipsis").join(lines)
    text.no_wrap, text.overflow = True, "ellipsis"
    return text


def turns_title(session: Any, script_name: str | None, replayed: Sequence[Any] | None, runs_left_out: int = 0) -> str:
    """The turn list's title: how many turns, and the script or the replayed session they come
    from; following a tap several agents write, how many runs it leaves out."""
    name = inert(script_name or "", single_line=True)
    if replayed is not None:
        return f"session {name} · {len(session.history)} of {len(replayed)} reset_tools calls replayed"
    script = f" · script {name} {session.script_position}/{len(session.steps)}" if name else ""
    # Several agents write the followed tap: first, so that it fits in 80 columns.
    runs = f" · 1 of {runs_left_out + 1:,} runs followed (replay another: --session-id RUN)" if runs_left_out else ""
    return f"turns {len(session.history)}{runs}{script}"


class TurnList(OptionList):
    """Every turn so far, newest last; the highlighted one is shown in the lanes."""

    DEFAULT_CSS = """
    TurnList { height: 1fr; text-wrap: nowrap; text-overflow: ellipsis; border: none; border-top: solid $primary; padding: 0 1; scrollbar-size-vertical: 1; }
    TurnList:focus { border: none; border-top: thick $accent; }
    """

    class Picked(Message):
        """The user moved the highlight to a turn (``index`` is 0-based)."""

        def __init__(self, index: int) -> None:
            self.index = index
            super().__init__()

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.turn_count = 0
        self._replay_rows: tuple[Sequence[Any], Sequence[Any], int | None] | None = None
        """A replay's turns as last shown (and their row width): re-flowed when the width changes."""

    def show_turns(self, turns: Sequence[Any], select: int | None, replayed: Sequence[Any] | None = None) -> None:
        """Replace the rows; highlight (and scroll to) ``select``, or nothing.

        ``replayed`` (a recorded session's ``ReplayedTurn``s, one per turn): rows lead with the recording.
        """
        self.clear_options()
        self.turn_count = len(turns)
        width = self.row_width
        self._replay_rows = (turns, replayed, width) if turns and replayed is not None else None
        if turns and replayed is not None:
            self.add_options(Option(replayed_prompt(turn, replayed[i], width)) for i, turn in enumerate(turns))
        elif turns:
            self.add_options(Option(turn_prompt(turn)) for turn in turns)
        else:
            hint = "n replays the first recorded call" if replayed is not None else "n runs the next script step"
            self.add_option(Option(Text(f"no turns yet: f fires the call, {hint}"), disabled=True))
        self.highlighted = select if turns and select is not None else None
        if self.highlighted is not None:
            self.scroll_to_highlight()

    @property
    def row_width(self) -> int | None:
        """The cells a row can use (a scrollbar's column kept free); None before the first layout."""
        width = self.size.width - self.styles.gutter.width - self.styles.scrollbar_size_vertical
        return width if self.size.width and width > 0 else None

    def on_resize(self) -> None:
        """A replay's rows wrap to the width: re-flow them when it changed."""
        if self._replay_rows is not None and self._replay_rows[2] != self.row_width:
            turns, replayed, _ = self._replay_rows
            self.show_turns(turns, self.highlighted, replayed)

    def show_session(
        self, session: Any, select: int | None, replay: Any, script_name: str | None, runs_left_out: int
    ) -> None:
        """The session's turns (led by the recording when ``replay`` is one), and the title."""
        replayed = replay.turns if replay is not None else None
        self.show_turns(session.history, select, replayed)
        self.border_title = Content(turns_title(session, script_name, replayed, runs_left_out))  # never markup

    def show_replay_progress(self, session_name: str | None, done: int, total: int) -> None:
        """A recorded session is being replayed: how far, in the title."""
        name = inert(session_name or "", single_line=True)
        self.border_title = Content(f"session {name} · replaying {done:,} of {total:,} reset_tools calls (q quits)")

    def highlight_after_change(self, total: int, selected: int | None, newest: bool | None) -> int | None:
        """The turn to show once the history holds ``total`` turns: the newest, unless
        ``newest`` is None (a feed adding turns) and the user is browsing older turns in this
        focused list, as a log viewer stops following when scrolled up."""
        browsing = not newest and self.has_focus and not self.at_newest and selected is not None and selected < total
        return selected if browsing else (total - 1 if total else None)

    @property
    def at_newest(self) -> bool:
        """The newest turn is highlighted (new turns keep being followed)."""
        return self.turn_count == 0 or self.highlighted == self.turn_count - 1

    def _on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        # Also posted when the view moves the highlight itself: showing a turn is idempotent.
        event.stop()
        if self.turn_count:
            self.post_message(self.Picked(event.option_index))
