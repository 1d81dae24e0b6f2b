"""A request body's checks, apart from the server (the record worker runs them too): JSON object or a 400.

``read_head(raw)`` is what the scripted reply needs (model, stream, stream_options) from a
body that must be a JSON object; ``parse_body(raw)`` builds it whole. Anything else is a
``BadRequest`` whose ``kind`` is the record's ``error.kind``.
"""

from __future__ import annotations

from typing import Any

import orjson

from ..schemas.capture import ErrorKind
from .request_decode import Head, Unusual, decode_head

__all__ = ["BadRequest", "parse_body", "read_head"]


class BadRequest(Exception):
    """A request the server refuses: status, ``kind`` (the record's ``error.kind``) and message,
    answered in the provider's shape."""

    def __init__(self, status: int, message: str, kind: ErrorKind) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.kind = kind


def read_head(raw: bytes) -> Head:
    """What the reply needs from a body that must be a JSON object (``BadRequest`` 400 otherwise).

    The fast path validates the whole body without building it (``request_decode``); what
    it refuses is parsed the slow way, which either accepts it (integers beyond 64 bits,
    for one) or says exactly what is wrong.
    """
    try:
        return decode_head(raw)
    except RecursionError:
        raise _too_deep() from None
    except Unusual:
        body = parse_body(raw)
        return Head(body.get("model"), body.get("stream"), body.get("stream_options"))


def parse_body(raw: bytes) -> dict[str, Any]:
    """The JSON object of a request body; anything else is a 400 saying what is wrong."""
    if not raw.strip():
        raise BadRequest(400, "request body is empty; expected a JSON object", "empty_body")
    try:
        body = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        body = _slow_parse(raw, exc)
    if not isinstance(body, dict):
        raise BadRequest(400, f"request body is a JSON {type(body).__name__}; expected a JSON object", "not_an_object")
    return body


def _slow_parse(raw: bytes, first: orjson.JSONDecodeError) -> Any:
    # orjson refuses integers beyond 64 bits that JSON (and the json module) accept.
    import json

    try:
        return json.loads(raw)
    except RecursionError:
        raise _too_deep() from None
    except ValueError:
        raise BadRequest(400, f"malformed JSON in the request body: {first}", "malformed_json") from None


def _too_deep() -> BadRequest:
    # msgspec and the json module recurse per level: past Python's recursion limit, the body is refused.
    return BadRequest(400, "the request body is JSON nested too deeply to be read", "too_deep")
