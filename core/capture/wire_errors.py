"""Errors in each provider's own shape, so the client's SDK raises its usual exception class.

OpenAI: ``{"error": {"message", "type", "param", "code"}}`` (``openai.types.shared.ErrorObject``).
Anthropic: ``{"type": "error", "error": {"type", "message"}}`` (``anthropic.types.ErrorResponse``);
its documented 413 type is ``request_too_large``, a type the SDK's literal list lacks, so that
object is built unvalidated (``model_construct``) with the same fields.
"""

from __future__ import annotations

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


def is_anthropic_path(path: str) -> bool:
    """Anthropic's endpoints: ``/v1/messages`` and below (anything else answers as OpenAI)."""
    return path.startswith("/v1/messages") or path.startswith("/v1/complete")


def error_body(anthropic: bool, status: int, message: str) -> bytes:
    """The JSON error body of ``status`` in the provider's shape."""
    # Imported here: the SDKs take seconds to import on a busy machine, and a command that
    # stops at bad input (or only listens) should not wait for them.
    if anthropic:
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
