"""The activation view's composer: the group toggles, the raw reset_tools call and the script
line, kept in step with each other.

The toggles write the raw call; a hand-typed call is mirrored on the toggles (``?`` for a
value that is not a boolean). Enter in the raw box or the script box bubbles up to the view,
which owns the session.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Checkbox, Input

from .composer import GroupBar, GroupToggle, RawCall
from .script_box import ScriptBox


class CallComposer(Vertical):
    """Toggles, raw JSON, script line: what the next reset_tools call will be."""

    DEFAULT_CSS = """
    CallComposer { height: auto; }
    CallComposer #raw { border: none; height: 1; background: $boost; margin: 0 1; padding: 0; }
    CallComposer #raw:focus { background: $primary 30%; }
    """

    def __init__(self, groups: Sequence[str], on: set[str], script_bases: Sequence[Path], *, id: str | None = None):
        super().__init__(id=id)
        self._groups = (tuple(groups), set(on))
        self._script_bases = list(script_bases)

    def compose(self) -> ComposeResult:
        yield GroupBar(*self._groups, id="composer")
        yield RawCall(id="raw")
        yield ScriptBox(self._script_bases, id="script")

    @property
    def toggles(self) -> list[GroupToggle]:
        """The group toggles, in group order."""
        return self.query_one(GroupBar).toggles

    def write_raw_call(self) -> None:
        """The raw box shows the toggles' call."""
        self.query_one(RawCall).write_call(self.query_one(GroupBar).values())

    async def follow_lane(self, known_groups: Sequence[str], active: set[str]) -> None:
        """After a turn the toggles show a lane's active groups, so firing again keeps them
        (reset_tools sets the final state); hand-typed raw JSON is left alone, and the toggles
        keep showing what it says (a ``"maybe"`` is ``?``, never ✓)."""
        bar, raw = self.query_one(GroupBar), self.query_one(RawCall)
        await bar.show_groups(known_groups, active)
        if raw.hand_typed:
            bar.show_raw_arguments(raw.value)
            return
        bar.set_values(active)
        self.write_raw_call()

    @on(Input.Changed, "#raw")
    def _raw_edited(self, event: Input.Changed) -> None:
        # Typed by the user only: a Changed from the toggles' own sync can arrive after a later
        # sync (a script run in one go), and must not put an old call back on the toggles.
        raw = self.query_one(RawCall)
        if raw.has_focus and event.value == raw.value and raw.hand_typed:
            self.query_one(GroupBar).show_raw_arguments(event.value)

    @on(Checkbox.Changed)
    def _toggled(self) -> None:
        self.query_one(GroupBar).forget_arguments()
        self.write_raw_call()
        self.query_one(GroupBar).update_markers()
