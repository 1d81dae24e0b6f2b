"""``toolscope tools CONFIG`` on a step config with several steps and no ``--step``: every step.

Text: the workflow's own findings once, then one section per step (its findings, its table).
JSON: ``toolscope.workflow-tools/1``, a ``tools/2`` document per step keyed by step id,
written in pieces like ``tools/2`` itself.
"""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING

from ...core.model.presentation import verdict_counts_text

if TYPE_CHECKING:
    from ...core.systems.agentworks.subject import AgentWorksSubject

WORKFLOW_TOOLS_SCHEMA = "toolscope.workflow-tools/1"


def tools_workflow(
    subjects: list[AgentWorksSubject], mode: str | None, *, hidden_only: bool, wide: bool, as_json: bool
) -> None:
    """Every step's tools in one mode (resolved once: the modes are the registry's)."""
    first = subjects[0]
    resolved = first.resolve_mode(mode)
    shared = set(first.world.findings)
    if as_json:
        _write_json(subjects, resolved, hidden_only)
        return
    from rich.text import Text

    from ..output import mode_sentence, print_findings, print_lines, print_wrapped, stdout_console
    from ..verdict_table import marks_legend, verdict_layout
    from .check_workflow import workflow_label

    console = stdout_console()
    print_findings(first.world.findings, console)
    print_wrapped(console, Text(""), workflow_label(subjects), "bold")
    print_wrapped(console, Text(""), first.era_sentence, "dim")
    print_wrapped(console, Text(""), mode_sentence(first, mode, resolved), "bold")
    shortened = False
    marks: frozenset[str] = frozenset()
    for subject in subjects:
        evaluation = subject.evaluate(resolved)
        console.print()
        console.print(Text(f"step {subject.step.step.id}", style="bold underline"), soft_wrap=True, crop=False)
        print_findings([f for f in subject.config_findings if f not in shared], console)
        for note in evaluation.notes:
            print_wrapped(console, Text(""), note, "dim")
        layout = verdict_layout(evaluation, console.width, wide=wide, hidden_only=hidden_only)
        shortened = shortened or layout.shortened
        marks |= layout.marks
        print_lines(console, layout.lines)
        console.print(Text(verdict_counts_text(evaluation.counts())))
        subject.release()  # printed: its verdicts are not needed again
    legend = marks_legend(marks, "toolscope explain CONFIG TOOL --step ID")
    if legend:
        print_wrapped(console, Text(""), legend, "dim")
    if shortened:
        print_wrapped(
            console,
            Text(""),
            f"Rules shortened to {console.width} columns: toolscope explain CONFIG TOOL --step ID shows one whole, "
            "--wide all.",
            "dim",
        )


def _write_json(subjects: list[AgentWorksSubject], mode: str | None, hidden_only: bool) -> None:
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
