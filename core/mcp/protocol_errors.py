"""How a server's wrong answers are told apart from crashes and timeouts during discovery."""

from __future__ import annotations

from typing import Any


class ProtocolViolation(Exception):
    """The server answered, but not as MCP says (a pagination loop, unparsable output)."""


def first_problem(exc: Any) -> str:
    """The first problem of a pydantic ValidationError as ``where: what`` (and how many more)."""
    errors = exc.errors(include_url=False)
    if not errors:
        return str(exc)
    first = errors[0]
    where = ".".join(str(part) for part in first.get("loc", ())) or "result"
    more = f"; {len(errors) - 1} more" if len(errors) > 1 else ""
    return f"{where}: {first.get('msg', 'invalid')}{more}"


def bad_output_reason(phase: str, items: list[Exception], tail: str) -> str:
    """The failure reason for a server whose stdout held lines that are not JSON-RPC."""
    text = str(items[0])
    what = "bytes that are not UTF-8" if "\ufffd" in text else "a line that is not a JSON-RPC message"
    suffix = f" (stderr: {tail})" if tail else ""
    return f"{phase} failed: the server wrote {what} on stdout{suffix}"


class WatchedStream:
    """The transport's read stream, noting the unparsable lines the SDK passes on as exceptions
    (the session itself only logs them and waits on; the watchdog ends the attempt instead)."""

    def __init__(self, inner: Any, sink: list[Exception]) -> None:
        self._inner = inner
        self._sink = sink

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    async def __aenter__(self) -> WatchedStream:
        await self._inner.__aenter__()
        return self

    async def __aexit__(self, *exc: Any) -> Any:
        return await self._inner.__aexit__(*exc)

    def __aiter__(self) -> WatchedStream:
        return self

    async def __anext__(self) -> Any:
        item = await self._inner.__anext__()
        if isinstance(item, Exception):
            self._sink.append(item)
        return item

    async def receive(self) -> Any:
        item = await self._inner.receive()
        if isinstance(item, Exception):
            self._sink.append(item)
        return item
