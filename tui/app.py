"""The Textual app: theme, global keys, palette commands; the screen does the work."""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial

from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.markup import escape
from textual.screen import Screen
from textual.widgets import HelpPanel

from ..core.model.subject import Subject
from ..core.text.safe_text import inert
from .commands import ToolProvider
from .options import TuiOptions
from .screens.main import MainScreen
from .screens.step_picker import StepPicker, StepPickerScreen
from .views import VIEWS


class ToolscopeApp(App[None]):
    """``toolscope inspect``: one screen over one loaded subject."""

    CSS_PATH = "toolscope.tcss"
    TITLE = "toolscope"
    COMMANDS = App.COMMANDS | {ToolProvider}

    # lazygit / k9s conventions: ? for help, q to quit. While a text box has the focus those
    # two keys type into it (the screen drops them from footer and F1), and the footer shows
    # F1 and ctrl+q instead: the footer lists the first binding of each action.
    BINDINGS = [
        Binding(
            "question_mark",
            "toggle_help",
            "Help",
            tooltip="Show or hide the keys of the focused view (F1 also in a text box)",
            id="help-question-mark",
        ),
        Binding("f1", "toggle_help", "Help", id="help"),
        Binding("q", "quit", "Quit", tooltip="Quit (ctrl+q also in a text box)", id="quit-q"),
        Binding("ctrl+q", "quit", "Quit", id="quit"),
    ]

    def __init__(
        self,
        subject: Subject | None,
        mode: str | None = None,
        options: TuiOptions | None = None,
        picker: StepPicker | None = None,
    ) -> None:
        """``subject`` None with a ``picker``: a step config with several steps, the user picks one first."""
        super().__init__()
        self.subject = subject
        self.picker = picker
        self.start_mode = mode
        self.options = options or TuiOptions()
        # Fixed theme, no animations: the same keys always give the same picture.
        self.theme = "textual-dark"
        if self.options.deterministic:
            self.animation_level = "none"

    def get_default_screen(self) -> Screen:
        """The main screen, which loads the first evaluation (or the step picker, which opens it)."""
        if self.subject is None:
            assert self.picker is not None, "no subject and no step picker"
            return StepPickerScreen(self.picker)
        return MainScreen(self.subject, self.start_mode, self.options)

    @property
    def main(self) -> MainScreen:
        """The main screen (under any modal)."""
        # The bottom screen, or the one above the step picker.
        return next(screen for screen in self.screen_stack if isinstance(screen, MainScreen))

    def action_show_help_panel(self) -> None:
        """The help panel with the keys that work everywhere first (``widgets.help_panel``)."""
        from .widgets.help_panel import ToolscopeHelpPanel

        if not self.screen.query(HelpPanel):
            self.screen.mount(ToolscopeHelpPanel())

    def action_toggle_help(self) -> None:
        """F1: the keys of the focused view, from the live bindings."""
        if self.screen.query(HelpPanel):
            self.action_hide_help_panel()
        else:
            self.action_show_help_panel()

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        """Textual's own commands plus modes, views, filters and export."""
        yield from super().get_system_commands(screen)
        if not any(isinstance(s, MainScreen) for s in self.screen_stack):
            return  # the step picker: nothing loaded yet
        main = self.main
        for mode in main.subject.mode_names:
            current = " (current)" if mode == main.mode else ""
            yield SystemCommand(
                # Titles are parsed as markup by the system provider: mode names come from the config.
                f"mode: switch to {escape(inert(mode, single_line=True))}{current}",
                "Recompute every verdict in this mode and mark the tools that changed",
                partial(main.set_mode, mode),
            )
        for view in VIEWS:
            if main.query(f"TabPane#{view}"):
                yield SystemCommand(
                    f"view: {view.tab_title}", f"Show the {view} view", partial(main.action_show_view, view)
                )
        pipeline = main.pipeline
        yield SystemCommand(
            "filter: only hidden tools (toggle)", "Show only tools that are not visible", pipeline.action_toggle_hidden
        )
        yield SystemCommand(
            "filter: group by namespace (toggle)", "Group rows by namespace or group", pipeline.action_toggle_grouped
        )
        yield SystemCommand("filter: clear", "Show every tool", pipeline.clear_filter)
        yield SystemCommand(
            "export: SVG screenshot + Markdown report",
            "Save the current view as SVG and Markdown (paths are shown in a notification)",
            main.action_export,
        )
