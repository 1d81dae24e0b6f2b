"""The capture screen's widgets: one row per captured request, and the selected request's detail
(its tools, what appeared and disappeared, and how it compares with the prediction)."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive, var
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ...core.capture.timeline import Step, describe_calls
from ...core.comparison.compare import RequestComparison
from ...core.model.presentation import MARK
from ...core.text.safe_text import inert

NAMES_SHOWN = 40
"""Names listed per difference in the detail pane (the rest are counted)."""


def _name(text: str) -> str:
    return inert(text, single_line=True)


def _mark(check: RequestComparison) -> Text:
    # Appended with its style (a Text's own style would colour the whole row).
    mark = Text()
    mark.append(*((f"{MARK[True]} ", "green") if check.agrees else ("≠ ", "bold red")))
    return mark


class RequestList(OptionList):
    """One line per request: the prediction's mark, its number, tool count, token estimate and the change."""

    steps: var[tuple[Step, ...]] = var(())
    checks: var[tuple[RequestComparison, ...]] = var(())
    """Each request against the prediction (empty without a config)."""

    def watch_steps(self, old: tuple[Step, ...], new: tuple[Step, ...]) -> None:
        """Append the new requests (the old ones never change: the file only grows)."""
        if len(new) < len(old):  # the file was replaced: start over
            self.clear_options()
            old = ()
        self.add_options([Option(self._row(n)) for n in range(len(old), len(new))])

    def watch_checks(self, old: tuple[RequestComparison, ...], new: tuple[RequestComparison, ...]) -> None:
        """Mark the rows shown before their check arrived (or all of them, after a restart)."""
        start = 0 if len(new) < len(old) else len(old)
        for n in range(start, min(len(new), self.option_count, len(self.steps))):
            self.replace_option_prompt_at_index(n, self._row(n))

    def _row(self, n: int) -> Text:
        step = self.steps[n]
        req = step.request
        row = _mark(self.checks[n]) if n < len(self.checks) else Text()
        row.append(f"#{req.index:<4}", style="bold")
        row.append(f"{len(req.tools):>4} tools ≈{req.tokens:>6,} tok ")
        if req.index == 1:
            return row
        if step.appeared:
            row.append(f"+{len(step.appeared)}", style="green")
        if step.disappeared:
            row.append(f" -{len(step.disappeared)}", style="red")
        return row


class RequestDetail(Static):
    """The selected request: the prediction's differences, its tools (with + for appeared), what
    disappeared, what caused it."""

    steps: reactive[tuple[Step, ...]] = reactive((), layout=True)
    checks: reactive[tuple[RequestComparison, ...]] = reactive((), layout=True)
    selected: reactive[int] = reactive(0, layout=True)

    def render(self) -> Text:
        """The selected request's detail (empty before the first request)."""
        if not self.steps:
            return Text("no requests yet", style="dim")
        position = min(self.selected, len(self.steps) - 1)
        step = self.steps[position]
        req = step.request
        out = Text()
        out.append(f"request {req.index}", style="bold")
        out.append(f" · {_name(req.protocol)} · {_name(req.model or '?')}\n", style="dim")
        if position < len(self.checks):
            out.append_text(_differences(self.checks[position]))
        out.append_text(_changes(step))
        out.append("\n")
        appeared = set(step.appeared) if req.index > 1 else set()
        for name, tokens in zip(req.tools, req.tool_tokens, strict=False):
            out.append_text(_tool_line(name, tokens, appeared=name in appeared, deferred=name in req.deferred))
        if req.calls:
            out.append("\nreply: ", style="bold")
            out.append(_name(describe_calls(req.calls)) + "\n")
        return out


def _changes(step: Step) -> Text:
    """The request's size, and what changed since the one before: tokens, the calls that
    caused it, the tools that disappeared."""
    req = step.request
    out = Text(f"{len(req.tools)} tools, ≈{req.tokens:,} tokens")
    if req.index > 1:
        sign = "+" if step.token_change >= 0 else ""
        out.append(f" ({sign}{step.token_change:,} since request {req.index - 1})")
    out.append("\n")
    if req.index > 1:
        out.append("after: ", style="bold")
        out.append(_name(describe_calls(step.caused_by)) + "\n")
    if step.disappeared:
        out.append("disappeared: ", style="bold red")
        out.append(", ".join(_name(n) for n in step.disappeared) + "\n", style="red")
    return out


def _tool_line(name: str, tokens: int, *, appeared: bool, deferred: bool) -> Text:
    """One tool of the request: + and green when it appeared, (deferred), its token estimate."""
    style = "green" if appeared else ""
    line = Text("+ " if appeared else "  ", style=style)
    line.append(_name(name), style=style)
    if deferred:
        line.append(" (deferred)", style="dim")
    line.append(f"  ≈{tokens:,}\n", style="dim")
    return line


def _names(names: tuple[str, ...]) -> str:
    shown = ", ".join(_name(n) for n in names[:NAMES_SHOWN])
    return shown + (f" … and {len(names) - NAMES_SHOWN:,} more" if len(names) > NAMES_SHOWN else "")


def _differences(check: RequestComparison) -> Text:
    """The request against the prediction: the verdict, why that list, and each difference."""
    out = _mark(check)
    out.append("as predicted" if check.agrees else "not as predicted", style="green" if check.agrees else "bold red")
    out.append(f" ({_name(check.prediction.basis)})\n", style="dim")
    if check.main.missing:
        out.append("predicted, not received: ", style="bold red")
        out.append(_names(check.main.missing) + "\n", style="red")
    known = tuple(n for n in check.main.unexpected if n not in check.foreign)
    if known:
        out.append("received, not predicted: ", style="bold yellow")
        out.append(_names(known) + "\n", style="yellow")
    if check.foreign:
        out.append("received, unknown to the config: ", style="bold yellow")
        out.append(_names(check.foreign) + "\n", style="yellow")
    return out
