"""A cap on what an HTTP MCP server may send: every response body is counted as it arrives.

The SDK reads a JSON answer whole (``response.aread()``), so a server whose body never ends
was buffered at the speed of the network until the timeout (hundreds of MB a second). The
client discovery builds gets a transport that counts each body's bytes and stops it past
``max_body_bytes()`` (64 MiB, or ``TOOLSCOPE_MCP_MAX_BODY_MIB``). The error is an
``httpx`` ``StreamError``, which the SDK already turns into a failed request, so the
attempt ends at once; ``BodyLimit.tripped`` tells the reason what happened.

mcp 2.x speaks httpx2, mcp 1.x httpx; both have this transport API.
"""

from __future__ import annotations

import math
import os
from collections.abc import AsyncIterator, Callable
from typing import Any

from ..model.errors import InputError

ENV = "TOOLSCOPE_MCP_MAX_BODY_MIB"
DEFAULT_MIB = 64


def max_body_bytes() -> int:
    """The cap in bytes: ``TOOLSCOPE_MCP_MAX_BODY_MIB`` (a positive number) or 64 MiB."""
    text = os.environ.get(ENV, "").strip()
    if not text:
        return DEFAULT_MIB * 1024 * 1024
    try:
        mib = float(text)
    except ValueError:
        mib = math.nan
    if not (math.isfinite(mib) and mib > 0):
        raise InputError(ENV, f"expected a positive number of MiB, like 64 or 0.5 (got {text!r})")
    return max(1, int(mib * 1024 * 1024))


def httpx_module() -> Any:
    try:
        import httpx2 as httpx
    except ImportError:  # pragma: no cover - mcp 1.x (the AgentScope 2.0.6 lane)
        import httpx  # type: ignore[no-redef]
    return httpx


def _mib(size: int) -> str:
    return f"{size / (1024 * 1024):g} MiB"


class BodyLimit:
    """The cap for one server, and whether it was hit."""

    def __init__(self, limit: int, phase: Callable[[], str] = lambda: "") -> None:
        self.limit = limit
        self._phase = phase
        self.tripped: str | None = None
        """Set when a body first went past the cap: ``the server's answer is larger than 64 MiB (…)``."""
        self.tripped_in = ""
        """What discovery was waiting for when it did (the SDK retries; the first one counts)."""

    def trip(self) -> str:
        if self.tripped is None:
            self.tripped, self.tripped_in = self.message(), self._phase()
        return self.message()

    def message(self) -> str:
        return f"the server's answer is larger than {_mib(self.limit)} (the cap; {ENV} sets it)"


def capped_client(headers: dict[str, str], limit: BodyLimit) -> Any:
    """An ``AsyncClient`` with the SDK's default timeouts (30 s, reading 300 s) whose bodies are capped."""
    httpx = httpx_module()

    class CountingStream(httpx.AsyncByteStream):  # type: ignore[misc,name-defined]
        def __init__(self, inner: Any) -> None:
            self._inner = inner

        async def __aiter__(self) -> AsyncIterator[bytes]:
            seen = 0
            async for chunk in self._inner:
                seen += len(chunk)
                if seen > limit.limit:
                    raise httpx.StreamError(limit.trip())
                yield chunk

        async def aclose(self) -> None:
            await self._inner.aclose()

    class CappedTransport(httpx.AsyncBaseTransport):  # type: ignore[misc,name-defined]
        def __init__(self) -> None:
            self._inner = httpx.AsyncHTTPTransport()

        async def handle_async_request(self, request: Any) -> Any:
            response = await self._inner.handle_async_request(request)
            response.stream = CountingStream(response.stream)
            return response

        async def aclose(self) -> None:
            await self._inner.aclose()

    return httpx.AsyncClient(headers=headers, timeout=httpx.Timeout(30.0, read=300.0), transport=CappedTransport())
