"""``toolscope explain CONFIG TOOL`` on a step config with several steps and no ``--step``.

One table, a row per step: the verdict, the first stage that does not pass, and the fix
(or why it is visible). ``--step ID`` gives one step's whole checklist. Exit 1 when the
tool is hidden or unknown in any step.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import typer

from ...core.model.enums import Verdict
from ...core.model.errors import EXIT_NEGATIVE

if TYPE_CHECKING:
    from ...core.model.verdicts import Checklist, Finding
    from ...core.systems.agentworks.subject import AgentWorksSubject


def _why(checklist: Checklist) -> str:
    verdict = checklist.verdict
    failing = verdict.first_failing if verdict is not None else None
    if checklist.fix:
        return f"fix: {checklist.fix}"
    if failing is not None:
        return failing.rule
    if verdict is None:
        return "; ".join(checklist.steps[0].evidence) if checklist.steps else "not in the registry"
    return verdict.stages[0].rule


def _own(subject: AgentWorksSubject) -> list[Finding]:
    """The step's config findings that are not the workflow's (those are printed once)."""
    shared = set(subject.world.findings)
    return [f for f in subject.config_findings if f not in shared]


def explain_workflow(subjects: list[AgentWorksSubject], tool: str, mode: str | None, as_json: bool) -> None:
    """Answer for ``tool`` in every step, in one mode."""
    first = subjects[0]
    resolved = first.resolve_mode(mode)
    answers = []
    for subject in subjects:
        answers.append((subject, subject.checklist(tool, resolved)))
        subject.release()  # the checklist holds what the answer needs
    if as_json:
        from ...core.schemas.verdicts import FindingJson, StepExplainJson, WorkflowExplainEnvelope
        from ..output import print_document

        print_document(
            WorkflowExplainEnvelope(
                tool=tool,
                mode=resolved,
                era=first.loaded.era,
                config_findings=[FindingJson.of(f) for f in first.world.findings],
                steps={
                    s.step.step.id: StepExplainJson(
                        **StepExplainJson.fields_of(c), config_findings=[FindingJson.of(f) for f in _own(s)]
                    )
                    for s, c in answers
                },
            )
        )
    else:
        from rich.text import Text

        from ...core.systems.registry import STAGE_TITLES
        from ..layout import Cell, Column, layout_table
        from ..output import print_findings, print_lines, print_wrapped, stdout_console
        from ..styles import VERDICT_STYLE
        from .check_workflow import workflow_label

        console = stdout_console()
        print_findings(first.world.findings, console)
        for subject, _checklist in answers:
            own = _own(subject)
            if own:
                console.print(Text(f"step {subject.step.step.id}", style="bold underline"), soft_wrap=True, crop=False)
                print_findings(own, console)
        print_wrapped(console, Text(""), workflow_label(subjects), "dim")
        print_wrapped(console, Text(""), first.era_sentence, "dim")
        head = Text(f"tool {tool}" + (f" in mode {resolved}" if resolved else "") + ", step by step")
        console.print(head, soft_wrap=True, crop=False)
        rows = []
        notes = []
        for subject, checklist in answers:
            verdict = checklist.verdict
            failing = verdict.first_failing if verdict is not None else None
            stage = (
                STAGE_TITLES.get(failing.name, failing.name)
                if failing is not None
                else ("-" if verdict else "registered")
            )
            rows.append(
                [
                    Cell(subject.step.step.id),
                    Cell(checklist.outcome, VERDICT_STYLE[checklist.outcome]),
                    Cell(stage),
                ]
            )
            notes.append(Cell(_why(checklist)))
        layout = layout_table(
            [Column("STEP"), Column("VERDICT"), Column("FIRST FAILING")],
            rows,
            console.width,
            note=Column("WHY / FIX"),
            notes=notes,
            min_note=60,
        )
        if layout.inline:
            print_lines(console, layout.lines)
        else:  # too narrow for the sentence beside the row: the row, then the sentence wrapped below it
            plain = layout_table([Column("STEP"), Column("VERDICT"), Column("FIRST FAILING")], rows, console.width)
            print_lines(console, plain.lines[:1])
            for line, note in zip(plain.lines[1:], notes, strict=True):
                print_lines(console, [line])
                print_wrapped(console, Text("    "), note.text, "dim")
        if layout.inline and layout.shortened:
            print_wrapped(
                console,
                Text(""),
                "Shortened: toolscope explain CONFIG TOOL --step ID gives one step's whole checklist.",
                "dim",
            )
    if any(c.outcome != Verdict.VISIBLE for _s, c in answers):
        raise typer.Exit(EXIT_NEGATIVE)
