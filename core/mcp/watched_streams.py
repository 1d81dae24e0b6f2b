"""The transport's two streams, watched: what the SDK skips or drops, discovery needs to know.

The SDK logs an unparsable stdout line and waits on, drops an answer whose id no request
had, and treats the end of stdout like the end of the server. Each of those, left alone,
ends as a timeout or as "crashed" with the SDK's own SIGTERM as the exit code. The
wrappers here only note what passes (they change nothing), so the watchdog can end a
stuck attempt early and the reason can say what really happened.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Self

CLOSE_GRACE = 0.5
"""How long a server whose stdout ended gets to exit before it counts as still running."""

MAX_NOTED = 8
"""At most this many unparsable lines and stray ids are kept (the first ones say why)."""


@dataclass
class Observed:
    """What crossed the transport during one attempt."""

    @property
    def stuck_on_oddity(self) -> bool:
        """An unparsable line or a stray answer came, and no real answer since."""
        return (bool(self.bad_output) or bool(self.stray_ids)) and self.answers == self.answers_at_oddity

    bad_output: list[Exception] = field(default_factory=list)
    """Lines the SDK could not parse, as the exceptions it passes on (first ``MAX_NOTED``)."""
    bad_count: int = 0
    sent_ids: set[str] = field(default_factory=set)
    """Ids of the requests we sent (as text: the SDK coerces ``"1"`` and ``1`` alike)."""
    stray_ids: list[str] = field(default_factory=list)
    """Ids of answers no request of ours had."""
    method: str = ""
    """The method of the last request sent: what we are waiting for."""
    answers: int = 0
    """Answers to our own requests (progress)."""
    answers_at_oddity: int = -1
    """``answers`` when the last unparsable line or stray answer came: equal to ``answers`` while
    the server has not answered since (an oddity followed by real answers is forgiven)."""
    stdout_closed: bool = False
    running_at_close: bool | None = None
    """When stdout ended: was the server process still running (None: not known, not stdio)?"""
    exit_code: int | None = None
    """The server's own exit code, when it ended by itself (before we closed anything)."""
    closing: bool = False
    """The client started to close the connection: what the process does after is our doing."""


def _root(item: Any) -> Any:
    message = getattr(item, "message", None)
    return getattr(message, "root", message)  # mcp 1.x wraps messages in a RootModel


class _Watched:
    """A stream passed through: every other attribute is the inner stream's, and closing it
    marks the attempt as closing (what the process does after is our doing)."""

    def __init__(self, inner: Any, seen: Observed) -> None:
        self._inner = inner
        self._seen = seen

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    async def __aenter__(self) -> Self:
        await self._inner.__aenter__()
        return self

    async def __aexit__(self, *exc: Any) -> Any:
        self._seen.closing = True
        return await self._inner.__aexit__(*exc)

    def close(self) -> None:
        self._seen.closing = True
        self._inner.close()

    async def aclose(self) -> None:
        self._seen.closing = True
        await self._inner.aclose()


class WatchedRead(_Watched):
    """The read stream: notes unparsable lines, stray answers and the end of stdout."""

    def __init__(self, inner: Any, seen: Observed, process_of: Callable[[], Any]) -> None:
        super().__init__(inner, seen)
        self._process_of = process_of

    def __aiter__(self) -> WatchedRead:
        return self

    async def __anext__(self) -> Any:
        try:
            item = await self._inner.__anext__()
        except StopAsyncIteration:
            await self._closed()
            raise
        self._note(item)
        return item

    async def receive(self) -> Any:
        import anyio

        try:
            item = await self._inner.receive()
        except anyio.EndOfStream:
            await self._closed()
            raise
        self._note(item)
        return item

    async def _closed(self) -> None:
        """stdout ended. Before the SDK hears of it (and closes stdin, then sends SIGTERM), wait a
        moment for the process: a server that exits closes stdout first, and its exit code is
        its own only until we touch it."""
        import anyio

        seen = self._seen
        if seen.stdout_closed:
            return
        seen.stdout_closed = True
        process = self._process_of()
        if process is None:
            return
        deadline = anyio.current_time() + CLOSE_GRACE
        while process.returncode is None and anyio.current_time() < deadline:
            await anyio.sleep(0.01)
        seen.running_at_close = process.returncode is None
        seen.exit_code = process.returncode

    def _note(self, item: Any) -> None:
        seen = self._seen
        if isinstance(item, Exception):
            seen.answers_at_oddity = seen.answers
            seen.bad_count += 1
            if len(seen.bad_output) < MAX_NOTED:
                seen.bad_output.append(item)
            return
        message = _root(item)
        if getattr(message, "method", None) is not None or not hasattr(message, "id"):
            return  # a request or notification from the server
        answer_id = "null" if message.id is None else str(message.id)
        if answer_id in seen.sent_ids:
            seen.answers += 1
            return
        seen.answers_at_oddity = seen.answers
        if len(seen.stray_ids) < MAX_NOTED:
            seen.stray_ids.append(answer_id)


class WatchedWrite(_Watched):
    """The write stream: notes the id and method of every request sent."""

    async def send(self, item: Any) -> None:
        message = _root(item)
        method = getattr(message, "method", None)
        if method is not None and getattr(message, "id", None) is not None:
            self._seen.sent_ids.add(str(message.id))
            self._seen.method = method
        await self._inner.send(item)
