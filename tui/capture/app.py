"""The app of ``toolscope inspect --capture FILE``: one screen, the capture's requests (``view``)."""

from __future__ import annotations

from textual.app import App
from textual.binding import Binding
from textual.screen import Screen

from .view import CaptureScreen


class CaptureApp(App[None]):
    """``toolscope inspect --capture FILE``."""

    TITLE = "toolscope capture"
    BINDINGS = [Binding("q", "quit", "Quit"), Binding("ctrl+q", "quit", "Quit", show=False)]

    def __init__(self, path: str) -> None:
        """The capture at ``path``."""
        super().__init__()
        self.path = path
        self.theme = "textual-dark"
        self.animation_level = "none"

    def get_default_screen(self) -> Screen:
        """The capture screen."""
        return CaptureScreen(self.path)
