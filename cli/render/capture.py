"""The human form of a capture comparison, shared by ``step``, ``tools``, ``explain`` and ``check``.

``print_disagreements`` goes FIRST in every command's output: a request whose received
tools differ from toolscope's prediction is either a layer toolscope does not model or a
bug, and the user must see it before any prediction. ``print_requests`` is the request by
request account (``step --capture``); ``print_totals`` the one-paragraph summary the
config commands print after their own output.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from rich.text import Text

from ..output import print_wrapped

if TYPE_CHECKING:
    from pydantic import BaseModel
    from rich.console import Console

    from ...core.comparison.compare import CaptureComparison, RequestComparison

# Names shown per list in the human form; the JSON has up to 200, the TUI all.
SHOWN = 30


def _names(names: Any, shown: int = SHOWN) -> str:
    names = list(names)
    if not names:
        return "(none)"
    more = f" … and {len(names) - shown:,} more" if len(names) > shown else ""
    return ", ".join(names[:shown]) + more


def _requests_text(indexes: list[int]) -> str:
    shown = ", ".join(map(str, indexes[:20]))
    return shown + (f" … ({len(indexes):,} in all)" if len(indexes) > 20 else "")


def print_disagreements(console: Console, comparison: CaptureComparison, source: str) -> None:
    """The disagreeing requests, first (nothing when every request agrees)."""
    bad = comparison.disagreeing
    cap = comparison.capture
    if not bad:
        return
    which = "request" if len(bad) == 1 else "requests"
    print_wrapped(
        console,
        Text("≠ ", style="bold red"),
        f"the capture disagrees with toolscope's prediction at {which} "
        f"{_requests_text([r.request.index for r in bad])} of {len(cap.requests)} ({source}): "
        f"{comparison.blame()}",
        "bold red",
    )
    runs = _runs(bad)
    for run in runs[:10]:
        _print_difference(console, run)
    if len(runs) > 10:
        print_wrapped(console, Text("  "), f"… {len(runs) - 10:,} more differences (--json lists every request)", "dim")
    _print_rule(console, comparison)
    console.print()


def _runs(bad: Sequence[RequestComparison]) -> list[list[RequestComparison]]:
    """Consecutive requests with the same difference, as one block each ("requests 2-9")."""
    runs: list[list[RequestComparison]] = []
    for item in bad:
        last = runs[-1][-1] if runs else None
        if last is not None and last.request.index + 1 == item.request.index and _same(last, item):
            runs[-1].append(item)
        else:
            runs.append([item])
    return runs


def _offer_lines(item: RequestComparison) -> list[tuple[str, str]]:
    """A CLI input's own differences: how a tool is offered, what a call did."""
    return item.offer.sentences() if item.offer is not None else []


def _same(a: RequestComparison, b: RequestComparison) -> bool:
    return (a.main.missing, a.main.unexpected, a.prediction.basis, _offer_lines(a)) == (
        b.main.missing,
        b.main.unexpected,
        b.prediction.basis,
        _offer_lines(b),
    )


def _print_difference(console: Console, run: list[RequestComparison]) -> None:
    item, last = run[0], run[-1]
    which = f"request {item.request.index}" if len(run) == 1 else f"requests {item.request.index}-{last.request.index}"
    print_wrapped(console, Text(f"  {which} ", style="bold"), f"({item.prediction.basis})")
    foreign = set(item.foreign)
    known = [n for n in item.main.unexpected if n not in foreign]
    pad = " " * 4
    if item.main.missing:
        print_wrapped(console, Text(pad + "missing     ", style="red"), _names(item.main.missing))
    if known:
        print_wrapped(console, Text(pad + "unexpected  ", style="yellow"), _names(known))
    if item.foreign:
        print_wrapped(
            console,
            Text(pad + "foreign     ", style="yellow"),
            _names(item.foreign) + " (no tool of the input has these names: the client's own tools, or a layer "
            "toolscope does not model)",
        )
    for label, sentence in _offer_lines(item):
        print_wrapped(console, Text(f"{pad}{label:<12}", style="red"), sentence)
    for other, lane_cmp in item.others.items():
        verdict = "agrees" if lane_cmp.agrees else "differs too"
        print_wrapped(console, Text(pad), f"the {other} lane {verdict} at this request", "dim")


def _print_rule(console: Console, comparison: CaptureComparison) -> None:
    rule = comparison.rule
    head = "names: " if rule.documented else "names (unverified): "
    print_wrapped(console, Text("  " + head, style="dim"), rule.summary, "dim")
    for note in comparison.notes:
        print_wrapped(console, Text("  note: ", style="dim"), note, "dim")


def print_requests(console: Console, comparison: CaptureComparison) -> None:
    """One block per request: the verdict, what was received, what the lanes predicted."""
    for item in comparison.requests:
        req = item.request
        console.print()
        mark, style = ("=", "bold green") if item.agrees else ("≠", "bold red")
        head = Text(f"request {req.index} {mark} ", style=style)
        order = " (same tools, another order)" if item.agrees and not item.same_order else ""
        print_wrapped(console, head, f"{item.prediction.basis}{order}")
        print_wrapped(console, Text("  received  "), f"{_names(item.received)} (≈{req.tokens:,} tokens)")
        if not item.agrees:
            print_wrapped(console, Text(f"  {comparison.lane or 'predicted':<9} "), _names(item.main.predicted))
        for other, lane_cmp in item.others.items():
            word = "agrees" if lane_cmp.agrees else _names(lane_cmp.predicted)
            print_wrapped(console, Text(f"  {other:<9} ", style="dim"), word, "dim")
        if req.calls:
            from ...core.capture.timeline import describe_calls

            print_wrapped(console, Text("  reply     ", style="dim"), describe_calls(req.calls), "dim")


def print_totals(console: Console, comparison: CaptureComparison, source: str) -> None:
    """The comparison in a few lines: agreement, then never-received and unpredicted tools."""
    cap = comparison.capture
    console.print()
    if comparison.agrees:
        print_wrapped(
            console,
            Text("= ", style="bold green"),
            f"{source}: every one of the {len(cap.requests)} requests carried the predicted tools",
            "green",
        )
    else:
        print_wrapped(
            console,
            Text("≠ ", style="bold red"),
            f"{source}: {len(comparison.disagreeing)} of {len(cap.requests)} requests differ from the prediction",
        )
    print_wrapped(console, Text("  never reached the model  "), _names(comparison.never_received))
    print_wrapped(console, Text("  reached it unpredicted   "), _names(comparison.unpredicted))
    if cap.truncated:
        print_wrapped(console, Text("  cut: ", style="yellow"), cap.truncated, "yellow")
    if cap.skipped:
        print_wrapped(console, Text("  skipped: ", style="dim"), "; ".join(cap.skipped[:3]), "dim")


def print_tool_in_capture(
    console: Console, comparison: CaptureComparison, tool: str, source: str, aliases: tuple[str, ...] = ()
) -> None:
    """explain: in which requests the tool reached the model, and in which toolscope predicted it.

    ``aliases``: the tool's names in the comparison (Codex: ``namespace:function``, or ``namespace:*``
    when the namespace is deferred).
    """
    names = {tool, *aliases}
    received = [r.request.index for r in comparison.requests if names & set(r.received)]
    predicted = [r.request.index for r in comparison.requests if names & set(r.main.predicted)]
    total = len(comparison.requests)
    console.print()
    mark, style = ("=", "bold green") if received == predicted else ("≠", "bold red")
    print_wrapped(
        console,
        Text(f"{mark} ", style=style),
        f"{source}: {tool} reached the model in {len(received)} of {total} requests "
        f"({_requests_text(received) or 'none'}); toolscope predicted it in {len(predicted)} "
        f"({_requests_text(predicted) or 'none'})",
    )


def compare_capture(path: Any, subject: Any, mode: str | None) -> CaptureComparison:
    """Read the capture and compare it with what ``subject`` predicts in ``mode``."""
    from ...core.capture.observed_file import load_capture
    from ...core.comparison.predict import compare_subject
    from ..replay_progress import replay_progress

    observed = load_capture(path)
    with replay_progress("request"):
        return compare_subject(subject, observed, mode).comparison


def capture_source(comparison: CaptureComparison) -> str:
    """``capture FILE (N requests)`` for headers."""
    from pathlib import Path

    cap = comparison.capture
    return f"capture {Path(cap.path).name}, {len(cap.requests)} requests"


def with_capture(document: BaseModel, comparison: CaptureComparison | None) -> BaseModel:
    """A ``check`` or ``explain`` document with the comparison as its ``capture`` block (its
    last key); the document as it is without ``--capture``."""
    if comparison is None:
        return document
    from ...core.schemas.verdicts import CheckEnvelope, ExplainEnvelope
    from ...core.schemas.with_capture import CheckCaptureEnvelope, ExplainCaptureEnvelope

    envelopes: dict[type[BaseModel], type[BaseModel]] = {
        CheckEnvelope: CheckCaptureEnvelope,
        ExplainEnvelope: ExplainCaptureEnvelope,
    }
    captured = envelopes[type(document)]
    # Validated: the capture block is assembled by core.comparison.compare as plain data.
    return captured.model_validate({**document.model_dump(mode="json", by_alias=True), "capture": comparison.to_json()})
