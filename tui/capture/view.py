"""``inspect --capture FILE``: the captured requests in order, followed live as the file grows.

State lives in reactives on ``CaptureScreen`` (``steps``, ``selected``, ``status``) and the
widgets are bound to them (``data_bind``): the request list redraws when ``steps`` grows,
the detail pane when the selection or the steps change. Reading the file happens in a
worker (``CaptureFollower.poll`` in a thread, four times a second), never on the event loop.

Keys: ↑/↓ (or j/k) pick a request, Home/End the first/last; ``f`` toggles following the
newest request; ``q`` quits.

With a config (``inspect CONFIG --capture FILE``) each request is also checked against
what toolscope predicts for it (``core.comparison.predict``, run in the same worker thread
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
from textual.reactive import var
from textual.screen import Screen
from textual.widgets import Footer, OptionList, Static

from ...core.capture.observed import ObservedCapture
from ...core.capture.observed_file import ObservedFollower
from ...core.capture.timeline import Step, timeline
from ...core.comparison.compare import CaptureComparison, RequestComparison
from ...core.text.safe_text import inert
from .requests import RequestDetail, RequestList

POLL_SECONDS = 0.25
Predict = Callable[[ObservedCapture], CaptureComparison]
"""The prediction of a capture so far (``inspect CONFIG --capture``)."""


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
        against = f" vs {inert(self.against, single_line=True)}" if self.against else ""
        self.query_one("#capture-status", Static).update(
            Text(
                f"{inert(Path(self.path).name, single_line=True)}{against} · {status} · {follow}",
                overflow="ellipsis",
                no_wrap=True,
            )
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
