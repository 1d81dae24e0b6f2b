"""The capture server's ASGI app (Starlette): routes, body limits, errors, and the record of each request.

``capture_app(settings)`` answers the model endpoints agents use::

    POST /v1/chat/completions        OpenAI Chat Completions   (stream or not)
    POST /v1/responses               OpenAI Responses          (stream or not)
    POST /v1/messages                Anthropic Messages        (stream or not; ?beta=true too)
    POST /v1/messages/count_tokens   Anthropic token count
    GET  /v1/models[/ID]             model listing (Anthropic's shape when anthropic-version is sent)
    POST /v1beta/models/M:generateContent        Gemini API (also :streamGenerateContent, ?alt=sse
    POST /v1beta/models/M:countTokens            or a JSON array; /v1 and /v1alpha too)

Each model request is answered by ``scripted`` (``--replies``) or forwarded by ``proxy``
(``--upstream``), and one ``toolscope.capture/1`` line is written when its reply ends
(also when the client disconnects or the server stops mid-stream). A body that is not a
JSON object is a 400, over ``MAX_BODY_BYTES`` a 413, an unknown path a 404, a web page's
request a 403 (``browser_guard``), each in the provider's error shape.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..schemas.capture import ErrorKind
from .browser_guard import BrowserGuard
from .replies import ReplyScript
from .request_body import BadRequest, read_head
from .wire_errors import MAX_BODY_BYTES, ErrorShape, error_body, error_shape
from .wire_gemini import ACTIONS, API_VERSIONS, parse_method
from .writer import CaptureWriter, error_record, now_iso

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
    allowed_origins: tuple[str, ...] = ()
    """``--allow-origin``: the web pages (``Origin`` values, lowercase) whose requests are answered."""


def error_response(path: str, status: int, message: str, shape: ErrorShape | None = None) -> Response:
    body = error_body(error_shape(path) if shape is None else shape, status, message)
    return Response(body, status_code=status, media_type="application/json")


def _client_shape(request: Request) -> ErrorShape:
    # An unknown path: the client's own headers say whose SDK it is.
    if "anthropic-version" in request.headers:
        return "anthropic"
    if "x-goog-api-key" in request.headers or "x-goog-api-client" in request.headers:
        return "gemini"
    return error_shape(request.url.path)


async def read_body(request: Request) -> bytes:
    """The request body, at most ``MAX_BODY_BYTES`` (a 413 beyond, before reading it all)."""
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > MAX_BODY_BYTES:
        raise BadRequest(
            413, f"request body is {int(declared):,} bytes; the limit is {MAX_BODY_BYTES:,} bytes", "body_too_large"
        )
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY_BYTES:
            raise BadRequest(413, f"request body is over the limit of {MAX_BODY_BYTES:,} bytes", "body_too_large")
        chunks.append(chunk)
    return b"".join(chunks)


def shown_path(path: str) -> str:
    """A request path as recorded and quoted: at most 200 characters (a client's path is its own text)."""
    return path if len(path) <= 200 else path[:200] + "…"


def warm_up() -> None:
    """Import the wire modules and the SDK types they build on (seconds on a busy machine)."""
    from anthropic.types import ModelInfo  # noqa: F401 - models_listing's
    from openai.types import Model  # noqa: F401

    from . import scripted, wire_errors

    wire_errors.error_body("anthropic", 404, "warm-up")
    wire_errors.error_body("openai", 404, "warm-up")
    del scripted


def capture_app(settings: CaptureSettings) -> ASGIApp:
    """The ASGI app of one capture run (the wire modules load on first use, or by ``warm_up``)."""
    proxy = None
    if settings.upstream:
        from .proxy import Proxy

        proxy = Proxy(settings)

    def refused(request: Request, protocol: str | None, status: int, kind: ErrorKind, message: str) -> None:
        # A refused request is recorded too (``error``): the user debugging a client sees what it sent wrong.
        if not settings.record:
            return
        settings.writer.write(
            error_record(
                index=settings.writer.next_index(),
                received_at=now_iso(),
                protocol=protocol,
                path=shown_path(request.url.path),
                mode="proxy" if proxy is not None else "scripted",
                method=request.method[:20],
                user_agent=request.headers.get("user-agent"),
                status=status,
                kind=kind,
                message=message,
                started=time.perf_counter(),
            )
        )

    async def model_request(request: Request) -> Response:
        return await handle(request, PROTOCOLS[request.url.path], None)

    async def gemini_request(request: Request) -> Response:
        method = parse_method(request.path_params["rest"])
        if method is None:
            return await not_found(request, None)
        model, action = method
        # The model and streaming are in the path, not the body: they override the body's facts.
        facts = {"model": model, "stream": action == "streamGenerateContent"}
        return await handle(request, ACTIONS[action], facts)

    async def handle(request: Request, protocol: str, facts: dict[str, Any] | None) -> Response:
        path = request.url.path
        try:
            raw = await read_body(request)
            if proxy is not None:
                return await proxy.forward(request, protocol, raw, facts)
            from .scripted import answer

            return answer(settings, request, protocol, raw, read_head(raw), facts)
        except BadRequest as exc:
            refused(request, protocol, exc.status, exc.kind, exc.message)
            return error_response(path, exc.status, exc.message)
        except ClientDisconnect:
            refused(request, protocol, 499, "client_disconnected", "the client disconnected while sending the body")
            return Response(status_code=499)

    async def models(request: Request) -> Response:
        if proxy is not None:
            return await proxy.forward(request, None, b"")
        from .scripted import models_listing

        return models_listing(request)

    async def not_found(request: Request, exc: Exception | None) -> Response:
        path = request.url.path
        message = f"no endpoint {request.method} {shown_path(path)!r} on the toolscope capture server"
        refused(request, None, 404, "unknown_path", message)
        return error_response(path, 404, message, _client_shape(request))

    async def wrong_method(request: Request, exc: Exception) -> Response:
        path = request.url.path
        message = f"{request.method} is not supported on {shown_path(path)}"
        refused(request, PROTOCOLS.get(path), 405, "method_not_allowed", message)
        return error_response(path, 405, message)

    def from_browser(request: Request, reason: str) -> Response:
        path = request.url.path
        refused(request, PROTOCOLS.get(path), 403, "browser_origin", reason)
        return error_response(path, 403, reason)

    routes = [Route(path, model_request, methods=["POST"]) for path in PROTOCOLS]
    routes += [
        Route("/v1/models", models, methods=["GET"]),
        Route("/v1/models/{model_id:path}", models, methods=["GET"]),
    ]
    routes += [Route(f"/{version}/models/{{rest:path}}", gemini_request, methods=["POST"]) for version in API_VERSIONS]
    middleware = [Middleware(BrowserGuard, allowed=settings.allowed_origins, refuse=from_browser)]
    if settings.allowed_origins:
        middleware.append(
            Middleware(
                CORSMiddleware,
                allow_origins=list(settings.allowed_origins),
                allow_methods=["GET", "POST"],
                allow_headers=["*"],
            )
        )
    return ended_cleanly(
        Starlette(routes=routes, middleware=middleware, exception_handlers={404: not_found, 405: wrong_method})
    )


STOPPED_MESSAGE = "the toolscope capture server stopped before this reply was complete"


def ended_cleanly(app: ASGIApp) -> ASGIApp:
    """``app``, with a request the server cuts off at shutdown ended cleanly, never a traceback.

    At shutdown uvicorn gives in-flight requests ``timeout_graceful_shutdown`` seconds and then
    cancels them, and logs the ``CancelledError`` of each as "Exception in ASGI application".
    Here a cut request gets a 503 in the provider's shape when nothing was sent yet, else the
    end of its body; its record was written by its handler (``reply.error`` says it was cut).
    """

    async def wrapped(scope: Scope, receive: Receive, send: Send) -> None:
        sent = {"started": False, "ended": False}

        async def tracked(message: Message) -> None:
            if message["type"] == "http.response.start":
                sent["started"] = True
            elif message["type"] == "http.response.body" and not message.get("more_body", False):
                sent["ended"] = True
            await send(message)

        try:
            await app(scope, receive, tracked)
        except asyncio.CancelledError:
            if scope["type"] != "http" or sent["ended"]:
                raise
            if sent["started"]:
                await send({"type": "http.response.body", "body": b"", "more_body": False})
            else:
                await error_response(scope["path"], 503, STOPPED_MESSAGE)(scope, receive, send)

    return wrapped
