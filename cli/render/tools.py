"""``toolscope tools``, rendered: the ``tools/2`` document (written in pieces), or in Rich the
findings, what was read, the verdict table, the counts and what its marks mean."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ...core.model.presentation import verdict_counts_text
from ..output import era_sentence, mode_sentence, print_findings, print_lines, print_wrapped, stdout_console

if TYPE_CHECKING:
    from ...core.comparison.compare import CaptureComparison
    from ...core.model.subject import Subject
    from ...core.model.verdicts import Evaluation


@dataclass(frozen=True)
class ToolsAnswer:
    """One subject's tools in one mode, and the capture comparison when one was given."""

    subject: Subject
    mode_given: str | None
    mode: str | None
    evaluation: Evaluation
    comparison: CaptureComparison | None = None


def print_tools_json(answer: ToolsAnswer, *, hidden_only: bool, wide: bool) -> None:
    """``tools/2``: indented for a person at a terminal; compact for pipes and files (50,000 tools
    make a 6 MB document that is written in pieces, never held whole)."""
    from ...core.outputs.stdout import write_stdout_text
    from ...core.schemas.tools_json import write_tools_document
    from ...core.text.safe_text import inert_json

    comparison = answer.comparison
    write_tools_document(
        lambda chunk: write_stdout_text(inert_json(chunk)),
        answer.evaluation,
        hidden_only=hidden_only,
        config_findings=answer.subject.config_findings,
        indent=sys.stdout.isatty(),
        capture=comparison.to_json() if comparison is not None else None,
    )


def print_tools_human(answer: ToolsAnswer, *, hidden_only: bool, wide: bool) -> None:
    """Disagreements with the capture first; the findings, the input, the mode, the table, the counts."""
    from rich.text import Text

    from .capture import capture_source, print_disagreements, print_totals
    from .verdict_table import verdict_layout

    console = stdout_console()
    subject, evaluation, comparison = answer.subject, answer.evaluation, answer.comparison
    if comparison is not None:
        print_disagreements(console, comparison, capture_source(comparison))
    print_findings(subject.config_findings, console)
    print_wrapped(console, Text(""), evaluation.loaded.label, "bold")
    era = era_sentence(subject.loaded)
    if era:
        print_wrapped(console, Text(""), era, "dim")
    print_wrapped(console, Text(""), mode_sentence(subject, answer.mode_given, answer.mode), "bold")
    for note in evaluation.notes:
        # The header often says it already ("· tools from the snapshot …"): once is enough.
        if note not in evaluation.loaded.label:
            print_wrapped(console, Text(""), note, "dim")
    layout = verdict_layout(evaluation, console.width, wide=wide, hidden_only=hidden_only)
    print_lines(console, layout.lines)
    offered = evaluation.offered_count()
    # Toolkits: the activation lanes count the tools offered to the model; visible ones are also callable.
    counts = verdict_counts_text(evaluation.counts()) + (f" · {offered} offered" if offered is not None else "")
    console.print(Text(counts))
    _print_legend(console, layout, evaluation.stage_names)
    if comparison is not None:
        print_totals(console, comparison, capture_source(comparison))


def _print_legend(console: Any, layout: Any, stages: Sequence[str]) -> None:
    """What the row marks mean, and that rules were shortened (when they were)."""
    from rich.text import Text

    from .verdict_table import marks_legend, shortened_note

    legend = marks_legend(layout.marks, "toolscope explain CONFIG TOOL", stages)
    if legend:
        print_wrapped(console, Text(""), legend, "dim")
    if layout.shortened:
        print_wrapped(
            console,
            Text(""),
            shortened_note(console.width, "toolscope explain CONFIG TOOL"),
            "dim",
        )
