"""The capture server's ASGI app (Starlette): routes, body limits, errors, and the record of each request.

``capture_app(settings)`` answers the model endpoints agents use::

    POST /v1/chat/completions        OpenAI Chat Completions   (stream or not)
    POST /v1/responses               OpenAI Responses          (stream or not)
    POST /v1/messages                Anthropic Messages        (stream or not; ?beta=true too)
    POST /v1/messages/count_tokens   Anthropic token count
    GET  /v1/models[/ID]             model listing (Anthropic's shape when anthropic-version is sent)

Each model request is answered by ``scripted`` (``--replies``) or forwarded by ``proxy``
(``--upstream``), and one ``toolscope.capture/1`` line is written when its reply ends
(also when the client disconnects or the server stops mid-stream). A body that is not a
JSON object is a 400, over ``MAX_BODY_BYTES`` a 413, an unknown path a 404, each in the
provider's error shape.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import orjson
from starlette.applications import Starlette
from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response
from starlette.routing import Route

from .replies import ReplyScript
from .wire_errors import MAX_BODY_BYTES, error_body, is_anthropic_path
from .writer import CaptureWriter

PROTOCOLS = {
    "/v1/chat/completions": "openai-chat",
    "/v1/responses": "openai-responses",
    "/v1/messages": "anthropic-messages",
    "/v1/messages/count_tokens": "anthropic-count-tokens",
}

MODEL_NAME = "toolscope-capture"
"""The model id ``GET /v1/models`` lists and replies carry when a request names none."""


@dataclass
class CaptureSettings:
    """How the server answers and what it records."""

    writer: CaptureWriter
    script: ReplyScript = field(default_factory=ReplyScript)
    upstream: str | None = None
    """``--upstream``: forward every model request there (proxy mode)."""
    keep_messages: bool = False
    record: bool = True
    """False: answer without extracting or writing anything (the benchmark's baseline)."""


class BadRequest(Exception):
    """A request the server refuses: status and message, answered in the provider's shape."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def error_response(path: str, status: int, message: str, anthropic: bool | None = None) -> Response:
    shape = is_anthropic_path(path) if anthropic is None else anthropic
    return Response(error_body(shape, status, message), status_code=status, media_type="application/json")


async def read_body(request: Request) -> bytes:
    """The request body, at most ``MAX_BODY_BYTES`` (a 413 beyond, before reading it all)."""
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > MAX_BODY_BYTES:
        raise BadRequest(413, f"request body is {int(declared):,} bytes; the limit is {MAX_BODY_BYTES:,} bytes")
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY_BYTES:
            raise BadRequest(413, f"request body is over the limit of {MAX_BODY_BYTES:,} bytes")
        chunks.append(chunk)
    return b"".join(chunks)


def parse_body(raw: bytes) -> dict[str, Any]:
    """The JSON object of a request body; anything else is a 400 saying what is wrong."""
    if not raw.strip():
        raise BadRequest(400, "request body is empty; expected a JSON object")
    try:
        body = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        body = _slow_parse(raw, exc)
    if not isinstance(body, dict):
        raise BadRequest(400, f"request body is a JSON {type(body).__name__}; expected a JSON object")
    return body


def _slow_parse(raw: bytes, first: orjson.JSONDecodeError) -> Any:
    # orjson refuses integers beyond 64 bits that JSON (and the json module) accept.
    import json

    try:
        return json.loads(raw)
    except (ValueError, RecursionError):
        raise BadRequest(400, f"malformed JSON in the request body: {first}") from None


def warm_up() -> None:
    """Import the wire modules and the SDK types they build on (seconds on a busy machine)."""
    from anthropic.types import ModelInfo  # noqa: F401 - models_listing's
    from openai.types import Model  # noqa: F401

    from . import scripted, wire_errors

    wire_errors.error_body(True, 404, "warm-up")
    wire_errors.error_body(False, 404, "warm-up")
    del scripted


def capture_app(settings: CaptureSettings) -> Starlette:
    """The ASGI app of one capture run (the wire modules load on first use, or by ``warm_up``)."""
    proxy = None
    if settings.upstream:
        from .proxy import Proxy

        proxy = Proxy(settings)

    async def model_request(request: Request) -> Response:
        path = request.url.path
        protocol = PROTOCOLS[path]
        try:
            raw = await read_body(request)
            if proxy is not None:
                return await proxy.forward(request, protocol, raw)
            from .scripted import answer

            return answer(settings, request, protocol, parse_body(raw))
        except BadRequest as exc:
            return error_response(path, exc.status, exc.message)
        except ClientDisconnect:
            return Response(status_code=499)

    async def models(request: Request) -> Response:
        if proxy is not None:
            return await proxy.forward(request, None, b"")
        from .scripted import models_listing

        return models_listing(request)

    async def not_found(request: Request, exc: Exception) -> Response:
        path = request.url.path
        anthropic = "anthropic-version" in request.headers or is_anthropic_path(path)
        shown = path if len(path) <= 200 else path[:200] + "…"
        return error_response(
            path, 404, f"no endpoint {request.method} {shown!r} on the toolscope capture server", anthropic
        )

    async def wrong_method(request: Request, exc: Exception) -> Response:
        return error_response(request.url.path, 405, f"{request.method} is not supported on {request.url.path}")

    routes = [Route(path, model_request, methods=["POST"]) for path in PROTOCOLS]
    routes += [
        Route("/v1/models", models, methods=["GET"]),
        Route("/v1/models/{model_id:path}", models, methods=["GET"]),
    ]
    return Starlette(routes=routes, exception_handlers={404: not_found, 405: wrong_method})
