"""Styles for ✓ / ✗ / ? marks and verdict labels that stay readable in any theme and without colour.

The theme's ``text-success`` / ``text-error`` / ``text-warning`` colours are made for text on
the app's background (≥ 4.5:1 in textual-dark; plain ANSI red is 4.47:1 there). Under
``NO_COLOR`` Textual turns every colour grey, so the marks lean on bold and the HIDDEN
label on reverse video instead.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.style import Style
from textual.app import App

from ..core.model.enums import Verdict


@dataclass(frozen=True)
class Palette:
    """Rich styles for one app (theme + colour setting)."""

    passed: Style
    failed: Style
    unknown: Style
    hidden_label: Style
    """The HIDDEN verdict label."""

    def stage(self, passed: bool | None) -> Style:
        """A ✓ / ✗ / ? stage mark."""
        return self.passed if passed is True else self.failed if passed is False else self.unknown

    def verdict(self, verdict: str) -> Style:
        """A verdict label: visible, HIDDEN, unknown."""
        styles: dict[str, Style] = {Verdict.VISIBLE: self.passed, Verdict.HIDDEN: self.hidden_label}
        return styles.get(verdict, self.unknown)


# textual-dark's text-success / text-error / text-warning: for renderables made outside an app.
DARK = Palette(
    Style(color="#8AD4A1"), Style(color="#D17E92", bold=True), Style(color="#FFC473"), Style(color="#D17E92", bold=True)
)
NO_COLOUR = Palette(Style(), Style(bold=True), Style(italic=True), Style(bold=True, reverse=True))


_BY_THEME: dict[str, Palette] = {}


def palette_for(app: App) -> Palette:
    """The palette for this app's theme, or the colourless one under ``NO_COLOR`` (cached per
    theme: the grid asks once per drawn row)."""
    if app.no_color:
        return NO_COLOUR
    cached = _BY_THEME.get(app.theme)
    if cached is None:
        cached = _BY_THEME[app.theme] = _palette(app.theme_variables)
    return cached


def _palette(colours: dict[str, str]) -> Palette:
    failed = Style(color=colours.get("text-error", "red"), bold=True)
    return Palette(
        Style(color=colours.get("text-success", "green")),
        failed,
        Style(color=colours.get("text-warning", "yellow")),
        failed,
    )
