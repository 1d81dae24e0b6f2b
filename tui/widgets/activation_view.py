"""The activation view (AgentScope toolkits): compose reset_tools calls, step through a script,
and watch the stock and the guarded lane side by side.

Everything shown comes from ``core.agentscope.session.StepSession``: real ``call_tool``
runs on two lanes sharing one toolkit. The view owns the session (it is this view's
state); it never evaluates anything itself.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rich.console import Group
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.widgets import Checkbox, Input, Static

from toolscope.core.agentscope.aio import on_shared_loop
from toolscope.core.errors import ToolscopeError
from toolscope.core.safe_text import inert
from toolscope.tui.widgets.safe_input import safe_input

GUARD_SUMMARY = "GroupActivationGuard on reset_tools: validates names and booleans first; a refusal changes nothing"
LANE_TITLES = {"stock": "stock reset_tools", "guarded": "guarded reset_tools"}


def activation_view_for(
    subject: Any, script: str | None = None, run_script: bool = False, feed: Any = None
) -> ActivationView | None:
    """An activation view for subjects that offer a step-through session (toolkits).

    ``feed`` (``tui.session_feed``) hands the view a recorded session or a running agent's turns.
    """
    if not callable(getattr(subject, "session", None)) or not hasattr(subject, "group_names"):
        return None
    return ActivationView(subject, script=script, run_script=run_script, feed=feed, id="activation-view")


def _names(items: tuple[str, ...] | list[str]) -> str:
    return ", ".join(inert(i, single_line=True) for i in items) if items else "(none)"


def lane_text(
    lane: str, turn: Any, active: tuple[str, ...], visible: tuple[tuple[str, ...], int], probe: str | None
) -> Text:
    """One lane after the current turn: call, outcome, diff, groups, visible tools, then the text.

    The response text comes last: AgentScope's refusals can run to a dozen lines.
    """
    text = Text()
    text.append(LANE_TITLES[lane], style="bold underline")
    if probe:
        text.append("\n")
        text.append(inert(probe), style="italic dim")
    lane_turn = turn.lanes.get(lane) if turn is not None and turn.kind == "call" else None
    if lane_turn is not None:
        text.append("\ncall ", style="dim")
        text.append(inert(lane_turn.call, single_line=True), style="bold")
        text.append("\nresponse ", style="dim")
        text.append(lane_turn.response_state, style="green" if lane_turn.accepted else "bold red")
        plan = lane_turn.plan
        if plan is not None:
            text.append("  plan ", style="dim")
            text.append("accepted" if plan.accepted else "refused", style="green" if plan.accepted else "bold red")
            if plan.unknown:
                text.append("  unknown: ", style="dim")
                text.append(_names(plan.unknown), style="yellow")
            if plan.non_bool:
                text.append("  not a boolean: ", style="dim")
                text.append(_names(plan.non_bool), style="yellow")
        before, after = set(lane_turn.groups_before), set(lane_turn.groups_after)
        text.append("\ndiff ", style="dim")
        text.append(f"+{_names(sorted(after - before))}", style="green")
        text.append("  ")
        text.append(f"-{_names(sorted(before - after))}", style="red")
        text.append(f"  kept {_names(sorted(before & after))}", style="dim")
    elif turn is not None and turn.kind == "register_group":
        text.append("\n")
        text.append(inert(turn.description), style="bold")
    text.append("\nactive groups ", style="dim")
    text.append(_names(active), style="bold cyan")
    names, tokens = visible
    text.append(f"\nvisible tools ({len(names)}, ~{tokens} tokens) ", style="dim")
    text.append(_names(names))
    if lane_turn is not None:
        text.append("\nrefusal " if not lane_turn.accepted else "\ntext ", style="dim")
        body = inert(lane_turn.response_text.strip()) or "(empty)"
        text.append(body, style="red" if not lane_turn.accepted else "")
    return text


def turn_list_text(history: list[Any], cursor: int, total_steps: int) -> Text:
    """The turns so far; ≠ marks where the lanes diverged (different groups or outcome)."""
    text = Text()
    text.append(f"turns {cursor} (script steps: {total_steps})", style="bold")
    for turn in history:
        text.append("\n")
        if turn.kind == "call":
            stock, guarded = turn.stock, turn.guarded
            diverged = stock.groups_after != guarded.groups_after or stock.accepted != guarded.accepted
            text.append("≠ " if diverged else "= ", style="bold red" if diverged else "green")
            text.append(f"{turn.index}. ")
            text.append(inert(turn.description, single_line=True))
            text.append("  stock ", style="dim")
            text.append(_names(stock.groups_after), style="cyan")
            text.append("  guarded ", style="dim")
            text.append(_names(guarded.groups_after), style="cyan")
        else:
            text.append(f"+ {turn.index}. ")
            text.append(inert(turn.description, single_line=True))
    return text


class GroupToggle(Checkbox):
    """A group's on/off toggle whose state reads without colour: ``✓`` on, blank off."""

    @property
    def BUTTON_INNER(self) -> str:  # type: ignore[override]  # Textual's name
        return "✓" if self.value else " "


class ActivationView(Vertical):
    """Composer (a toggle per group + raw JSON), two lanes, the turn list."""

    HELP = (
        "Build a reset_tools call with the toggles or type raw JSON (misspelled names and "
        "non-booleans are allowed), then fire it on both lanes. n / p step through the script, r restarts."
    )

    BINDINGS = [
        Binding("f", "fire", "Fire", id="activation-fire"),
        Binding("n", "next_step", "Next", id="activation-next"),
        Binding("p", "previous_step", "Back", id="activation-back"),
        Binding("r", "restart", "Restart", id="activation-restart"),
        Binding("l", "focus_script", "Load script", id="activation-load"),
    ]

    DEFAULT_CSS = """
    ActivationView { height: 1fr; }
    ActivationView #composer { height: auto; padding: 0 1; }
    ActivationView #composer Checkbox { width: auto; border: none; padding: 0 1 0 0; height: 1; }
    ActivationView #raw, ActivationView #script-path { border: none; height: 1; background: $boost; margin: 0 1; }
    ActivationView #raw:focus, ActivationView #script-path:focus { background: $primary 30%; }
    ActivationView #lanes { height: 1fr; }
    ActivationView .lane { width: 1fr; padding: 0 1; border: round $primary; }
    ActivationView #turns { height: 8; padding: 0 1; border-top: solid $primary; }
    """

    def __init__(
        self,
        subject: Any,
        *,
        script: str | None = None,
        run_script: bool = False,
        feed: Any = None,
        id: str | None = None,
    ) -> None:
        super().__init__(id=id)
        self.subject = subject
        self.feed = feed
        self.start_script = script
        self.run_start_script = run_script
        self.session = subject.session(())
        self.script_name: str | None = None
        self.probe_summary: str | None = None
        self._visible: dict[str, tuple[tuple[str, ...], int]] = {}

    def compose(self) -> ComposeResult:
        with Horizontal(id="composer"):
            yield from self._toggles({})
        yield safe_input(
            placeholder='raw reset_tools arguments, e.g. {"web_serch": true, "scraping": "yes"}  (Enter fires)',
            id="raw",
        )
        yield safe_input(placeholder="script file (JSON/YAML list of calls), Enter loads it", id="script-path")
        with Horizontal(id="lanes"):
            for lane in self.session.lanes:
                with VerticalScroll(classes="lane"):
                    yield Static(id=f"lane-{lane}")
        yield Static(id="turns")

    async def on_mount(self) -> None:
        """Compose the initial call from the toggles; probe the installed stock meta tool."""
        self._sync_raw_from_toggles()
        from toolscope.core.agentscope.probe import arun_probe

        try:
            self.probe_summary = (await on_shared_loop(arun_probe())).summary()
        except Exception as exc:  # the probe is informative; the view still works
            self.probe_summary = f"probe failed: {type(exc).__name__}: {exc}"
        if self.start_script:
            await self.load_script(self.start_script)
            if self.run_start_script:
                await self._run(on_shared_loop(self.session.arun_all()))
        if self.feed is not None:
            await self.feed.start(self)
        await self.refresh_lanes()

    # -- composer -------------------------------------------------------------------------

    def _toggles(self, values: dict[str, bool]) -> list[GroupToggle]:
        """A toggle per group the session knows now; ``values`` keeps earlier choices."""
        initial = set(self.subject.active_groups())
        return [
            GroupToggle(Content(inert(name, single_line=True)), values.get(name, name in initial), name=name)
            for name in self.session.known_groups()
        ]

    async def _rebuild_toggles(self) -> None:
        """New toggles when a script step registered a group (or an undo removed one).

        The raw JSON box is left alone: it may hold what the user typed.
        """
        boxes = list(self.query(GroupToggle))
        if tuple(box.name for box in boxes) == self.session.known_groups():
            return
        values = {box.name: box.value for box in boxes if box.name is not None}
        focused = self.app.focused in boxes
        composer = self.query_one("#composer", Horizontal)
        await composer.remove_children()
        toggles = self._toggles(values)
        await composer.mount_all(toggles)
        if focused and toggles:
            toggles[0].focus()

    def focus_main(self) -> None:
        """Focus the first toggle (not a box: an Input swallows the view's letter keys)."""
        boxes = self.query(GroupToggle)
        (boxes.first() if boxes else self.query_one("#raw", Input)).focus()

    def _sync_raw_from_toggles(self) -> None:
        values = {box.name: box.value for box in self.query(GroupToggle)}
        self._generated_raw = json.dumps(values)
        self.query_one("#raw", Input).value = self._generated_raw

    def _follow_guarded_lane(self) -> None:
        """After a turn the toggles show the guarded lane's active groups, so firing again
        keeps them (reset_tools sets the final state); hand-typed raw JSON is left alone."""
        raw = self.query_one("#raw", Input)
        hand_typed = raw.value != getattr(self, "_generated_raw", raw.value)
        active = set(self.session.active_groups("guarded"))
        with self.prevent(Checkbox.Changed):
            for box in self.query(GroupToggle):
                box.value = box.name in active
        if not hand_typed:
            self._sync_raw_from_toggles()

    @on(Checkbox.Changed)
    def _toggled(self) -> None:
        self._sync_raw_from_toggles()

    @on(Input.Submitted, "#raw")
    async def _raw_submitted(self) -> None:
        self.focus_main()  # back to the view: n, p, f are keys again, not text
        await self.action_fire()

    @on(Input.Submitted, "#script-path")
    async def _script_submitted(self, event: Input.Submitted) -> None:
        path = event.value.strip()
        if not path:
            self.notify("No script path given: type a file name, then Enter.", title="script", severity="warning")
            return
        self.focus_main()
        await self.load_script(path)

    # -- actions --------------------------------------------------------------------------

    async def action_fire(self) -> None:
        """Send the raw text, exactly as typed, to reset_tools on both lanes."""
        raw = self.query_one("#raw", Input).value
        await self._run(on_shared_loop(self.session.acall(raw)))

    async def action_next_step(self) -> None:
        """Redo the next turn or run the next script step."""
        await self._run(on_shared_loop(self.session.aforward()), at_end="End of the script.")

    async def action_previous_step(self) -> None:
        """Undo the last turn: both lanes go back to their state before it."""
        if self.session.back() is None:
            self.notify("Already at the start.", severity="warning")
        await self.refresh_lanes()

    async def action_restart(self) -> None:
        """Back to the initial state (recorded turns stay available with n)."""
        self.session.reset()
        await self.refresh_lanes()

    def action_focus_script(self) -> None:
        """Focus the script path box."""
        self.query_one("#script-path", Input).focus()

    async def load_script(self, path: str) -> None:
        """Load a script and start a fresh session over it (n steps through it)."""
        from toolscope.core.agentscope.script import load_script

        try:
            steps = load_script(Path(path))
            self.session.reset()
            self.session = self.subject.session(steps)
        except ToolscopeError as exc:
            self.notify(inert(exc.render()), title="script", severity="error", markup=False)
            return
        self.script_name = Path(path).name
        self.notify(f"Loaded {inert(self.script_name)}: {len(steps)} steps (n: next)", markup=False)
        await self.refresh_lanes()

    async def _run(self, coroutine: Any, at_end: str | None = None) -> None:
        try:
            turn = await coroutine  # a Turn, None at the end, or the history (run_all)
        except ToolscopeError as exc:
            self.notify(inert(exc.render()), title="reset_tools", severity="error", markup=False)
            return
        if turn is None and at_end:
            self.notify(at_end, severity="warning")
        await self.refresh_lanes()

    # -- display --------------------------------------------------------------------------

    async def refresh_lanes(self) -> None:
        """Redraw both lanes and the turn list from the session."""
        history = self.session.history
        turn = history[-1] if history else None
        for lane in self.session.lanes:
            self._visible[lane] = await on_shared_loop(self.session.avisible(lane))
            probe = self.probe_summary if lane == "stock" else GUARD_SUMMARY
            self.query_one(f"#lane-{lane}", Static).update(
                lane_text(lane, turn, self.session.active_groups(lane), self._visible[lane], probe)
            )
        self.query_one("#turns", Static).update(
            Group(turn_list_text(history, self.session.cursor, len(self.session.steps)))
        )
        await self._rebuild_toggles()
        self._follow_guarded_lane()

    def export_markdown(self) -> str:
        """The turns and both lanes' current state, as Markdown."""
        from toolscope.tui.export import md

        lines = ["# toolscope: activation", ""]
        if self.script_name:
            lines.append(f"- script: {md(self.script_name)}")
        if self.probe_summary:
            lines.append(f"- {md(self.probe_summary)}")
        lines += [
            "",
            "| turn | call | stock groups | guarded groups | stock response | guarded response |",
            "|---|---|---|---|---|---|",
        ]
        for turn in self.session.history:
            if turn.kind != "call":
                lines.append(f"| {turn.index} | {md(turn.description)} | | | | |")
                continue
            s, g = turn.stock, turn.guarded
            lines.append(
                f"| {turn.index} | {md(s.call)} | {md(', '.join(s.groups_after))} | {md(', '.join(g.groups_after))} "
                f"| {s.response_state}: {md(s.response_text[:120])} | {g.response_state}: {md(g.response_text[:120])} |"
            )
        for lane in self.session.lanes:
            names, tokens = self._visible.get(lane, ((), 0))
            lines.append(f"\n**{lane}** visible tools ({len(names)}, ~{tokens} tokens): {md(', '.join(names))}")
        return "\n".join(lines) + "\n"
