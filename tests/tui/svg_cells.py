"""Read a Rich/Textual SVG screenshot back into terminal cells, and measure contrast (WCAG 2).

The SVG draws each cell's background as a ``<rect fill=…>`` and its text as a ``<text class=…>``
whose class sets the colour (and bold). Cell size is fixed: 12.2 × 24.4 units.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

CELL_W, CELL_H = 12.2, 24.4
_CLASS = re.compile(r"\.([\w-]+-r\d+) \{ fill: (#[0-9a-fA-F]{6})([^}]*)\}")
_RECT = re.compile(
    r'<rect fill="(#[0-9a-fA-F]{6})" x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="[\d.]+" shape-rendering'
)
_TEXT = re.compile(r'<text class="([\w-]+)" x="([\d.]+)" y="([\d.]+)" textLength="[\d.]+"[^>]*>([^<]*)</text>')


@dataclass(frozen=True)
class Cell:
    """One terminal cell as drawn."""

    char: str
    fg: str
    bg: str
    bold: bool


def cells(svg: str) -> dict[tuple[int, int], Cell]:
    """(row, column) → Cell for every cell with a background; text cells carry their colour."""
    classes = {name: (fill, "bold" in rest) for name, fill, rest in _CLASS.findall(svg)}
    backgrounds: dict[tuple[int, int], str] = {}
    for fill, x, y, width in _RECT.findall(svg):
        row = round((float(y) - 1.5) / CELL_H)
        first, last = round(float(x) / CELL_W), round((float(x) + float(width)) / CELL_W)
        for column in range(first, last):
            backgrounds[(row, column)] = fill.lower()
    out = {key: Cell(" ", bg, bg, False) for key, bg in backgrounds.items()}
    for name, x, y, content in _TEXT.findall(svg):
        fill, bold = classes.get(name, ("#000000", False))
        row, column = round((float(y) - 20) / CELL_H), round(float(x) / CELL_W)
        for offset, char in enumerate(html.unescape(content)):
            key = (row, column + offset)
            out[key] = Cell(char.replace("\xa0", " "), fill.lower(), backgrounds.get(key, "#000000"), bold)
    return out


def line(grid: dict[tuple[int, int], Cell], row: int) -> str:
    """The text of one row."""
    columns = sorted(column for r, column in grid if r == row)
    return "".join(grid[(row, column)].char for column in columns)


def luminance(colour: str) -> float:
    """WCAG relative luminance of ``#rrggbb``."""

    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def contrast(fg: str, bg: str) -> float:
    """WCAG contrast ratio, 1 to 21."""
    high, low = sorted((luminance(fg), luminance(bg)), reverse=True)
    return (high + 0.05) / (low + 0.05)
