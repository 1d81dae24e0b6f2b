"""The words and marks toolscope shows for the same facts in the CLI, the TUI and the reports.

One table each, so a stage that fails reads ``✗`` in ``explain``, the TUI and a screenshot,
and ``FAIL`` in every Markdown or HTML table. Plain strings only (``core`` never imports
Rich or Textual): the CLI colours the marks with Rich styles (``cli/styles.py``), the TUI with
its theme's colours (``tui/palette.py``). ``tests/core/test_presentation.py`` keeps copies
of these tables out of every other module.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from .enums import Verdict

if TYPE_CHECKING:
    from .verdicts import Stage

MARK: Mapping[bool | None, str] = {True: "✓", False: "✗", None: "?"}
"""A yes / no / unknown answer as one character: a stage passed, failed or could not be decided;
also a call accepted or refused, a server connected or not, a group toggled on."""

ANSWER_WORD: Mapping[bool | None, str] = {True: "yes", False: "no", None: "unknown"}
"""The answer to a checklist question (``Is it registered? yes``)."""


def group_answer(stages: Sequence[Stage]) -> tuple[bool | None, str]:
    """The answer to a checklist question that groups several stages, and its word: no if one
    fails, unknown if one is unknown, ``n/a`` (None) when the tool reached none of them."""
    if not stages:
        return None, "n/a"
    if any(s.passed is False for s in stages):
        answer: bool | None = False
    else:
        answer = None if any(s.passed is None for s in stages) else True
    return answer, ANSWER_WORD[answer]


NOT_REACHED = "-"
"""A stage a tool never reached (a toolkit's tools have no stage 4), in tables of marks or words."""

STAGE_WORD: Mapping[bool | None, str] = {True: "pass", False: "FAIL", None: "unknown"}
"""The same answer as a word, for Markdown and HTML (reports, the TUI's Markdown export)."""

STAGE_CLASS: Mapping[bool | None, str] = {True: "ok", False: "fail", None: "unk"}
"""CSS class names of a mark in the HTML report (``core/report/report.css``)."""

AS_ANSWER: Mapping[str, bool | None] = {Verdict.VISIBLE: True, Verdict.HIDDEN: False, Verdict.UNKNOWN: None}
"""A verdict reads like the answer that decided it: visible like a pass, hidden like a fail."""

VERDICT_LABEL: Mapping[str, str] = {
    Verdict.VISIBLE: f"{MARK[True]} visible",
    Verdict.HIDDEN: f"{MARK[False]} HIDDEN",  # capitals: the answer people look for
    Verdict.UNKNOWN: f"{MARK[None]} unknown",
}
"""A verdict with its mark, where the label must read without colour (the TUI's verdict column)."""

VERDICT_CLASS: Mapping[str, str] = {verdict: STAGE_CLASS[answer] for verdict, answer in AS_ANSWER.items()}
"""CSS class names of a verdict in the HTML report."""


def verdict_counts_text(counts: Mapping[str, int], *, grouped: bool = False) -> str:
    """``3 visible, 1 hidden, 0 unknown`` (``grouped``: with thousands separators, ``50,005``)."""
    return ", ".join(f"{counts[v]:,} {v}" if grouped else f"{counts[v]} {v}" for v in Verdict)
