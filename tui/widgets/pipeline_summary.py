"""The Pipeline view's summary lines: the counts, what the filter shows, the registered-but-hidden
tools named up front, and what the last change moved."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from ...core.model.attention import ALERT_MARK
from ...core.model.presentation import MARK
from ...core.model.verdicts import ToolVerdict
from ...core.systems.registry import STAGE_TITLES
from ...core.text.safe_text import inert
from ..palette import DARK, Palette
from ..rows import RowQuery, count_of


def summary_text(
    counts: dict[str, int],
    shown: int,
    query: RowQuery,
    alerts: Sequence[ToolVerdict],
    change: str | None = None,
    palette: Palette = DARK,
    *,
    offered: int | None = None,
) -> Text:
    """Counts, what the filter shows, the registered-but-hidden tools named up front, and the
    last mode switch's changes (``change``: its summary, shown until the next switch).

    One line each, cut with an ellipsis: a wrapped alert line would push the change line out.
    """
    text = Text(no_wrap=True, overflow="ellipsis")
    text.append(f"{count_of(sum(counts.values()), 'tool')}: ")
    text.append(f"{counts['visible']:,} visible", style=palette.passed)
    text.append(", ")
    text.append(f"{counts['hidden']:,} hidden", style=palette.failed if counts["hidden"] else "")
    text.append(", ")
    text.append(f"{counts['unknown']:,} unknown", style=palette.unknown if counts["unknown"] else "")
    if offered is not None:
        # The activation lanes count what the model is offered; a visible tool is also callable.
        text.append(f" · {offered:,} offered")
    text.append(f"  │ showing {shown:,}")
    _append_query(text, query)
    text.append("\n")
    if alerts:
        _append_alerts(text, alerts, palette)
    else:
        text.append("no tool is registered but hidden", style="dim")
    if change:
        text.append("\nΔ ", style="bold")
        text.append(inert(change, single_line=True), style="bold")
        text.append("   ] next Δ  [ previous  d only Δ", style="dim")
    return text


def _append_query(text: Text, query: RowQuery) -> None:
    """What the filter keeps: the typed text, then each toggle that is on."""
    if query.text:
        text.append(" matching ")
        text.append(repr(inert(query.text, single_line=True)), style="bold")
    if query.only_hidden:
        text.append(" · only not-visible", style="bold")
    if query.only_changed:
        text.append(" · only Δ", style="bold")
    if query.grouped:
        text.append(" · grouped by namespace")


def _append_alerts(text: Text, alerts: Sequence[ToolVerdict], palette: Palette) -> None:
    """The first four registered-but-hidden tools by name, each with the stage that hid it."""
    text.append(f"{ALERT_MARK} {len(alerts):,} registered but hidden: ", style=palette.failed)
    for index, tool in enumerate(alerts[:4]):
        if index:
            text.append(", ")
        text.append(inert(tool.name, single_line=True), style="bold")
        failing = tool.first_failing
        if failing is not None:
            text.append(f" ({STAGE_TITLES.get(failing.name, failing.name)} {MARK[False]})", style=palette.failed)
    if len(alerts) > 4:
        text.append(f", … {len(alerts) - 4:,} more", style=palette.failed)
