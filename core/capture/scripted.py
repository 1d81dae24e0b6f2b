"""Answering model requests from the script (``--replies``), and recording each one.

The next scripted reply goes to each model request (count_tokens takes none), encoded by
the protocol's wire module; a streamed reply's record is written when the stream ends,
or with ``error`` set when the client went away or the server stopped first.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse

from . import wire_anthropic, wire_chat, wire_responses
from .app import MODEL_NAME, CaptureSettings
from .reply import DEFAULT_REPLY, Reply, estimate_tokens
from .request_facts import request_facts, system_and_messages
from .writer import now_iso, record, reply_record

CUT_OFF = "the reply was cut off: the client disconnected or the server stopped"
SSE_HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}


def _encode(protocol: str, model: str, reply: Reply, index: int, prompt: int, body: dict[str, Any]) -> bytes:
    if protocol == "openai-chat":
        return wire_chat.completion_json(model, reply, index, prompt)
    if protocol == "openai-responses":
        return wire_responses.response_json(model, reply, index, prompt)
    return wire_anthropic.message_json(model, reply, index, prompt)


def _events(protocol: str, model: str, reply: Reply, index: int, prompt: int, body: dict[str, Any]) -> Iterator[bytes]:
    if protocol == "openai-chat":
        return wire_chat.completion_events(model, reply, index, prompt, body)
    if protocol == "openai-responses":
        return wire_responses.response_events(model, reply, index, prompt)
    return wire_anthropic.message_events(model, reply, index, prompt)


def _stop_reason(protocol: str, reply: Reply) -> str | None:
    if protocol == "anthropic-count-tokens":
        return None
    if protocol == "openai-responses":
        return "completed"
    if protocol == "openai-chat":
        return "tool_calls" if reply.tool_calls else "stop"
    return "tool_use" if reply.tool_calls else "end_turn"


class _Recorder:
    """Writes one request's record once its reply is done (at most once)."""

    def __init__(self, settings: CaptureSettings, request: Request, protocol: str, body: dict[str, Any]) -> None:
        self.settings = settings
        self.started = time.perf_counter()
        self.received_at = now_iso()
        self.index = settings.writer.next_index()
        self.request = request
        self.protocol = protocol
        self.body = body
        self.facts = request_facts(protocol, body) if settings.record else None
        self.done = False

    def write(self, reply: Reply, status: int, error: str | None = None) -> None:
        if self.done or self.facts is None:
            return
        self.done = True
        calls = [{"name": c.name, "namespace": c.namespace, "arguments": c.arguments} for c in reply.tool_calls]
        kept = None
        if self.settings.keep_messages:
            system, messages = system_and_messages(self.protocol, self.body)
            kept = {"system": system, "messages": messages, "reply_text": reply.text}
        source = reply.source if error is None else "error"
        self.settings.writer.write(
            record(
                index=self.index,
                received_at=self.received_at,
                protocol=self.protocol,
                path=self.request.url.path,
                mode="scripted",
                user_agent=self.request.headers.get("user-agent"),
                facts=self.facts,
                reply=reply_record(
                    source, status, calls, len(reply.text.encode()), _stop_reason(self.protocol, reply), error
                ),
                started=self.started,
                kept=kept,
            )
        )


def answer(settings: CaptureSettings, request: Request, protocol: str, body: dict[str, Any]) -> Response:
    """The reply to one model request (recorded)."""
    recorder = _Recorder(settings, request, protocol, body)
    # About four bytes of request JSON per token: what usage and count_tokens report.
    prompt = estimate_tokens(int(request.headers.get("content-length") or 0) or 4)
    if protocol == "anthropic-count-tokens":
        recorder.write(Reply(text="", source="default"), 200)
        return Response(wire_anthropic.count_tokens_json(prompt), media_type="application/json")
    reply = settings.script.next()
    model = body.get("model") if isinstance(body.get("model"), str) else MODEL_NAME
    if body.get("stream") is not True:
        data = _encode(protocol, model, reply, recorder.index, prompt, body)
        recorder.write(reply, 200)
        return Response(data, media_type="application/json")
    return StreamingResponse(
        _stream(recorder, _events(protocol, model, reply, recorder.index, prompt, body), reply),
        media_type="text/event-stream",
        headers=SSE_HEADERS,
    )


async def _stream(recorder: _Recorder, events: Iterator[bytes], reply: Reply) -> AsyncIterator[bytes]:
    # A client that goes away (or a server that stops) closes this generator at a yield.
    error: str | None = CUT_OFF
    try:
        for event in events:
            yield event
        error = None
    finally:
        recorder.write(reply, 200, error)


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
