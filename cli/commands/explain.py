"""``toolscope explain CONFIG TOOL``: the checklist for one tool, ending at the fix."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from toolscope.app import app
from toolscope.commands.common import (
    GroupsOpt,
    JsonOpt,
    ModeOpt,
    RegistryOpt,
    SnapshotOpt,
    StepOpt,
    split_groups,
)
from toolscope.core.enums import Verdict
from toolscope.core.errors import EXIT_NEGATIVE
from toolscope.output import (
    STYLE,
    SYMBOL,
    VERDICT_STYLE,
    handle_errors,
    plain,
    print_document,
    print_findings,
    stdout_console,
)

if TYPE_CHECKING:
    from toolscope.core.verdicts import Checklist


@app.command("explain")
@handle_errors
def explain_command(
    config: Annotated[str, typer.Argument(help="Step config, toolkit spec, or module:function.")],
    tool: Annotated[str, typer.Argument(help="Tool name (or namespace:tool).")],
    mode: ModeOpt = None,
    step: StepOpt = None,
    registry: RegistryOpt = None,
    groups: GroupsOpt = None,
    snapshot: SnapshotOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Explain why TOOL is or is not usable, stage by stage, and print the fix.

    Exit 0 when the tool is visible, 1 when it is hidden or unknown.
    """
    from toolscope.inputs import open_subject

    subject = open_subject(config, step=step, registry=registry, groups=split_groups(groups), snapshot=snapshot)
    checklist = subject.checklist(tool, subject.resolve_mode(mode))
    if as_json:
        from toolscope.core.schemas.verdicts import ExplainEnvelope

        print_document(ExplainEnvelope.of(checklist, subject.config_findings))
    else:
        console = stdout_console()
        print_findings(subject.config_findings, console)
        print_checklist(checklist, subject.loaded.label)
    if checklist.outcome != Verdict.VISIBLE:
        raise typer.Exit(EXIT_NEGATIVE)


def print_checklist(checklist: Checklist, label: str) -> None:
    """Human form: the verdict, each stage with its rule, the checklist, the fix."""
    from rich.text import Text

    from toolscope.core.verdicts import STAGE_TITLES

    console = stdout_console()
    console.print(Text(label, style="dim"))
    head = Text("tool ")
    head.append_text(plain(checklist.tool, "bold"))
    if checklist.mode:
        head.append(" in mode ")
        head.append_text(plain(checklist.mode, "bold"))
    head.append(": ")
    head.append(checklist.outcome.upper(), style=VERDICT_STYLE[checklist.outcome])
    console.print(head)
    verdict = checklist.verdict
    if verdict is not None:
        console.print()
        for stage in verdict.stages:
            line = Text(
                f"  {SYMBOL[stage.passed]} {STAGE_TITLES.get(stage.name, stage.name):<13} ", style=STYLE[stage.passed]
            )
            line.append_text(plain(stage.rule))
            console.print(line)
    console.print()
    console.print(Text("Checklist", style="bold underline"))
    for number, item in enumerate(checklist.steps, 1):
        line = Text(f"{number}. ")
        line.append_text(plain(item.question))
        line.append(" ")
        line.append(item.answer, style=STYLE[item.passed] if item.passed is not None or item.answer != "n/a" else "dim")
        console.print(line)
        for evidence in item.evidence:
            console.print(Text("     ").append_text(plain(evidence, "dim")))
    if checklist.did_you_mean:
        console.print()
        console.print(plain("Did you mean: " + ", ".join(checklist.did_you_mean), "yellow"))
    if checklist.fix:
        console.print()
        fix = Text("Fix: ", style="bold")
        fix.append_text(plain(checklist.fix))
        console.print(fix)
