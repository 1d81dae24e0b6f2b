"""The checklist view: pick a tool (fuzzy completion), walk the questions, end at the fix."""

from __future__ import annotations

from collections.abc import Callable

from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.style import Style
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from ...core.model.presentation import MARK
from ...core.model.verdicts import Checklist
from ...core.text.safe_text import inert
from ..completion import complete
from ..palette import DARK, Palette, palette_for
from .safe_input import safe_input


def checklist_renderable(checklist: Checklist, revealed: int, palette: Palette = DARK) -> Group:
    """The first ``revealed`` questions with evidence; the fix once all are revealed."""
    head = Text()
    head.append(inert(checklist.tool, single_line=True), style="bold")
    if checklist.mode:
        head.append(" in mode ")
        head.append(inert(checklist.mode, single_line=True), style="bold")
    head.append(": ")
    head.append(checklist.outcome.upper(), style=palette.verdict(checklist.outcome) + Style(bold=True))
    if checklist.verdict is None:
        head.append("  (not in the tool universe)", style=palette.unknown)
    if checklist.did_you_mean:
        head.append("\nDid you mean: ", style=palette.unknown)
        head.append(
            inert(", ".join(checklist.did_you_mean), single_line=True), style=palette.unknown + Style(bold=True)
        )
        head.append("  (↓ Enter picks one)", style="dim")
    parts: list[RenderableType] = [head]
    total = len(checklist.steps)
    for number, step in enumerate(checklist.steps[:revealed], 1):
        question = Text(f"\n{number}/{total}. ", style="bold")
        question.append(inert(step.question))
        question.append("  ")
        answer_style = palette.stage(step.passed) if step.passed is not None or step.answer != "n/a" else "dim"
        question.append(f"{MARK[step.passed]} {step.answer}", style=answer_style)
        parts.append(question)
        for evidence in step.evidence:
            # Indented as a block so wrapped evidence lines stay under their question.
            parts.append(Padding(Text(inert(evidence), style="dim"), (0, 0, 0, 6)))
    if revealed <= total:
        parts.append(Text(f"\n→ n: next question ({min(revealed, total)}/{total} shown), p: back", style="italic"))
    elif checklist.fix:
        fix = Text("\n")
        fix.append(" Fix ", style="bold reverse")
        fix.append(" ")
        fix.append(inert(checklist.fix), style="bold")
        parts.append(fix)
    else:
        parts.append(Text("\nNothing to fix: the tool is visible in this mode.", style=palette.passed))
    return Group(*parts)


class Candidates(OptionList):
    """The name candidates. Opened by "did you mean" with nothing highlighted, so that ↓ lands on
    the first name; Enter with nothing highlighted also opens the first (the likeliest) name."""

    def action_select(self) -> None:
        """Open the highlighted name, or the first one when none is highlighted."""
        if self.highlighted is None and self.option_count:
            self.highlighted = 0
        super().action_select()


class ChecklistView(Vertical):
    """Owns the typed name and how far the walkthrough has got; the screen runs the checklist."""

    HELP = "Type a tool name (fuzzy), Enter to run the checklist; n / p walk the questions."

    BINDINGS = [
        Binding("n", "step(1)", "Next question", id="checklist-next"),
        Binding("p", "step(-1)", "Previous question", id="checklist-previous"),
        Binding("a", "reveal_all", "Show all", id="checklist-all"),
        Binding("slash", "focus_name", "Tool name", id="checklist-name"),
    ]

    DEFAULT_CSS = """
    ChecklistView { height: 1fr; }
    ChecklistView > #tool-name { margin: 0 1; }
    ChecklistView > #candidates { height: auto; max-height: 8; margin: 0 1; display: none; }
    ChecklistView > #candidates.-open { display: block; }
    ChecklistView > #walk { height: 1fr; padding: 0 1; border-top: solid $panel; }
    ChecklistView > #walk:focus { border-top: heavy $accent; }
    """

    class Asked(Message):
        """The user picked a tool name; the screen answers by setting ``checklist``."""

        def __init__(self, tool: str) -> None:
            self.tool = tool
            super().__init__()

    checklist: reactive[Checklist | None] = reactive(None, init=False, always_update=True)
    """Bound to the screen's: the walkthrough shown (a new one starts at its first question)."""

    def __init__(self, names: Callable[[], tuple[str, ...]], *, id: str | None = None) -> None:
        super().__init__(id=id)
        # Asked for on the first completion: sorting 50,000 names is no part of opening the app.
        self._names_source = names
        self._names: tuple[str, ...] | None = None
        self.revealed = 0
        self._candidate_names: list[str] = []
        self._completed_for: str | None = None
        """The box's text the open candidates complete (Enter takes their top one)."""
        # The real name behind the box when it was filled by ``ask``: the box shows the
        # name made inert (escapes as text), and submitting that text unchanged must run
        # the checklist for the real name, not for its escaped spelling.
        self._asked: tuple[str, str] | None = None

    @property
    def names(self) -> tuple[str, ...]:
        """Every tool name the box completes, sorted (fetched once, when first needed)."""
        if self._names is None:
            self._names = self._names_source()
        return self._names

    def compose(self) -> ComposeResult:
        yield safe_input(placeholder="tool name (fuzzy: type a few letters, ↓ to pick, Enter)", id="tool-name")
        yield Candidates(id="candidates")
        with VerticalScroll(id="walk", can_focus=True):
            yield Static(Text("Pick a tool to walk through the checklist.", style="dim"), id="steps")

    def watch_checklist(self, checklist: Checklist | None) -> None:
        """Start the walkthrough of a new checklist at its first question (the focus stays:
        a checklist re-run for another mode must not move it; see ``focus_walk``)."""
        if checklist is None:
            return
        self.revealed = 1
        self._close_candidates()
        self._redraw()
        if checklist.did_you_mean:
            # The likely names, for the hint's "↓ Enter": nothing highlighted, so ↓
            # highlights the first name and Enter opens that one.
            self._open_candidates(list(checklist.did_you_mean))
            self.query_one("#candidates", OptionList).highlighted = None

    def focus_walk(self) -> None:
        """Focus the walkthrough, or the likely names when the tool is unknown."""
        if self.checklist is not None and self.checklist.did_you_mean:
            self.query_one("#candidates", OptionList).focus()
        else:
            self.query_one("#walk").focus()

    def ask(self, tool: str) -> None:
        """Run the checklist for this name (also from the pipeline view's ``c``).

        The name may come from a hostile config: an Input writes its value to the terminal
        as is, so the box gets the inert spelling while the checklist uses the real name.
        """
        shown = inert(tool, single_line=True)
        self._asked = (shown, tool)
        self.query_one("#tool-name", Input).value = shown
        self._close_candidates()
        self.post_message(self.Asked(tool))

    def name_for(self, typed: str) -> str:
        """The tool name meant by the box's text (the real name if it is still the shown one)."""
        if self._asked is not None and typed == self._asked[0]:
            return self._asked[1]
        return typed

    def _redraw(self) -> None:
        if self.checklist is not None:
            self.query_one("#steps", Static).update(
                checklist_renderable(self.checklist, self.revealed, palette_for(self.app))
            )

    def action_step(self, delta: int) -> None:
        """Reveal the next question (or the fix), or hide the last one."""
        if self.checklist is None:
            return
        self.revealed = max(1, min(self.revealed + delta, len(self.checklist.steps) + 1))
        self._redraw()
        self.query_one("#walk", VerticalScroll).scroll_end(animate=False)

    def action_reveal_all(self) -> None:
        """Every question and the fix at once, scrolled to the fix (the answer people came for)."""
        if self.checklist is not None:
            self.revealed = len(self.checklist.steps) + 1
            self._redraw()
            self.query_one("#walk", VerticalScroll).scroll_end(animate=False)

    def action_focus_name(self) -> None:
        """Back to the name box."""
        self.query_one("#tool-name", Input).focus()

    def _open_candidates(self, names: list[str]) -> None:
        options = self.query_one("#candidates", OptionList)
        options.clear_options()
        options.add_options([Option(Text(inert(name, single_line=True)), id=None) for name in names])
        options.set_class(bool(names), "-open")
        self._candidate_names = names
        self._completed_for = None

    def _close_candidates(self) -> None:
        self.query_one("#candidates", OptionList).set_class(False, "-open")

    @on(Input.Changed, "#tool-name")
    def _typed(self, event: Input.Changed) -> None:
        if not self.query_one("#tool-name", Input).has_focus:
            return
        self._open_candidates(complete(event.value, self.names))
        self._completed_for = event.value.strip()

    @on(Input.Submitted, "#tool-name")
    def _submitted(self, event: Input.Submitted) -> None:
        """Enter takes the top match shown under the box, as a fuzzy finder's Enter takes its
        first line (fzf, k9s's and lazygit's filters); text nothing completes is asked for as
        typed, which answers UNKNOWN with the likely names ("did you mean")."""
        typed = event.value.strip()
        if not typed:
            return
        name = self.name_for(typed)
        if typed == self._completed_for and self._candidate_names and name not in self.names:
            name = self._candidate_names[0]
        self.ask(name)

    @on(OptionList.OptionSelected, "#candidates")
    def _picked(self, event: OptionList.OptionSelected) -> None:
        self.ask(self._candidate_names[event.option_index])

    def on_key(self, event) -> None:  # textual.events.Key
        """↓ in the name box moves into the candidate list."""
        if event.key == "down" and self.query_one("#tool-name", Input).has_focus:
            options = self.query_one("#candidates", OptionList)
            if options.has_class("-open") and options.option_count:
                options.focus()
                options.highlighted = 0
                event.stop()
