"""Errors in each provider's own shape, so the client's SDK raises its usual exception class.

OpenAI: ``{"error": {"message", "type", "param", "code"}}`` (``openai.types.shared.ErrorObject``).
Anthropic: ``{"type": "error", "error": {"type", "message"}}`` (``anthropic.types.ErrorResponse``);
its documented 413 type is ``request_too_large``, a type the SDK's literal list lacks, so that
object is built unvalidated (``model_construct``) with the same fields.
Gemini: ``{"error": {"code", "message", "status"}}`` (``google.rpc.Status`` as JSON; the
``google-genai`` SDK raises ``ClientError``/``ServerError`` from it).
"""

from __future__ import annotations

from typing import Literal

import orjson

ErrorShape = Literal["openai", "anthropic", "gemini"]

MAX_BODY_BYTES = 32 * 1024 * 1024
"""The largest request body read: Anthropic documents 32 MB for the Messages API (a 413 above it)."""

_ANTHROPIC_TYPES = {
    400: "invalid_request_error",
    403: "permission_error",
    404: "not_found_error",
    413: "request_too_large",
    502: "api_error",
}
_OPENAI_CODES = {
    403: "browser_origin_refused",
    404: "unknown_url",
    413: "request_too_large",
    502: "upstream_unreachable",
}


_GEMINI_STATUSES = {
    400: "INVALID_ARGUMENT",
    403: "PERMISSION_DENIED",
    404: "NOT_FOUND",
    405: "UNIMPLEMENTED",
    413: "INVALID_ARGUMENT",
    499: "CANCELLED",
    502: "UNAVAILABLE",
    503: "UNAVAILABLE",
}


def is_anthropic_path(path: str) -> bool:
    """Anthropic's endpoints: ``/v1/messages`` and below."""
    return path.startswith("/v1/messages") or path.startswith("/v1/complete")


def is_gemini_path(path: str) -> bool:
    """The Gemini API's model endpoints: ``/v1beta/…`` (and ``/v1alpha``), or ``/v1/models/…:method``."""
    return path.startswith(("/v1beta/", "/v1alpha/")) or (path.startswith("/v1/models/") and ":" in path)


def error_shape(path: str) -> ErrorShape:
    """Whose error shape a request to ``path`` is answered in (anything unknown: OpenAI's)."""
    if is_anthropic_path(path):
        return "anthropic"
    return "gemini" if is_gemini_path(path) else "openai"


def error_body(shape: ErrorShape, status: int, message: str) -> bytes:
    """The JSON error body of ``status`` in the provider's shape."""
    if shape == "gemini":
        return orjson.dumps(
            {"error": {"code": status, "message": message, "status": _GEMINI_STATUSES.get(status, "INTERNAL")}}
        )
    # Imported here: the SDKs take seconds to import on a busy machine, and a command that
    # stops at bad input (or only listens) should not wait for them.
    if shape == "anthropic":
        from anthropic.types import ErrorResponse as AnthropicErrorResponse
        from anthropic.types import InvalidRequestErrorObject, NotFoundErrorObject, PermissionErrorObject
        from anthropic.types.shared import APIErrorObject

        kind = _ANTHROPIC_TYPES.get(status, "api_error")
        error: object
        if kind == "invalid_request_error":
            error = InvalidRequestErrorObject(type="invalid_request_error", message=message)
        elif kind == "not_found_error":
            error = NotFoundErrorObject(type="not_found_error", message=message)
        elif kind == "permission_error":
            error = PermissionErrorObject(type="permission_error", message=message)
        elif kind == "api_error":
            error = APIErrorObject(type="api_error", message=message)
        else:
            error = InvalidRequestErrorObject.model_construct(type=kind, message=message)  # type: ignore[arg-type]  # request_too_large
        response = AnthropicErrorResponse.model_construct(type="error", error=error)
        return response.model_dump_json(exclude_unset=True, warnings=False).encode()
    from openai.types.shared import ErrorObject

    kind = "invalid_request_error" if status < 500 else "server_error"
    obj = ErrorObject(message=message, type=kind, param=None, code=_OPENAI_CODES.get(status))
    return b'{"error":' + obj.model_dump_json(exclude_unset=True).encode() + b"}"
