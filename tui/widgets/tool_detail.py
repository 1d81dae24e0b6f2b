"""The selected tool's full trace: every stage, the rule that decided it, the entry and file."""

from __future__ import annotations

from rich.console import Group
from rich.style import Style
from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from ...core.model.attention import ALERT_MARK, BY_DESIGN_MARK
from ...core.model.presentation import MARK
from ...core.model.verdicts import Stage, ToolVerdict
from ...core.systems.registry import STAGE_TITLES
from ...core.text.safe_text import inert
from ..palette import DARK, Palette
from ..rows import is_hidden_by_design, is_registered_but_hidden


def plain(text: str, style: str = "") -> Text:
    """Untrusted text as a Text: control characters escaped, markup never parsed."""
    return Text(inert(text), style=style)


def trace_renderable(
    tool: ToolVerdict, previous_verdict: str | None = None, fix: str | None = None, palette: Palette = DARK
) -> Group:
    """The trace: a title line, the fix (when the tool is not visible), then one row per stage
    (rule, entry, source, rule code). The fix comes before the stages so that the small pane
    shows it without scrolling."""
    head = Text()
    head.append_text(plain(tool.name, "bold"))
    head.append("  in ")
    head.append_text(plain(tool.namespace))
    head.append(f" ({inert(tool.kind)})  ")
    head.append(tool.verdict.upper(), style=palette.verdict(tool.verdict) + Style(bold=True))
    if previous_verdict is not None and previous_verdict != tool.verdict:
        head.append(f"  (was {previous_verdict} before the last change)", style="italic")
    if is_registered_but_hidden(tool):
        head.append(f"  {ALERT_MARK} registered but not usable: a later gate hides it", style=palette.failed)
    elif is_hidden_by_design(tool):
        head.append(f"  {BY_DESIGN_MARK} hidden by design, not a config mistake", style="dim")
    if tool.description:
        head.append("\n")
        head.append_text(plain(tool.description.strip().splitlines()[0], "dim"))
    if fix:
        head.append("\n")
        head.append(" Fix ", style="bold reverse")
        head.append(" ")
        head.append_text(plain(fix, "bold"))
    stages = Table.grid(padding=(0, 1))
    stages.add_column(no_wrap=True, width=14)
    stages.add_column(ratio=1)
    for stage in tool.stages:
        title = STAGE_TITLES.get(stage.name, stage.name)
        body = plain(stage.rule)
        body.append_text(_stage_details(stage))
        stages.add_row(Text(f"{MARK[stage.passed]} {title}", style=palette.stage(stage.passed)), body)
    return Group(head, stages)


def _stage_details(stage: Stage) -> Text:
    """The stage's entry, source and rule code, dimmed; on a line of their own after the rule."""
    details = Text(style="dim")
    if stage.entry is not None:
        details.append("\nentry ")
        details.append_text(plain(stage.entry, "cyan"))
    if stage.source:
        details.append("  in " if stage.entry is not None else "\nin ")
        details.append_text(plain(stage.source, "cyan"))
    details.append("  rule " if stage.entry is not None or stage.source else "\nrule ")
    details.append_text(plain(stage.code, "italic"))
    return details


class ToolDetail(Static):
    """Shows ``trace_text`` for the highlighted tool."""

    DEFAULT_CSS = """
    ToolDetail { height: auto; padding: 0 1; }
    """

    def show_tool(
        self,
        tool: ToolVerdict | None,
        previous_verdict: str | None = None,
        fix: str | None = None,
        palette: Palette = DARK,
    ) -> None:
        """Display one tool's trace (with its fix), or a hint when nothing is selected."""
        if tool is None:
            self.update(Text("No tool selected (the filter matches nothing?)", style="dim"))
        else:
            self.update(trace_renderable(tool, previous_verdict, fix, palette))
