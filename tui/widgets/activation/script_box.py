"""The activation view's script line: a status line that turns into a path box with completion.

Idle, it says which script is loaded and where it stands (or why the last load failed,
in red, until the next load). ``l`` swaps in the path box: typing suggests file names
(ghost text, Tab or → accepts), searching the current folder and then the config's
folder, the same order ``resolve_script_path`` loads from; the line below the box lists
the other matches.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.suggester import Suggester
from textual.widgets import Input, Static

from ....core.model.errors import ToolscopeError
from ....core.model.presentation import MARK
from ....core.text.safe_text import inert
from ..safe_input import NO_CONTROL

SCRIPT_SUFFIXES = (".json", ".yaml", ".yml")


def path_candidates(value: str, bases: Sequence[Path], limit: int = 20) -> list[str]:
    """Completions of ``value`` (folders end in ``/``; files only if JSON/YAML), each starting with it.

    ``value`` is looked up from every base folder in turn (relative values only); the
    first base that has a match wins, so the list reads like one folder's listing.
    """
    head, _, prefix = value.rpartition("/")
    folder_text = head + "/" if head or value.startswith("/") else ""
    roots = (
        [Path(folder_text or ".").expanduser()] if value.startswith(("/", "~")) else [b / folder_text for b in bases]
    )
    for root in roots:
        found = _matches_in(root, folder_text, prefix, limit)
        if found:
            return found
    return []


def _matches_in(root: Path, folder_text: str, prefix: str, limit: int) -> list[str]:
    """Up to ``limit`` folders and scripts in ``root`` whose names start with ``prefix``, by name
    (hidden ones only when the prefix starts with a dot); none when ``root`` cannot be read."""
    try:
        entries = sorted(os.scandir(root), key=lambda e: e.name)
    except OSError:
        return []
    found = []
    for entry in entries:
        if not entry.name.startswith(prefix) or (entry.name.startswith(".") and not prefix.startswith(".")):
            continue
        shown = _completion(entry, folder_text)
        if shown is not None:
            found.append(shown)
            if len(found) >= limit:
                break
    return found


def _completion(entry: os.DirEntry[str], folder_text: str) -> str | None:
    """A folder (ending in /) or a JSON/YAML file as typed; None for other files and unreadable entries."""
    try:
        is_dir = entry.is_dir()
    except OSError:
        return None
    if is_dir:
        return folder_text + entry.name + "/"
    return folder_text + entry.name if entry.name.lower().endswith(SCRIPT_SUFFIXES) else None


class PathSuggester(Suggester):
    """Suggests the first completion of the typed path (see ``path_candidates``)."""

    def __init__(self, bases: Sequence[Path]) -> None:
        super().__init__(use_cache=False, case_sensitive=True)
        self.bases = list(bases)

    async def get_suggestion(self, value: str) -> str | None:
        """The first match, when there is something typed to complete."""
        if not value:
            return None
        matches = path_candidates(value, self.bases)
        return matches[0] if matches else None


class ScriptPathInput(Input):
    """The path box: Tab accepts the suggestion (as in a shell), else moves focus on."""

    BINDINGS = [Binding("tab", "complete", "Complete", show=False)]

    def action_complete(self) -> None:
        """Accept the ghost suggestion; without one, Tab moves focus as usual."""
        if self._suggestion and self.cursor_at_end and self._suggestion != self.value:
            self.action_cursor_right()
        else:
            self.screen.focus_next()


class ScriptBox(Vertical):
    """The status line, or (after ``open``) the path box plus its matches."""

    DEFAULT_CSS = """
    ScriptBox { height: auto; padding: 0 1; }
    ScriptBox > #script-status { height: 1; text-wrap: nowrap; text-overflow: ellipsis; }
    ScriptBox.-error > #script-status { height: auto; max-height: 3; text-wrap: wrap; }
    ScriptBox > #script-path { border: none; height: 1; padding: 0; background: $boost; display: none; }
    ScriptBox > #script-path:focus { background: $primary 30%; }
    ScriptBox > #script-matches { height: 1; color: $text-muted; display: none; text-wrap: nowrap; text-overflow: ellipsis; }
    ScriptBox.-editing > #script-path, ScriptBox.-editing > #script-matches { display: block; }
    ScriptBox.-editing > #script-status { display: none; }
    ScriptBox.-error > #script-status { color: $text-error; text-style: bold; }
    """

    def __init__(self, bases: Sequence[Path], *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.bases = list(bases)
        self.error: str | None = None

    def compose(self) -> ComposeResult:
        yield Static(id="script-status")
        yield ScriptPathInput(
            placeholder="script path (JSON/YAML list of calls): Tab completes, Enter loads, Esc cancels",
            suggester=PathSuggester(self.bases),
            restrict=NO_CONTROL,
            id="script-path",
        )
        yield Static(id="script-matches")

    @property
    def path_box(self) -> ScriptPathInput:
        """The path input."""
        return self.query_one(ScriptPathInput)

    def open(self) -> None:
        """Show the path box and focus it."""
        self.add_class("-editing")
        self.path_box.focus()
        self._show_matches(self.path_box.value)

    def close(self) -> None:
        """Back to the status line."""
        self.remove_class("-editing")

    def on_descendant_blur(self) -> None:
        """Leaving the box (Escape, Tab, a click elsewhere) folds it back into the status line."""
        self.close()

    def on_input_changed(self, event: Input.Changed) -> None:
        """Refresh the matches line as the user types."""
        self._show_matches(event.value)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter on an empty path: say what is missing (the view loads any other path)."""
        if not event.value.strip():
            self.show_status(Text(), "no path given: type a file name, then Enter")

    def read_script(
        self, path: str, config_dir: Path | None, open_session: Callable[[Any], Any]
    ) -> tuple[str, Any] | None:
        """Load the script at ``path`` (the current folder first, then ``config_dir``) and open a
        session over its steps: (the script's name, the session), or None with the error shown
        here and in a toast."""
        from ....core.systems.agentscope.script import load_script, resolve_script_path

        resolved = resolve_script_path(path, config_dir)
        try:
            session = open_session(load_script(resolved))
        except ToolscopeError as exc:
            self.show_status(Text(), exc.render())
            self.notify(inert(exc.render()), title="script", severity="error", markup=False)
            return None
        self.error = None
        self.notify(f"Loaded {inert(resolved.name)}: {len(session.steps)} steps (n: next)", markup=False)
        return resolved.name, session

    def _show_matches(self, value: str) -> None:
        matches = path_candidates(value, self.bases)
        text = Text(no_wrap=True, overflow="ellipsis")
        if matches:
            count = f"{len(matches)}{'+' if len(matches) >= 20 else ''}"
            text.append(f"{count} {'match' if len(matches) == 1 else 'matches'}: ", style="dim")
            text.append("  ".join(inert(m, single_line=True) for m in matches))
        else:
            where = " or ".join(inert(str(b), single_line=True) for b in self.bases)
            text.append(f"no JSON/YAML file or folder matches here (looked in {where})", style="dim")
        self.query_one("#script-matches", Static).update(text)

    def show_status(self, text: Text, error: str | None = None) -> None:
        """The idle line: ``text``, or ``error`` in red when the last load failed."""
        self.error = error
        self.set_class(error is not None, "-error")
        if error is not None:
            text = Text()
            text.append(f"{MARK[False]} script not loaded: ")
            # The error's lines (file: message, then each problem) as one paragraph.
            text.append(" · ".join(line.strip() for line in inert(error).splitlines() if line.strip()))
        self.query_one("#script-status", Static).update(text)

    def show_script(
        self, name: str | None, position: int | None, total: int, upcoming: str | None, noun: str = "script"
    ) -> None:
        """The idle line for a script (or none): its name, the step, what ``n`` runs next.

        A failed load keeps its error on the line until a script loads.
        """
        if self.error is not None:
            self.show_status(Text(), self.error)
            return
        text = Text(no_wrap=True, overflow="ellipsis")
        if not name:
            text.append("no script", style="dim")
            text.append(" · l loads one (a JSON/YAML list of reset_tools calls)", style="dim")
        else:
            text.append(f"{noun} ", style="dim")
            text.append(inert(name, single_line=True), style="bold")
            if position is not None:
                text.append(f" · step {position}/{total}")
            text.append(" · next (n): " if upcoming else " · at the end", style="dim")
            if upcoming:
                text.append(inert(upcoming, single_line=True))
        self.show_status(text)

    def show_session(self, session: Any, script_name: str | None, replay: Any) -> None:
        """The idle line for a session: its script (or the replayed recording) and what ``n`` runs next."""
        upcoming = session.next_step() if script_name else None
        if replay is not None:
            # A replay is numbered by model turns alone: the next call by the turn that made it.
            coming = replay.turns[session.cursor] if session.cursor < len(replay.turns) else None
            upcoming = f"turn {coming.call.model_turn} reset_tools {coming.call.shown_input}" if coming else None
        position = None if replay is not None else session.script_position
        noun = "session" if replay is not None else "script"
        self.show_script(script_name, position, len(session.steps), upcoming, noun)
