"""The tool grid's columns: their titles, widths and how they give way on a narrow terminal.

Pure layout (no widget): ``GridLayout.measure`` sizes the columns to the tools once per
evaluation, ``fitted`` fits them to a width, ``fit`` / ``column`` cut untrusted text to a cell.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from rich.cells import cell_len, set_cell_size

from ...core.systems.registry import STAGE_HEADERS, STAGE_TITLES
from ...core.text.safe_text import inert


def short_title(stage: str) -> str:
    """Column title for a stage: its short header in lower case (``core.systems.registry``), which
    keeps room for the deciding rule; the trace pane spells it out."""
    header = STAGE_HEADERS.get(stage)
    return header.lower() if header else STAGE_TITLES.get(stage, stage)


def fit(text: str, width: int) -> str:
    """Untrusted text as one line of exactly ``width`` cells, cut with an ellipsis."""
    text = inert(text, single_line=True)
    if cell_len(text) > width:
        return set_cell_size(text, max(width - 1, 0)) + "…"
    return set_cell_size(text, width)


MARKS_WIDTH = 3
"""``!Δ `` before the name."""
VERDICT_WIDTH = 11
REASON_MIN = 18
"""Cells the "decided by" column keeps while the name columns can give some up."""
NAME_MIN, NAMESPACE_MIN = 16, 8
"""The least a tool name is cut to; the least a namespace column is shown with."""
WITH_STAGE_TITLE = 40
"""Below this many cells "decided by" gives the rule alone: the ✗ column says which stage."""


def column(text: str, width: int) -> str:
    """``fit`` with the column's last cell kept blank, so a cut name never runs into the next
    (width 0: a column left out)."""
    return fit(text, width - 1) + " " if width else ""


@dataclass(frozen=True)
class GridLayout:
    """Column widths, computed once per evaluation (not per keystroke)."""

    stage_names: tuple[str, ...]
    name_width: int
    namespace_width: int

    @classmethod
    def measure(cls, stage_names: tuple[str, ...], names: Sequence[str], namespaces: Sequence[str]) -> GridLayout:
        """Size the name columns to the longest entries (tool names, namespaces), within limits."""
        longest_name = max(map(len, names), default=4)
        longest_ns = max(map(len, namespaces), default=9)
        return cls(stage_names, min(max(longest_name, 4), 32) + 1, min(max(longest_ns, 9), 18) + 1)

    def stage_width(self, name: str) -> int:
        """A stage column is as wide as its short title."""
        return max(len(short_title(name)) + 1, 4)

    def fitted(self, width: int) -> GridLayout:
        """The layout for ``width`` cells: the other columns give up cells so that the "decided
        by" column keeps ``REASON_MIN`` of them (at 80 columns it had none). The namespace
        goes first, and whole once it would be too short to read (the trace pane names it, ``g``
        groups by it); then the tool name, down to ``NAME_MIN``; then, when that is not enough
        (the ``?`` panel open at 80 columns), the stage columns as a block: the trace pane below
        lists every stage, and "decided by" then names the deciding one. The tool name, what a
        row is, is cut last."""
        fixed = MARKS_WIDTH + sum(map(self.stage_width, self.stage_names)) + VERDICT_WIDTH
        over = fixed + self.name_width + self.namespace_width + REASON_MIN - width
        if over <= 0:
            return self
        namespace = self.namespace_width - over
        if namespace >= NAMESPACE_MIN:
            return replace(self, namespace_width=namespace)
        over -= self.namespace_width
        name = self.name_width - min(over, max(self.name_width - NAME_MIN, 0))
        if over <= self.name_width - name or not self.stage_names:
            return replace(self, name_width=name, namespace_width=0)
        over = MARKS_WIDTH + VERDICT_WIDTH + self.name_width + REASON_MIN - width
        name = self.name_width - min(max(over, 0), max(self.name_width - NAME_MIN, 0))
        return replace(self, stage_names=(), name_width=name, namespace_width=0)
