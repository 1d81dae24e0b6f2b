"""``inspect --capture FILE``: the captured requests in order, followed live as the file grows.

State lives in reactives on ``CaptureScreen`` (``steps``, ``selected``, ``status``) and the
widgets are bound to them (``data_bind``): the request list redraws when ``steps`` grows,
the detail pane when the selection or the steps change. Reading the file happens in a
worker (``CaptureFollower.poll`` in a thread, four times a second), never on the event loop.

Keys: ↑/↓ (or j/k) pick a request, Home/End the first/last; ``f`` toggles following the
newest request; ``q`` quits.

With a config (``inspect CONFIG --capture FILE``) each request is also checked against
what toolscope predicts for it (``core.capture.predict``, run in the same worker thread
as each read): the list marks it ``✓`` (received what was predicted) or ``≠``, ``n``
jumps to the next ``≠``, and the detail pane lists what was predicted but not received,
and what was received but not predicted.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.reactive import reactive, var
from textual.screen import Screen
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

from ...core.capture.compare import CaptureComparison, RequestComparison
from ...core.capture.observed import ObservedCapture
from ...core.capture.observed_file import ObservedFollower
from ...core.capture.timeline import Step, describe_calls, timeline
from ...core.model.presentation import MARK
from ...core.text.safe_text import inert

POLL_SECONDS = 0.25
NAMES_SHOWN = 40
"""Names listed per difference in the detail pane (the rest are counted)."""

Predict = Callable[[ObservedCapture], CaptureComparison]
"""The prediction of a capture so far (``inspect CONFIG --capture``)."""


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
        out.append(f"{len(req.tools)} tools, ≈{req.tokens:,} tokens")
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
        out.append("\n")
        appeared = set(step.appeared) if req.index > 1 else set()
        for name, tokens in zip(req.tools, req.tool_tokens, strict=False):
            mark = "+ " if name in appeared else "  "
            line = Text(mark, style="green" if name in appeared else "")
            line.append(_name(name), style="green" if name in appeared else "")
            if name in req.deferred:
                line.append(" (deferred)", style="dim")
            line.append(f"  ≈{tokens:,}\n", style="dim")
            out.append_text(line)
        if req.calls:
            out.append("\nreply: ", style="bold")
            out.append(_name(describe_calls(req.calls)) + "\n")
        return out


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


class CaptureScreen(Screen[None]):
    """The request list beside the selected request's detail; a header line with the file's state."""

    BINDINGS = [
        Binding("f", "toggle_follow", "Follow newest", tooltip="Keep the newest request selected as the file grows"),
        Binding("n", "next_disagreement", "Next ≠", tooltip="The next request that differs from the prediction"),
        Binding("j", "cursor_down", "Down", show=False),
        Binding("k", "cursor_up", "Up", show=False),
    ]
    DEFAULT_CSS = """
    CaptureScreen #capture-status { height: 1; padding: 0 1; background: $panel; }
    CaptureScreen RequestList { width: 38; height: 1fr; }
    CaptureScreen #capture-detail-box { width: 1fr; height: 1fr; padding: 0 1; }
    CaptureScreen.-narrow RequestList { width: 30; }
    """

    steps: var[tuple[Step, ...]] = var(())
    checks: var[tuple[RequestComparison, ...]] = var(())
    selected: var[int] = var(0)
    status: var[str] = var("reading…")
    following: var[bool] = var(True)

    def __init__(self, path: str, predict: Predict | None = None, against: str | None = None) -> None:
        """Show the capture at ``path``, followed as it grows; with ``predict``, each request
        checked against the prediction for ``against`` (the config's name)."""
        super().__init__()
        self.path = path
        self.follower = ObservedFollower(path)
        self.predict = predict
        self.against = against
        self.prediction_error: str | None = None

    def compose(self) -> ComposeResult:
        """Status line, list | detail, footer."""
        yield Static(id="capture-status")
        with Horizontal():
            yield RequestList(id="capture-requests").data_bind(CaptureScreen.steps, CaptureScreen.checks)
            with VerticalScroll(id="capture-detail-box"):
                yield RequestDetail(id="capture-detail").data_bind(
                    CaptureScreen.steps, CaptureScreen.checks, CaptureScreen.selected
                )
        yield Footer()

    def on_mount(self) -> None:
        """Start reading the file."""
        self.query_one(RequestList).focus()
        self.follow_file()

    @work(exclusive=True, group="capture-file")
    async def follow_file(self) -> None:
        """Poll the file in a thread until the screen goes away (cancelled with the worker)."""
        while True:
            capture = await asyncio.to_thread(self.follower.poll)
            if capture is not None:
                if self.predict is not None:
                    self.checks = await asyncio.to_thread(self._check, capture)
                self.steps = tuple(timeline(capture))
                cut = f" · {capture.truncated}" if capture.truncated else ""
                self.status = f"{len(capture.requests)} requests{self._verdict()}{cut}"
            elif self.follower.error:
                self.status = f"read error: {self.follower.error.splitlines()[0]}"
            elif not self.steps:
                self.status = "waiting for the first request…"
            await asyncio.sleep(POLL_SECONDS)

    def _check(self, capture: ObservedCapture) -> tuple[RequestComparison, ...]:
        # In the worker's thread. A prediction that fails (the config's code raised) leaves
        # the capture shown unmarked, with the reason in the header line.
        assert self.predict is not None
        try:
            checks = self.predict(capture).requests
        except Exception as exc:  # any error of the user's config: shown, never a crash
            self.prediction_error = f"{type(exc).__name__}: {exc}".splitlines()[0][:200]
            return ()
        self.prediction_error = None
        return checks

    def _verdict(self) -> str:
        if self.predict is None:
            return ""
        if self.prediction_error is not None:
            return f" · no prediction: {self.prediction_error}"
        differ = sum(1 for check in self.checks if not check.agrees)
        return f" · {differ} ≠ prediction (n: next)" if differ else " · all as predicted"

    def watch_steps(self, steps: tuple[Step, ...]) -> None:
        """Keep the newest request selected while following (once the list has its new rows)."""
        if self.following and steps:
            self.call_after_refresh(self._select_newest)

    def _select_newest(self) -> None:
        # Checked again when it runs: a key pressed since the rows arrived stopped following.
        if self.following and self.steps:
            self.query_one(RequestList).highlighted = len(self.steps) - 1

    def watch_status(self, status: str) -> None:
        """The header line: file, requests, following or not."""
        follow = "following" if self.following else "not following (f)"
        against = f" vs {_name(self.against)}" if self.against else ""
        self.query_one("#capture-status", Static).update(
            Text(f"{_name(Path(self.path).name)}{against} · {status} · {follow}", overflow="ellipsis", no_wrap=True)
        )

    def watch_following(self) -> None:
        """Redraw the header when following is switched."""
        self.watch_status(self.status)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        """The highlighted request is the one shown; moving off the newest stops following."""
        self.selected = event.option_index
        if self.steps and event.option_index != len(self.steps) - 1:
            self.following = False

    def action_toggle_follow(self) -> None:
        """Follow the newest request again (or stop)."""
        self.following = not self.following
        if self.following:
            self._select_newest()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """``n`` only with a prediction (otherwise it is left out of the footer)."""
        return self.predict is not None or action != "next_disagreement"

    def action_next_disagreement(self) -> None:
        """n: the next request that differs from the prediction (from the top after the last)."""
        count = len(self.checks)
        after = [(self.selected + step) % count for step in range(1, count + 1)] if count else []
        target = next((n for n in after if not self.checks[n].agrees), None)
        if target is None:
            self.notify("every request is as predicted")
            return
        self.following = False
        self.query_one(RequestList).highlighted = target

    def action_cursor_down(self) -> None:
        """j: the next request."""
        self.query_one(RequestList).action_cursor_down()

    def action_cursor_up(self) -> None:
        """k: the previous request."""
        self.query_one(RequestList).action_cursor_up()
