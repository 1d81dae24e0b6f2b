"""Proxy mode (``--upstream URL``): forward each request, stream the answer back unchanged, record both sides.

The request body and headers go to the upstream as received (the client's credentials
pass through and are never recorded: only the User-Agent is), except hop-by-hop headers
and ``Accept-Encoding`` (asked as ``identity`` so the reply can be read for its tool calls).
The reply's status, headers and bytes come back unchanged, chunk by chunk, while
``upstream_reply.ReplyObserver`` reads the tool calls; a reply the upstream compressed anyway
(``Content-Encoding: gzip``, ``br``, ``deflate``, ``zstd``) is relayed decoded, without that
header, as the identity encoding the request asked for. An unreachable upstream is a 502 in
the provider's error shape. ``--upstream`` is the provider's base URL; when it ends in
``/v1`` (or ``/v1beta``) the client's is not repeated, and its own query is sent with every
request. Its userinfo and query values are never written or shown (``upstream_url``), nor is
a client's ``key=`` query parameter (Gemini's API key), which is forwarded with the request.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import httpx
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse

from .app import STOPPED_MESSAGE, CaptureSettings, error_response
from .upstream_reply import ReplyObserver
from .upstream_url import MASK, MIN_SCRUB_CHARS, parse_upstream
from .writer import now_iso, reply_record

_HOP_BY_HOP = {
    "host",
    "content-length",
    "connection",
    "keep-alive",
    "transfer-encoding",
    "te",
    "trailer",
    "upgrade",
    "proxy-authorization",
    "proxy-connection",
    "accept-encoding",
}
_REPLY_DROPPED = {"content-length", "transfer-encoding", "connection", "keep-alive", "content-encoding"}
TIMEOUT = httpx.Timeout(connect=15.0, read=600.0, write=60.0, pool=30.0)
"""Model replies can take minutes (long generations); connecting may not."""


@dataclass(frozen=True)
class _Exchange:
    """One forwarded request, as its record needs it."""

    request: Request
    protocol: str | None
    index: int
    received_at: str
    started: float
    raw: bytes
    facts: dict[str, Any] | None


class Proxy:
    """Forwards requests of one capture run to ``settings.upstream``."""

    def __init__(self, settings: CaptureSettings) -> None:
        assert settings.upstream is not None
        self.settings = settings
        self.upstream = parse_upstream(settings.upstream)
        self._client: httpx.AsyncClient | None = None

    def _http(self) -> httpx.AsyncClient:
        # Created inside the server's event loop, on first use; trust_env=False: the user's
        # HTTP(S)_PROXY must not silently reroute what is being captured.
        if self._client is None:
            self._client = httpx.AsyncClient(
                timeout=TIMEOUT,
                follow_redirects=False,
                trust_env=False,
                limits=httpx.Limits(max_connections=100, max_keepalive_connections=20),
            )
        return self._client

    async def forward(
        self, request: Request, protocol: str | None, raw: bytes, facts: dict[str, Any] | None = None
    ) -> Response:
        """Forward one request; model requests (``protocol`` set) are recorded (``facts``: the model
        and streaming a Gemini path says, over the body's)."""
        index = self.settings.writer.next_index() if protocol else 0
        exchange = _Exchange(request, protocol, index, now_iso(), time.perf_counter(), raw, facts)
        # The body is read for its tool facts only after the reply is relayed (``_write``): the
        # client does not wait for it. A malformed body is forwarded as it came (the upstream
        # answers it its own way) and recorded with ``error``.
        headers = [(k, v) for k, v in request.headers.items() if k.lower() not in _HOP_BY_HOP]
        headers.append(("accept-encoding", "identity"))
        client = self._http()
        try:
            upstream = await client.send(
                client.build_request(
                    request.method,
                    self.upstream.target(request.url.path, request.url.query),
                    headers=headers,
                    content=raw,
                ),
                stream=True,
            )
        except asyncio.CancelledError:
            # The server stopped while the upstream had not answered (``app.ended_cleanly``).
            self._write(exchange, 503, ReplyObserver(None, False), STOPPED_MESSAGE)
            raise
        except httpx.HTTPError as exc:
            reason = self._scrub(request, f"{type(exc).__name__}: {exc}")
            message = f"the upstream {self.upstream.shown} could not be reached: {reason}"[:500]
            self._write(exchange, 502, ReplyObserver(None, False), message)
            return error_response(request.url.path, 502, message)
        streaming = upstream.headers.get("content-type", "").startswith("text/event-stream")
        observer = ReplyObserver(protocol, streaming, keep_text=self.settings.keep_messages)
        reply_headers = {k: v for k, v in upstream.headers.items() if k.lower() not in _REPLY_DROPPED}
        return StreamingResponse(
            self._relay(exchange, upstream, observer), status_code=upstream.status_code, headers=reply_headers
        )

    async def _relay(
        self, exchange: _Exchange, upstream: httpx.Response, observer: ReplyObserver
    ) -> AsyncIterator[bytes]:
        error: str | None = "the reply was cut off: the client disconnected or the server stopped"
        try:
            async for chunk in upstream.aiter_bytes():  # decoded: the header is dropped
                observer.feed(chunk)
                yield chunk
            error = None
        except httpx.HTTPError as exc:  # a broken gzip stream too (DecodingError)
            text = f"the upstream's reply broke off: {type(exc).__name__}: {exc}"
            error = self._scrub(exchange.request, text)[:500]
        finally:
            await upstream.aclose()
            if error is None:
                # After the last byte is out (the loop's next turn): the client does not wait
                # while its request is read for the record.
                asyncio.get_running_loop().call_soon(
                    self._write, exchange, upstream.status_code, observer, None, time.perf_counter()
                )
            else:
                self._write(exchange, upstream.status_code, observer, error)

    def _scrub(self, request: Request, text: str) -> str:
        """Error text without the upstream URL's secrets nor the client's ``key=`` (Gemini's API key in the query)."""
        text = self.upstream.scrub(text)
        for key in request.query_params.getlist("key"):
            if len(key) >= MIN_SCRUB_CHARS:
                text = text.replace(key, MASK).replace(quote(key, safe=""), MASK)
        return text

    def _write(
        self,
        exchange: _Exchange,
        status: int,
        observer: ReplyObserver,
        error: str | None,
        ended: float | None = None,
    ) -> None:
        if not self.settings.record or not exchange.protocol:
            return
        request = exchange.request
        calls = observer.finish()
        error = error or observer.error
        source = "upstream" if status < 500 or observer.protocol else "error"
        pending = {
            "index": exchange.index,
            "received_at": exchange.received_at,
            "protocol": exchange.protocol,
            "path": request.url.path,
            "mode": "proxy",
            "user_agent": request.headers.get("user-agent"),
            "reply": reply_record(source, status, calls, observer.text_bytes, observer.stop_reason, error),
            "started": exchange.started,
            "ended": time.perf_counter() if ended is None else ended,
            "job": {
                "protocol": exchange.protocol,
                "keep": self.settings.keep_messages,
                "reply_text": "".join(observer.text),
                # Forwarded unchecked: a malformed body is recorded with ``error`` (record_job).
                "check": True,
                "method": request.method[:20],
                "facts": exchange.facts,
            },
        }
        self.settings.writer.submit(pending, exchange.raw)

    async def close(self) -> None:
        if self._client is not None:
            await self._client.aclose()
