"""``toolscope tools CONFIG`` on every step of a workflow, rendered.

Text: the workflow's own findings once, then one section per step (its findings, its table).
JSON: ``toolscope.workflow-tools/1``, a ``tools/2`` document per step keyed by step id,
written in pieces like ``tools/2`` itself. Each step is evaluated as it is printed and
released after (a workflow's verdicts are never all held at once).
"""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Any

from ...core.model.presentation import verdict_counts_text

if TYPE_CHECKING:
    from ...core.systems.agentworks.subject import AgentWorksSubject

WORKFLOW_TOOLS_SCHEMA = "toolscope.workflow-tools/1"


def print_workflow_human(
    subjects: list[AgentWorksSubject], mode_given: str | None, mode: str | None, *, hidden_only: bool, wide: bool
) -> None:
    """The workflow's findings once, then a section per step (its findings, notes, table, counts)."""
    from rich.text import Text

    from ..output import mode_sentence, print_findings, print_wrapped, stdout_console
    from .verdict_table import marks_legend, shortened_note
    from .workflow import workflow_label

    console = stdout_console()
    first = subjects[0]
    print_findings(first.world.findings, console)
    print_wrapped(console, Text(""), workflow_label(subjects), "bold")
    print_wrapped(console, Text(""), first.era_sentence, "dim")
    print_wrapped(console, Text(""), mode_sentence(first, mode_given, mode), "bold")
    shared = set(first.world.findings)
    shortened = False
    marks: frozenset[str] = frozenset()
    for subject in subjects:
        layout = _print_step(console, subject, mode, shared, hidden_only=hidden_only, wide=wide)
        shortened = shortened or layout.shortened
        marks |= layout.marks
    legend = marks_legend(marks, "toolscope explain CONFIG TOOL --step ID", ("discoverable",))
    if legend:
        print_wrapped(console, Text(""), legend, "dim")
    if shortened:
        print_wrapped(
            console,
            Text(""),
            shortened_note(console.width, "toolscope explain CONFIG TOOL --step ID"),
            "dim",
        )


def _print_step(
    console: Any, subject: AgentWorksSubject, mode: str | None, shared: set[Any], *, hidden_only: bool, wide: bool
) -> Any:
    """One step's section; returns its table's layout (for the legend and the shortened note)."""
    from rich.text import Text

    from ..output import print_findings, print_lines, print_wrapped
    from .verdict_table import verdict_layout

    evaluation = subject.evaluate(mode)
    console.print()
    console.print(Text(f"step {subject.step.step.id}", style="bold underline"), soft_wrap=True, crop=False)
    print_findings([f for f in subject.config_findings if f not in shared], console)
    for note in evaluation.notes:
        print_wrapped(console, Text(""), note, "dim")
    layout = verdict_layout(evaluation, console.width, wide=wide, hidden_only=hidden_only)
    print_lines(console, layout.lines)
    console.print(Text(verdict_counts_text(evaluation.counts())))
    subject.release()  # printed: its verdicts are not needed again
    return layout


def print_workflow_json(subjects: list[AgentWorksSubject], mode: str | None, *, hidden_only: bool) -> None:
    """``workflow-tools/1``: each step's ``tools/2`` document by step id, written in pieces."""
    from ...core.schemas.tools_json import tools_document_chunks
    from ...core.text.safe_text import inert_json

    shared = set(subjects[0].world.findings)

    def pieces():  # type: ignore[no-untyped-def]
        head = {"schema": WORKFLOW_TOOLS_SCHEMA, "mode": mode, "era": subjects[0].loaded.era}
        yield json.dumps(head, ensure_ascii=False, separators=(",", ":"))[:-1] + ',"steps":{'
        for index, subject in enumerate(subjects):
            yield ("," if index else "") + json.dumps(subject.step.step.id, ensure_ascii=False) + ":"
            findings = [f for f in subject.config_findings if f not in shared] if index else subject.config_findings
            yield from tools_document_chunks(subject.evaluate(mode), hidden_only=hidden_only, config_findings=findings)
            subject.release()
        yield "}}"

    if sys.stdout.isatty():
        sys.stdout.write(inert_json(json.dumps(json.loads("".join(pieces())), indent=2, ensure_ascii=False)) + "\n")
        return
    for piece in pieces():
        sys.stdout.write(inert_json(piece))
    sys.stdout.write("\n")
