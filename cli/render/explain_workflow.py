"""``toolscope explain CONFIG TOOL`` on every step of a workflow, rendered: the
``workflow-explain/1`` document, or one table with a row per step (the verdict, the first stage
that does not pass, and the fix or why it is visible)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..output import print_document, print_findings, print_lines, print_wrapped, stdout_console

if TYPE_CHECKING:
    from ...core.model.verdicts import Checklist, Finding
    from ...core.systems.agentworks.subject import AgentWorksSubject

Answers = Sequence[tuple["AgentWorksSubject", "Checklist"]]
"""Each step with its checklist for the tool."""


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


def own_findings(subject: AgentWorksSubject) -> list[Finding]:
    """The step's config findings that are not the workflow's (those are printed once)."""
    shared = set(subject.world.findings)
    return [f for f in subject.config_findings if f not in shared]


def print_workflow_json(subjects: Sequence[AgentWorksSubject], tool: str, mode: str | None, answers: Answers) -> None:
    """The ``workflow-explain/1`` document."""
    from ...core.schemas.verdicts import FindingJson, StepExplainJson, WorkflowExplainEnvelope

    first = subjects[0]
    steps = {
        s.step.step.id: StepExplainJson(
            **StepExplainJson.fields_of(c), config_findings=[FindingJson.of(f) for f in own_findings(s)]
        )
        for s, c in answers
    }
    findings = [FindingJson.of(f) for f in first.world.findings]
    print_document(
        WorkflowExplainEnvelope(tool=tool, mode=mode, era=first.loaded.era, config_findings=findings, steps=steps)
    )


def print_workflow_human(subjects: Sequence[AgentWorksSubject], tool: str, mode: str | None, answers: Answers) -> None:
    """The findings (the workflow's, then each step's own), what was asked, and a row per step."""
    from rich.text import Text

    from .workflow import workflow_label

    console = stdout_console()
    first = subjects[0]
    print_findings(first.world.findings, console)
    for subject, _checklist in answers:
        own = own_findings(subject)
        if own:
            console.print(Text(f"step {subject.step.step.id}", style="bold underline"), soft_wrap=True, crop=False)
            print_findings(own, console)
    print_wrapped(console, Text(""), workflow_label(subjects), "dim")
    print_wrapped(console, Text(""), first.era_sentence, "dim")
    head = Text(f"tool {tool}" + (f" in mode {mode}" if mode else "") + ", step by step")
    console.print(head, soft_wrap=True, crop=False)
    _print_steps_table(console, answers)


def _step_row(subject: AgentWorksSubject, checklist: Checklist) -> list[Any]:
    """STEP, VERDICT, FIRST FAILING (``-`` when visible, ``registered`` when not in the registry)."""
    from ...core.systems.registry import STAGE_TITLES
    from ..layout import Cell
    from ..styles import VERDICT_STYLE

    verdict = checklist.verdict
    failing = verdict.first_failing if verdict is not None else None
    if failing is not None:
        stage = STAGE_TITLES.get(failing.name, failing.name)
    else:
        stage = "-" if verdict else "registered"
    return [Cell(subject.step.step.id), Cell(checklist.outcome, VERDICT_STYLE[checklist.outcome]), Cell(stage)]


def _print_steps_table(console: Any, answers: Answers) -> None:
    """A row per step with the sentence beside it; too narrow for that, the sentence wrapped below."""
    from rich.text import Text

    from ..layout import Cell, Column, layout_table

    columns = [Column("STEP"), Column("VERDICT"), Column("FIRST FAILING")]
    rows = [_step_row(subject, checklist) for subject, checklist in answers]
    notes = [Cell(_why(checklist)) for _subject, checklist in answers]
    layout = layout_table(columns, rows, console.width, note=Column("WHY / FIX"), notes=notes, min_note=60)
    if not layout.inline:  # the row, then the sentence wrapped below it
        plain = layout_table(columns, rows, console.width)
        print_lines(console, plain.lines[:1])
        for line, note in zip(plain.lines[1:], notes, strict=True):
            print_lines(console, [line])
            print_wrapped(console, Text("    "), note.text, "dim")
        return
    print_lines(console, layout.lines)
    if layout.shortened:
        print_wrapped(
            console,
            Text(""),
            "Shortened: toolscope explain CONFIG TOOL --step ID gives one step's whole checklist.",
            "dim",
        )
