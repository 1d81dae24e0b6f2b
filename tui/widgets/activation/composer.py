"""The activation view's composer: one toggle per group, on a line that scrolls sideways, and
the same reset_tools call as raw JSON.

With a dozen groups the toggles do not fit in 80 columns: the row scrolls (the focused
toggle is always scrolled into view, ← → move between toggles, the wheel scrolls), and
``‹ 3`` / ``4 ›`` at the edges count the toggles out of sight, as a tab bar would.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, HorizontalScroll
from textual.content import Content
from textual.events import MouseScrollDown, MouseScrollUp
from textual.widgets import Checkbox, Input, Static

from ....core.model.presentation import MARK
from ....core.text.safe_text import inert
from ..safe_input import NO_CONTROL

NOT_A_BOOLEAN = "?"
"""A toggle whose group the raw JSON sets to something else than true or false ("maybe")."""


class GroupToggle(Checkbox):
    """A group's on/off toggle whose state reads without colour: ``✓`` on, blank off, ``?``
    when the raw JSON gives the group a value that is not a boolean."""

    BINDINGS = [
        # Shown in the footer: a toggle is the first thing focused and nothing else says how to flip it.
        Binding("space,enter", "toggle_button", "Toggle group", id="activation-toggle-group"),
        Binding("left", "neighbour(-1)", "Previous group", show=False),
        Binding("right", "neighbour(1)", "Next group", show=False),
    ]

    not_a_boolean = False
    """The raw JSON gives this group a value that is neither true nor false."""

    @property
    def BUTTON_INNER(self) -> str:  # type: ignore[override]  # Textual's name
        if self.not_a_boolean:
            return NOT_A_BOOLEAN
        return MARK[True] if self.value else " "

    def on_focus(self, event: Any) -> None:
        """Scroll the whole toggle into view (Textual's own focus handling runs first)."""
        # The whole toggle, box and name, in view: Textual's own scroll can leave it cut at an edge.
        if isinstance(self.parent, HorizontalScroll):
            self.call_after_refresh(self.parent.scroll_to_widget, self, animate=False, center=True)

    def action_neighbour(self, step: int) -> None:
        """Focus the toggle to the left or right (wrapping)."""
        boxes = list(self.parent.query(GroupToggle)) if self.parent else [self]
        boxes[(boxes.index(self) + step) % len(boxes)].take_focus()

    def take_focus(self) -> None:
        """Focus this toggle even while it is out of sight (not drawn): focusing scrolls it in."""
        # Textual never focuses a hidden widget; the markers hide it again once it is out of sight.
        self.styles.visibility = "visible"
        self.focus()


def _toggles(groups: Sequence[str], on: set[str]) -> list[GroupToggle]:
    return [GroupToggle(Content(inert(name, single_line=True)), name in on, name=name) for name in groups]


class ToggleStrip(HorizontalScroll):
    """The scrolling part of the row; the wheel scrolls it sideways (it cannot go up or down)."""

    DEFAULT_CSS = """
    ToggleStrip { height: 1; width: 1fr; scrollbar-size-horizontal: 0; }
    ToggleStrip > GroupToggle { width: auto; border: none; padding: 0 1 0 0; height: 1; background: transparent; }
    ToggleStrip > GroupToggle:focus { border: none; background: $boost; }
    ToggleStrip > GroupToggle:focus > .toggle--label { text-style: bold reverse; }
    """

    def _on_mouse_scroll_down(self, event: MouseScrollDown) -> None:
        event.stop()
        self.scroll_relative(x=8, animate=False)

    def _on_mouse_scroll_up(self, event: MouseScrollUp) -> None:
        event.stop()
        self.scroll_relative(x=-8, animate=False)

    def watch_scroll_x(self, old: float, new: float) -> None:
        super().watch_scroll_x(old, new)
        if isinstance(self.parent, GroupBar):
            self.parent.update_markers()

    def on_resize(self) -> None:
        """Laid out (first paint) or resized: recount what is out of sight."""
        if isinstance(self.parent, GroupBar):
            self.call_after_refresh(self.parent.update_markers)


class GroupBar(Horizontal):
    """``groups 2/12 on ‹ 3 [✓] a [ ] b … 4 ›``: the toggles plus what is out of sight."""

    DEFAULT_CSS = """
    GroupBar { height: 1; padding: 0 1; }
    GroupBar > #group-count { width: auto; color: $text-muted; padding: 0 1 0 0; }
    /* Fixed widths: a marker appearing must not resize the strip it describes. */
    GroupBar > .marker { width: 4; color: $text-accent; text-style: bold; }
    GroupBar > #more-left { text-align: left; }
    GroupBar > #more-right { text-align: right; }
    """

    def __init__(self, groups: Sequence[str], on: set[str], *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._initial = (tuple(groups), set(on))
        self._spans: dict[GroupToggle, tuple[int, int]] = {}

    def compose(self) -> ComposeResult:
        yield Static(id="group-count")
        yield Static(classes="marker", id="more-left")
        with ToggleStrip(id="toggles"):
            yield from _toggles(*self._initial)
        yield Static(classes="marker", id="more-right")

    def on_mount(self) -> None:
        """Count the toggles once they are laid out."""
        self.call_after_refresh(self.update_markers)

    @property
    def toggles(self) -> list[GroupToggle]:
        """The toggles, in group order."""
        return list(self.query(GroupToggle))

    def values(self) -> dict[str, bool]:
        """Group name → on, in group order."""
        return {box.name: box.value for box in self.toggles if box.name is not None}

    async def show_groups(self, groups: Sequence[str], on: set[str]) -> None:
        """One toggle per group (rebuilt only when the group list changed); focus is kept."""
        boxes = self.toggles
        if tuple(box.name for box in boxes) == tuple(groups):
            return
        focused_name = self.app.focused.name if self.app.focused in boxes else None
        strip = self.query_one(ToggleStrip)
        await strip.remove_children()
        self._spans.clear()
        toggles = _toggles(groups, on)
        await strip.mount_all(toggles)
        if focused_name is not None and toggles:
            next((box for box in toggles if box.name == focused_name), toggles[0]).focus()
        self.update_markers()

    def set_values(self, on: set[str]) -> None:
        """Tick exactly the groups in ``on`` (no Changed messages)."""
        with self.prevent(Checkbox.Changed):
            for box in self.toggles:
                box.value = box.name in on
                box.not_a_boolean = False
                box.refresh()
        self.update_markers()

    def forget_arguments(self) -> None:
        """A toggle was flipped: the call is the toggles' again, all booleans."""
        for box in self.toggles:
            if box.not_a_boolean:
                box.not_a_boolean = False
                box.refresh()

    def show_raw_arguments(self, text: str) -> None:
        """Mirror hand-typed reset_tools arguments: true ✓, false blank, anything else ``?``.

        Groups the arguments leave out keep their toggle; text that is not a JSON object
        changes nothing (the call itself says what is wrong with it when fired).
        """
        try:
            arguments = json.loads(text)
        except (ValueError, RecursionError):  # not JSON (yet), or nested past Python's limit
            return
        if not isinstance(arguments, dict):
            return
        with self.prevent(Checkbox.Changed):
            for box in self.toggles:
                if box.name not in arguments:
                    continue
                given = arguments[box.name]
                box.not_a_boolean = not isinstance(given, bool)
                box.value = given is True
                box.refresh()
        self.update_markers()

    def _span(self, box: GroupToggle) -> tuple[int, int]:
        """Where ``box`` sits in the strip's scrolled content, from its last visible layout: a
        hidden widget leaves the layout map, and its region with it (labels never change)."""
        if box.styles.visibility != "hidden" and box.outer_size.width:
            start = box.virtual_region.x
            self._spans[box] = (start, start + box.outer_size.width)
        return self._spans.get(box, (0, 0))

    def update_markers(self) -> None:
        """Recount the toggles that are on, and those scrolled out of sight on each side."""
        boxes = self.toggles
        strip = self.query_one(ToggleStrip)
        left = right = 0
        if strip.size.width:
            view_left, view_right = strip.scroll_x, strip.scroll_x + strip.size.width
            for box in boxes:
                start, end = self._span(box)
                # A toggle cut at an edge counts as out of sight: its name cannot be read. It is
                # not drawn either: a fragment ("abases" of databases) reads as another name.
                cut = start < view_left or end > view_right
                left += start < view_left
                right += end > view_right
                box.styles.visibility = "hidden" if cut else "visible"
        on = sum(box.value for box in boxes)
        self.query_one("#group-count", Static).update(f"groups {on}/{len(boxes)} on" if boxes else "no groups")
        self.query_one("#more-left", Static).update(f"‹{left}" if left else "")
        self.query_one("#more-right", Static).update(f"{right}›" if right else "")


class RawCall(Input):
    """The reset_tools call as raw JSON: written by the toggles, or typed by hand (misspelled
    names and non-booleans are the point), and then left alone when the toggles follow a lane."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(
            placeholder='raw reset_tools arguments, e.g. {"web_serch": true, "scraping": "yes"}  (Enter fires)',
            restrict=NO_CONTROL,
            id=id,
        )
        self._generated = ""

    @property
    def hand_typed(self) -> bool:
        """The text is not what the toggles last wrote."""
        return self.value != self._generated

    def write_call(self, values: dict[str, bool]) -> None:
        """Show the toggles' call."""
        self._generated = self.value = json.dumps(values)
        if not self.has_focus:
            self.cursor_position = 0  # show the start of the call, not its tail
