"""One tool's checklist, rendered: the verdict, a mark per stage, the app's rewrite of the
step's lists when it changed them, the questions and answers with their evidence, the fix."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.model.presentation import MARK
from ...core.text.safe_text import inert
from ...core.text.shell import is_command, wrap_command
from ..output import plain, print_wrapped, stdout_console
from ..styles import STAGE_STYLE, VERDICT_STYLE

if TYPE_CHECKING:
    from rich.text import Text

    from ...core.model.verdicts import Checklist, ChecklistStep, ToolVerdict
    from ...core.systems.agentworks.selection_rewrite import SelectionRewrite


def print_checklist(
    checklist: Checklist, label: str, rewrite: SelectionRewrite | None = None, era: str | None = None
) -> None:
    """Human form: the verdict, a mark per stage, the app's rewrite when it changed the lists, the
    checklist (whose answers quote the stages' rules), the fix."""
    from rich.text import Text

    console = stdout_console()
    print_wrapped(console, Text(""), label, "dim")
    if era:
        print_wrapped(console, Text(""), era, "dim")
    console.print(_head(checklist))
    if checklist.verdict is not None:
        _print_stages(console, checklist, checklist.verdict)
    if rewrite is not None and (not rewrite.modelled or rewrite.servers.changed or rewrite.tools.changed):
        print_rewrite(rewrite)
    console.print()
    console.print(Text("Checklist", style="bold underline"))
    for number, item in enumerate(checklist.steps, 1):
        _print_item(console, number, item)
    if checklist.did_you_mean:
        console.print()
        print_wrapped(console, Text("Did you mean: ", style="yellow"), ", ".join(checklist.did_you_mean), "yellow")
    if checklist.fix:
        console.print()
        print_wrapped(console, Text("Fix: ", style="bold"), checklist.fix)


def _head(checklist: Checklist) -> Text:
    """``tool NAME in mode MODE: VERDICT``."""
    from rich.text import Text

    head = Text("tool ")
    head.append_text(plain(checklist.tool, "bold"))
    if checklist.mode:
        head.append(" in mode ")
        head.append_text(plain(checklist.mode, "bold"))
    head.append(": ")
    head.append(checklist.outcome.upper(), style=VERDICT_STYLE[checklist.outcome])
    return head


def _print_stages(console: Any, checklist: Checklist, verdict: ToolVerdict) -> None:
    """Every stage as a mark on one line; a stage's rule is printed here only when no answer of
    the checklist below quotes it (each rule sentence once: --json has them all)."""
    from rich.text import Text

    from ...core.systems.registry import STAGE_TITLES

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


def _print_item(console: Any, number: int, item: ChecklistStep) -> None:
    """``N. question answer`` wrapped (the answer in its colour), then its evidence."""
    from rich.text import Text

    from ..layout import wrap_words

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
        _print_evidence(console, evidence)


def _print_evidence(console: Any, evidence: str) -> None:
    """A line of evidence, dim; a command (meant to be pasted) broken only with shell line continuations."""
    from rich.text import Text

    if not is_command(evidence):
        print_wrapped(console, Text("     "), evidence, "dim")
        return
    for part in wrap_command(evidence, max(console.width - 5, 20)):
        console.print(Text("     ").append(inert(part), style="dim"), soft_wrap=True, crop=False)


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
