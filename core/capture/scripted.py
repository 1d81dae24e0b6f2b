"""Answering model requests from the script (``--replies``), and recording each one.

The next scripted reply goes to each model request (count_tokens takes none), encoded by
the protocol's wire module; a streamed reply's record is written when the stream ends,
or with ``error`` set when the client went away or the server stopped first.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse

from . import wire_anthropic, wire_chat, wire_gemini, wire_responses
from .app import MODEL_NAME, CaptureSettings
from .reply import DEFAULT_REPLY, Reply, estimate_tokens
from .request_decode import Head
from .writer import now_iso, reply_record

CUT_OFF = "the reply was cut off: the client disconnected or the server stopped"
SSE_HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}


_COUNTS = {
    "anthropic-count-tokens": wire_anthropic.count_tokens_json,
    "gemini-count-tokens": wire_gemini.count_tokens_json,
}
"""The token-count endpoints: answered with the estimate, no scripted reply taken."""


def _encode(protocol: str, model: str, reply: Reply, index: int, prompt: int, streamed: bool) -> bytes:
    if protocol == "openai-chat":
        return wire_chat.completion_json(model, reply, index, prompt)
    if protocol == "openai-responses":
        return wire_responses.response_json(model, reply, index, prompt)
    if protocol == "gemini-generate":
        # streamGenerateContent without alt=sse: the chunks as one JSON array.
        encode = wire_gemini.response_array if streamed else wire_gemini.response_json
        return encode(model, reply, index, prompt)
    return wire_anthropic.message_json(model, reply, index, prompt)


def _events(protocol: str, model: str, reply: Reply, index: int, prompt: int, head: Head) -> Iterator[bytes]:
    if protocol == "openai-chat":
        return wire_chat.completion_events(model, reply, index, prompt, head.stream_options)
    if protocol == "openai-responses":
        return wire_responses.response_events(model, reply, index, prompt)
    if protocol == "gemini-generate":
        return wire_gemini.response_events(model, reply, index, prompt)
    return wire_anthropic.message_events(model, reply, index, prompt)


def _stop_reason(protocol: str, reply: Reply) -> str | None:
    if protocol in _COUNTS:
        return None
    if protocol == "gemini-generate":
        return wire_gemini.STOP
    if protocol == "openai-responses":
        return "completed"
    if protocol == "openai-chat":
        return "tool_calls" if reply.tool_calls else "stop"
    return "tool_use" if reply.tool_calls else "end_turn"


class _Recorder:
    """Writes one request's record once its reply is done (at most once).

    The body is read for its tool facts only then, after the reply's last byte went out
    (``after_reply``): the client is not kept waiting while its request is recorded.
    """

    def __init__(
        self, settings: CaptureSettings, request: Request, protocol: str, raw: bytes, facts: dict[str, Any] | None
    ) -> None:
        self.facts = facts
        self.settings = settings
        self.started = time.perf_counter()
        self.received_at = now_iso()
        self.index = settings.writer.next_index()
        self.request = request
        self.protocol = protocol
        self.raw = raw
        self.done = not settings.record

    def after_reply(self, reply: Reply, status: int) -> None:
        """Write the record once the reply now being sent is out (the event loop's next turn).

        The reply is written to the socket without the handler yielding to the loop (small
        replies never wait on flow control), so a callback queued now runs after it.
        """
        ended = time.perf_counter()
        asyncio.get_running_loop().call_soon(self.write, reply, status, None, ended)

    def write(self, reply: Reply, status: int, error: str | None = None, ended: float | None = None) -> None:
        if self.done:
            return
        self.done = True
        ended = time.perf_counter() if ended is None else ended
        calls = [{"name": c.name, "namespace": c.namespace, "arguments": c.arguments} for c in reply.tool_calls]
        source = reply.source if error is None else "error"
        pending = {
            "index": self.index,
            "received_at": self.received_at,
            "protocol": self.protocol,
            "path": self.request.url.path,
            "mode": "scripted",
            "user_agent": self.request.headers.get("user-agent"),
            "reply": reply_record(
                source, status, calls, len(reply.text.encode()), _stop_reason(self.protocol, reply), error
            ),
            "started": self.started,
            "ended": ended,
            "job": {
                "protocol": self.protocol,
                "keep": self.settings.keep_messages,
                "reply_text": reply.text,
                "check": False,
                "method": "POST",
                "facts": self.facts,
            },
        }
        # The body is read for its facts by the record worker (``record_job``), not here.
        self.settings.writer.submit(pending, self.raw)


def answer(
    settings: CaptureSettings,
    request: Request,
    protocol: str,
    raw: bytes,
    head: Head,
    facts: dict[str, Any] | None = None,
) -> Response:
    """The reply to one model request (recorded); ``head``: its body's fields the reply needs;
    ``facts``: the model and streaming when the path says them (Gemini), over the body's."""
    recorder = _Recorder(settings, request, protocol, raw, facts)
    # About four bytes of request JSON per token: what usage and count_tokens report.
    prompt = estimate_tokens(int(request.headers.get("content-length") or 0) or 4)
    if protocol in _COUNTS:
        recorder.write(Reply(text="", source="default"), 200)
        return Response(_COUNTS[protocol](prompt), media_type="application/json")
    if facts is not None:
        head = Head(facts["model"], facts["stream"], None)
    reply = settings.script.next()
    model = head.model if isinstance(head.model, str) else MODEL_NAME
    if head.stream is not True or (protocol == "gemini-generate" and request.query_params.get("alt") != "sse"):
        data = _encode(protocol, model, reply, recorder.index, prompt, head.stream is True)
        recorder.after_reply(reply, 200)
        return Response(data, media_type="application/json")
    return StreamingResponse(
        _stream(recorder, _events(protocol, model, reply, recorder.index, prompt, head), reply),
        media_type="text/event-stream",
        headers=SSE_HEADERS,
    )


async def _stream(recorder: _Recorder, events: Iterator[bytes], reply: Reply) -> AsyncIterator[bytes]:
    # A client that goes away (or a server that stops) closes this generator at a yield.
    complete = False
    try:
        for event in events:
            yield event
        complete = True
    finally:
        if complete:
            recorder.after_reply(reply, 200)
        else:
            recorder.write(reply, 200, CUT_OFF)


def models_listing(request: Request) -> Response:
    """``GET /v1/models`` (and ``/v1/models/ID``) in OpenAI's or Anthropic's shape."""
    from anthropic.types import ModelInfo
    from openai.types import Model

    wanted = request.path_params.get("model_id")
    name = wanted or MODEL_NAME
    if "anthropic-version" in request.headers:
        info = ModelInfo(
            id=name,
            type="model",
            display_name=name,
            created_at=datetime(2026, 1, 1, tzinfo=UTC),
            lifecycle="active",
        ).model_dump(mode="json", exclude_unset=True)
        if wanted:
            return JSONResponse(info)
        return JSONResponse({"data": [info], "has_more": False, "first_id": name, "last_id": name})
    model = Model(id=name, object="model", created=1767225600, owned_by="toolscope").model_dump(
        mode="json", exclude_unset=True
    )
    return JSONResponse(model if wanted else {"object": "list", "data": [model]})


__all__ = ["DEFAULT_REPLY", "answer", "models_listing"]
