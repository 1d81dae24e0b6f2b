"""``inspect --capture FILE``: the captured requests in order, followed live as the file grows.

State lives in reactives on ``CaptureScreen`` (``steps``, ``selected``, ``status``) and the
widgets are bound to them (``data_bind``): the request list redraws when ``steps`` grows,
the detail pane when the selection or the steps change. Reading the file happens in a
worker (``CaptureFollower.poll`` in a thread, four times a second), never on the event loop.

Keys: ↑/↓ (or j/k) pick a request, Home/End the first/last; ``f`` toggles following the
newest request; ``q`` quits.
"""

from __future__ import annotations

import asyncio
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

from ...core.capture.observed_file import ObservedFollower
from ...core.capture.timeline import Step, describe_calls, timeline
from ...core.text.safe_text import inert

POLL_SECONDS = 0.25


def _name(text: str) -> str:
    return inert(text, single_line=True)


class RequestList(OptionList):
    """One line per request: its number, tool count, token estimate and the change."""

    steps: var[tuple[Step, ...]] = var(())

    def watch_steps(self, old: tuple[Step, ...], new: tuple[Step, ...]) -> None:
        """Append the new requests (the old ones never change: the file only grows)."""
        if len(new) < len(old):  # the file was replaced: start over
            self.clear_options()
            old = ()
        self.add_options([Option(self._row(step)) for step in new[len(old) :]])

    def _row(self, step: Step) -> Text:
        req = step.request
        row = Text(f"#{req.index:<4}", style="bold")
        row.append(f"{len(req.tools):>4} tools ≈{req.tokens:>6,} tok ")
        if req.index == 1:
            return row
        if step.appeared:
            row.append(f"+{len(step.appeared)}", style="green")
        if step.disappeared:
            row.append(f" -{len(step.disappeared)}", style="red")
        return row


class RequestDetail(Static):
    """The selected request: its tools (with + for appeared), what disappeared, what caused it."""

    steps: reactive[tuple[Step, ...]] = reactive((), layout=True)
    selected: reactive[int] = reactive(0, layout=True)

    def render(self) -> Text:
        """The selected request's detail (empty before the first request)."""
        if not self.steps:
            return Text("no requests yet", style="dim")
        step = self.steps[min(self.selected, len(self.steps) - 1)]
        req = step.request
        out = Text()
        out.append(f"request {req.index}", style="bold")
        out.append(f" · {_name(req.protocol)} · {_name(req.model or '?')}\n", style="dim")
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


class CaptureScreen(Screen[None]):
    """The request list beside the selected request's detail; a header line with the file's state."""

    BINDINGS = [
        Binding("f", "toggle_follow", "Follow newest", tooltip="Keep the newest request selected as the file grows"),
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
    selected: var[int] = var(0)
    status: var[str] = var("reading…")
    following: var[bool] = var(True)

    def __init__(self, path: str) -> None:
        """Show the capture at ``path``, followed as it grows."""
        super().__init__()
        self.path = path
        self.follower = ObservedFollower(path)

    def compose(self) -> ComposeResult:
        """Status line, list | detail, footer."""
        yield Static(id="capture-status")
        with Horizontal():
            yield RequestList(id="capture-requests").data_bind(CaptureScreen.steps)
            with VerticalScroll(id="capture-detail-box"):
                yield RequestDetail(id="capture-detail").data_bind(CaptureScreen.steps, CaptureScreen.selected)
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
                self.steps = tuple(timeline(capture))
                cut = f" · {capture.truncated}" if capture.truncated else ""
                self.status = f"{len(capture.requests)} requests{cut}"
            elif self.follower.error:
                self.status = f"read error: {self.follower.error.splitlines()[0]}"
            elif not self.steps:
                self.status = "waiting for the first request…"
            await asyncio.sleep(POLL_SECONDS)

    def watch_steps(self, steps: tuple[Step, ...]) -> None:
        """Keep the newest request selected while following (once the list has its new rows)."""
        if self.following and steps:
            self.call_after_refresh(self._select_newest)

    def _select_newest(self) -> None:
        if self.steps:
            self.query_one(RequestList).highlighted = len(self.steps) - 1

    def watch_status(self, status: str) -> None:
        """The header line: file, requests, following or not."""
        follow = "following" if self.following else "not following (f)"
        self.query_one("#capture-status", Static).update(
            Text(f"{_name(Path(self.path).name)} · {status} · {follow}", overflow="ellipsis", no_wrap=True)
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

    def action_cursor_down(self) -> None:
        """j: the next request."""
        self.query_one(RequestList).action_cursor_down()

    def action_cursor_up(self) -> None:
        """k: the previous request."""
        self.query_one(RequestList).action_cursor_up()
