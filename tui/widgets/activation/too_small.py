"""What the activation view shows instead of bare borders when the terminal is too small."""

from __future__ import annotations

from textual.widgets import Static

MIN_SIZE = (50, 12)
"""Below this terminal size (columns, rows) the view says it is too small."""


class TooSmallNotice(Static):
    """One sentence: the size needed, the size there is, and the way out."""

    DEFAULT_CSS = """
    TooSmallNotice { display: none; height: 1fr; content-align: center middle; text-style: bold; }
    """

    def fits(self, columns: int, rows: int) -> bool:
        """Whether the view fits in ``columns`` x ``rows``; the sentence is kept up to date either way."""
        self.update(
            f"The activation view needs at least {MIN_SIZE[0]}x{MIN_SIZE[1]} (this terminal is "
            f"{columns}x{rows}). Enlarge it, or press 1 for the Pipeline view."
        )
        return columns >= MIN_SIZE[0] and rows >= MIN_SIZE[1]
