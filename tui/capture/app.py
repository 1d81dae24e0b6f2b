"""The app of ``toolscope inspect [CONFIG] --capture FILE``: one screen, the capture's requests (``view``)."""

from __future__ import annotations

from textual.app import App
from textual.binding import Binding
from textual.screen import Screen

from .view import CaptureScreen, Predict


class CaptureApp(App[None]):
    """``toolscope inspect [CONFIG] --capture FILE``."""

    TITLE = "toolscope capture"
    BINDINGS = [Binding("q", "quit", "Quit"), Binding("ctrl+q", "quit", "Quit", show=False)]

    def __init__(self, path: str, predict: Predict | None = None, against: str | None = None) -> None:
        """The capture at ``path`` (with ``predict``: checked against the config named ``against``)."""
        super().__init__()
        self.path = path
        self.predict = predict
        self.against = against
        self.theme = "textual-dark"
        self.animation_level = "none"

    def get_default_screen(self) -> Screen:
        """The capture screen."""
        return CaptureScreen(self.path, self.predict, self.against)
