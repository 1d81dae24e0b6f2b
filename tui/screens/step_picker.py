"""The first screen for a step config with several steps: pick the step to inspect.

``inspect steps.json`` without ``--step`` used to stop with "choose one with --step ID";
in a terminal it opens this list instead (``--screenshot`` still needs ``--step``: a
picture has no one to pick). Enter loads the step and replaces this screen with the
main screen; a step that fails to load says why here and stays pickable. Escape on the
main screen (with nothing else to leave) comes back here; 1, 2 and 3 open the highlighted step
in that view, as they switch views on the main screen.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

from ...core.model.errors import ToolscopeError
from ...core.text.counts import counted
from ...core.text.safe_text import inert
from ..views import VIEWS, View


@dataclass(frozen=True)
class StepChoice:
    """One step of the file, as the picker lists it."""

    id: str
    title: str | None
    servers: int
    tools: int

    @classmethod
    def of(cls, step: Any) -> StepChoice:
        """From a ``core.systems.agentworks.step_config.Step``."""
        configs = step.agent_configs
        return cls(step.id, step.title, len(configs.selected_servers), len(configs.selected_tools))

    def prompt(self) -> Text:
        """``triage  Triage the inbox  (2 servers, 5 tool entries)``."""
        text = Text(no_wrap=True, overflow="ellipsis")
        text.append(inert(self.id, single_line=True), style="bold")
        if self.title:
            text.append("  " + inert(self.title, single_line=True))
        servers = counted(self.servers, "server")
        tools = f"{self.tools} tool entr{'ies' if self.tools != 1 else 'y'}"
        text.append(f"  ({servers}, {tools})", style="dim")
        return text


@dataclass(frozen=True)
class StepPicker:
    """What the picker needs: the file's name, its steps, and how to open one."""

    file_name: str
    choices: Sequence[StepChoice]
    load: Callable[[str], tuple[Any, str | None]]
    """Step id → (the Subject, its resolved mode); raises ToolscopeError for bad input."""


class StepPickerScreen(Screen[None]):
    """A list of the steps; Enter opens the highlighted one (1 2 3: in that view)."""

    HELP = (
        "This step config has several steps: pick the one to inspect (↑ ↓, Enter; 1 2 3 open it in that view)."
        " Escape on the step comes back here. toolscope inspect --step ID skips this."
    )

    BINDINGS = [
        *(
            Binding(view.key, f"open_in('{view}')", f"Open in {view.tab_title}", show=False, id=f"picker-{view}")
            for view in VIEWS
        ),
    ]

    DEFAULT_CSS = """
    StepPickerScreen > #picker-title { height: auto; padding: 1 2 0 2; text-style: bold; }
    StepPickerScreen > #picker-hint { height: auto; padding: 0 2 1 2; color: $text-muted; }
    StepPickerScreen > OptionList { height: 1fr; margin: 0 2; }
    StepPickerScreen > #picker-error { height: auto; padding: 0 2; color: $text-error; text-style: bold; display: none; }
    StepPickerScreen > #picker-error.-shown { display: block; }
    """

    def __init__(self, picker: StepPicker) -> None:
        super().__init__()
        self.picker = picker

    def compose(self) -> ComposeResult:
        count = len(self.picker.choices)
        yield Static(
            Text(f"{inert(self.picker.file_name, single_line=True)} has {count} steps: which one?"), id="picker-title"
        )
        yield Static(
            "↑ ↓ choose, Enter opens it (1 2 3: in that view), Escape there comes back here"
            " (next time: toolscope inspect FILE --step ID)",
            id="picker-hint",
        )
        yield OptionList(*(Option(choice.prompt(), id=None) for choice in self.picker.choices), id="steps")
        yield Static(id="picker-error")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        """The list has the focus, on the first step."""
        steps = self.query_one(OptionList)
        steps.highlighted = 0
        steps.focus()

    @on(OptionList.OptionSelected)
    def _picked(self, event: OptionList.OptionSelected) -> None:
        self.open_step(self.picker.choices[event.option_index].id)

    def action_open_in(self, view: str) -> None:
        """1 2 3: open the highlighted step in that view (3 on a step config says why there is none)."""
        highlighted = self.query_one(OptionList).highlighted
        if highlighted is not None:
            self.open_step(self.picker.choices[highlighted].id, View(view))

    def open_step(self, step_id: str, view: View | None = None) -> None:
        """Load ``step_id`` and hand over to the main screen; on bad input, say why here."""
        from .main import MainScreen

        try:
            subject, mode = self.picker.load(step_id)
        except ToolscopeError as exc:
            error = self.query_one("#picker-error", Static)
            error.update(Text(f"cannot open step {inert(step_id, single_line=True)}: {inert(exc.render())}"))
            error.add_class("-shown")
            return
        self.query_one("#picker-error", Static).remove_class("-shown")
        app: Any = self.app
        app.subject, app.start_mode = subject, mode
        main = MainScreen(subject, mode, app.options, picked=True)
        # Pushed over the picker (the default screen cannot be switched out); Escape pops it.
        app.push_screen(main)
        if view is not None:
            # After its first paint, as the key would be pressed there.
            main.call_after_refresh(main.action_show_view, view)
