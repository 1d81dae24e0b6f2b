"""``toolscope explain CONFIG TOOL``: the checklist for one tool, ending at the fix."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from ...core.model.enums import Verdict
from ...core.model.errors import EXIT_NEGATIVE
from ...core.model.presentation import MARK
from ...core.systems.codex.ids import CodexInput
from ...core.text.shell import is_command, wrap_command
from ..output import (
    era_sentence,
    handle_errors,
    plain,
    print_document,
    print_findings,
    print_wrapped,
    stdout_console,
)
from ..styles import STAGE_STYLE, VERDICT_STYLE
from .common import (
    CaptureOpt,
    JsonOpt,
    ModeOpt,
)
from .subject_options import NO_SUBJECT_OPTIONS, SubjectOptions, with_subject_options

if TYPE_CHECKING:
    from ...core.model.verdicts import Checklist
    from ...core.systems.agentworks.selection_rewrite import SelectionRewrite


@handle_errors
@with_subject_options
def explain_command(
    config: Annotated[str, typer.Argument(help="Step config, toolkit spec, or module:function.")],
    tool: Annotated[str, typer.Argument(help="Tool name (or namespace:tool).")],
    mode: ModeOpt = None,
    subject_options: SubjectOptions = NO_SUBJECT_OPTIONS,
    capture: CaptureOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Explain why TOOL is or is not usable, stage by stage, and print the fix.

    Exit 0 when the tool is visible, 1 when it is hidden or unknown (in any step, when a
    step config with several steps is explained without --step: one row per step).
    """
    subjects = subject_options.open_workflow(config, capture=capture)
    if subjects is not None:
        from .explain_workflow import explain_workflow

        explain_workflow(subjects, tool, mode, as_json)
        return
    subject = subject_options.open_subject(config)
    resolved = subject.resolve_mode(mode)
    checklist = subject.checklist(tool, resolved)
    comparison = None
    if capture is not None:
        from ..capture_output import compare_capture

        comparison = compare_capture(capture, subject, resolved)
    from ...core.model.subject import RewritesSelection

    rewrite = subject.selection_rewrite if isinstance(subject, RewritesSelection) else None
    if as_json:
        from ...core.schemas.verdicts import ExplainEnvelope

        document = ExplainEnvelope.of(checklist, subject.config_findings, rewrite, subject.loaded.era)
        from ..capture_output import with_capture

        print_document(with_capture(document, comparison))
    else:
        console = stdout_console()
        if comparison is not None:
            from ..capture_output import capture_source, print_disagreements

            print_disagreements(console, comparison, capture_source(comparison))
        print_findings(subject.config_findings, console)
        print_checklist(checklist, subject.loaded.label, rewrite, era_sentence(subject.loaded))
        if comparison is not None:
            from ..capture_output import capture_source, print_tool_in_capture

            verdict = checklist.verdict
            aliases = (
                (f"{verdict.namespace}:{verdict.name}", f"{verdict.namespace}:*")
                if verdict is not None and subject.loaded.kind == CodexInput.CODEX
                else ()
            )
            print_tool_in_capture(console, comparison, checklist.tool, capture_source(comparison), aliases)
    if checklist.outcome != Verdict.VISIBLE:
        raise typer.Exit(EXIT_NEGATIVE)


def print_rewrite(rewrite: SelectionRewrite) -> None:
    """The step's selected_servers / selected_tools before and after the app's rewrite."""
    from rich.text import Text

    from ...core.systems.agentworks.filter_decisions import quote_list

    console = stdout_console()
    console.print()
    console.print(Text("Before the filter (the app's rewrite, controller_agent_factory.go)", style="bold underline"))
    if not rewrite.modelled:
        print_wrapped(console, Text("  "), rewrite.note, "dim")
        return
    for listed in (rewrite.servers, rewrite.tools):
        after = f" → {quote_list(listed.after)}" if listed.changed else " (unchanged)"
        print_wrapped(console, Text(f"  {listed.field:<17} "), quote_list(listed.before) + after)
        for rule in listed.rules:
            print_wrapped(console, Text("     "), rule, "dim")


def print_checklist(
    checklist: Checklist, label: str, rewrite: SelectionRewrite | None = None, era: str | None = None
) -> None:
    """Human form: the verdict, a mark per stage, the app's rewrite when it changed the lists, the
    checklist (whose answers quote the stages' rules), the fix."""
    from rich.text import Text

    from ...core.systems.registry import STAGE_TITLES
    from ...core.text.safe_text import inert
    from ..layout import wrap_words

    console = stdout_console()
    print_wrapped(console, Text(""), label, "dim")
    if era:
        print_wrapped(console, Text(""), era, "dim")
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
        # Every stage as a mark on one line; a stage's rule is printed here only when no answer of
        # the checklist below quotes it (each rule sentence once: --json has them all).
        quoted = "\n".join(evidence for item in checklist.steps for evidence in item.evidence)
        marks = Text("  ")
        for stage in verdict.stages:
            stage_mark = f"{MARK[stage.passed]} {STAGE_TITLES.get(stage.name, stage.name)}"
            if marks.plain.strip() and len(marks.plain) + 2 + len(stage_mark) > console.width:
                console.print(marks, soft_wrap=True, crop=False)  # nine Claude Code stages take two lines
                marks = Text("  ")
            marks.append("  " if marks.plain.strip() else "")
            marks.append(stage_mark, STAGE_STYLE[stage.passed])
        console.print(marks, soft_wrap=True, crop=False)
        for stage in verdict.stages:
            # "a call is refused with: <denial text>" is quoted when the denial text is.
            if stage.rule not in quoted and stage.rule.split(": ", 1)[-1] not in quoted:
                head = Text(f"  {STAGE_TITLES.get(stage.name, stage.name)}: ", style=STAGE_STYLE[stage.passed])
                print_wrapped(console, head, stage.rule)
    if rewrite is not None and (not rewrite.modelled or rewrite.servers.changed or rewrite.tools.changed):
        print_rewrite(rewrite)
    console.print()
    console.print(Text("Checklist", style="bold underline"))
    for number, item in enumerate(checklist.steps, 1):
        answer_style = STAGE_STYLE[item.passed] if item.passed is not None or item.answer != "n/a" else "dim"
        lines = wrap_words(inert(f"{item.question} {item.answer}"), max(console.width - 3, 20))
        for index, text in enumerate(lines):
            line = Text(f"{number}. " if index == 0 else "   ")
            if index == len(lines) - 1 and text.endswith(item.answer):
                line.append(text[: len(text) - len(item.answer)])
                line.append(item.answer, style=answer_style)
            else:
                line.append(text)
            console.print(line, soft_wrap=True, crop=False)
        for evidence in item.evidence:
            if is_command(evidence):  # meant to be pasted: broken only with shell line continuations
                for part in wrap_command(evidence, max(console.width - 5, 20)):
                    console.print(Text("     ").append(inert(part), style="dim"), soft_wrap=True, crop=False)
            else:
                print_wrapped(console, Text("     "), evidence, "dim")
    if checklist.did_you_mean:
        console.print()
        print_wrapped(console, Text("Did you mean: ", style="yellow"), ", ".join(checklist.did_you_mean), "yellow")
    if checklist.fix:
        console.print()
        print_wrapped(console, Text("Fix: ", style="bold"), checklist.fix)
