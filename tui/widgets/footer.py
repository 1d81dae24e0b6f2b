"""The key footer, fitted to the terminal's width.

Textual's Footer lets keys that do not fit run on under the docked command-palette key,
where they show through at the last column (``▏^p paletteu`` at 60 columns) and are cut
mid-word. This footer shows only the keys that fit whole, dropping them from the end,
except the help and quit keys, which always stay: help lists every key of the focused
view, and a user must never have to guess how to leave (lazygit and k9s keep both).
"""

from __future__ import annotations

from rich.cells import cell_len
from textual.app import ComposeResult
from textual.events import Resize
from textual.widget import Widget
from textual.widgets import Footer

from ..textual_private import FooterKey

HELP_ACTIONS = ("toggle_help", "app.toggle_help")
STICKY_ACTIONS = (*HELP_ACTIONS, "quit", "app.quit")
"""Keys kept whatever the width: help, then quit."""


def key_width(key: FooterKey) -> int:
    """Cells a compact footer key takes: key, space, description, one cell of margin."""
    return cell_len(key.key_display) + (1 + cell_len(key.description) if key.description else 0) + 1


def keys_that_fit(keys: list[FooterKey], budget: int) -> set[int]:
    """The ids of the keys kept within ``budget`` cells: sticky keys claim their room first; the
    others follow in order until one does not fit."""
    kept: set[int] = set()
    for key in sorted(keys, key=lambda k: k.action not in STICKY_ACTIONS):
        if key_width(key) <= budget:
            kept.add(id(key))
            budget -= key_width(key)
        elif key.action not in STICKY_ACTIONS:
            break
    return kept


def fitted(widgets: list[Widget], width: int) -> list[Widget]:
    """The footer's widgets, less the keys that would not fit whole beside the palette key."""
    palette = [w for w in widgets if w.has_class("-command-palette")]
    keys = [w for w in widgets if isinstance(w, FooterKey) and w not in palette]
    kept = keys_that_fit(keys, width - _palette_width(palette))
    return [w for w in widgets if not isinstance(w, FooterKey) or w in palette or id(w) in kept]


def _palette_width(palette: list[Widget]) -> int:
    """The palette key's cells: its text, a border cell and a padding cell."""
    return sum(key_width(w) + 1 for w in palette if isinstance(w, FooterKey))


class FittedFooter(Footer):
    """A compact footer whose keys never run under the palette key."""

    def compose(self) -> ComposeResult:
        """Textual's keys, less those that would not fit whole."""
        yield from fitted(list(super().compose()), self.size.width or self.app.size.width)

    def on_resize(self, event: Resize) -> None:
        """Refit the keys to the new width."""
        if self.is_attached:
            self.call_after_refresh(self.recompose)
