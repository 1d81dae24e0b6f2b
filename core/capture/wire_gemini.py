"""Gemini API replies (``POST /v1beta/models/{model}:{action}``), as the REST API writes them.

``generateContent`` answers one ``GenerateContentResponse``; ``streamGenerateContent`` with
``alt=sse`` answers it as ``data: {...}`` events (``\\r\\n\\r\\n`` after each, as the API
sends them), without ``alt=sse`` as a JSON array of them; ``countTokens`` answers
``{"totalTokens": N}``. A reply is one candidate: a text part, or one ``functionCall``
part per tool call (``{name, args}``, ``args`` an object), ``finishReason: STOP`` (the API
stops a function-calling turn with STOP too) and ``usageMetadata``. Keys are the REST
API's camelCase; there is no SDK dependency (``google-genai`` is only in the test extra).
See ``shared/reference/gemini-cli.md`` §1 for what Gemini CLI sends and reads.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import orjson

from .reply import Reply, estimate_tokens

API_VERSIONS = ("v1beta", "v1", "v1alpha")
"""The path prefixes the Gemini API answers on (the SDKs and Gemini CLI send ``v1beta``)."""
ACTIONS = {
    "generateContent": "gemini-generate",
    "streamGenerateContent": "gemini-generate",
    "countTokens": "gemini-count-tokens",
}
"""The model methods answered, and the protocol each is recorded under."""
STOP = "STOP"


def parse_method(rest: str) -> tuple[str, str] | None:
    """``(model, action)`` of the path after ``/models/`` (``gemini-2.5-flash:generateContent``), else None."""
    model, colon, action = rest.rpartition(":")
    if not colon or not model or action not in ACTIONS:
        return None
    return model, action


def _parts(reply: Reply) -> list[dict[str, Any]]:
    if reply.tool_calls:
        return [{"functionCall": {"name": c.name, "args": c.arguments_object()}} for c in reply.tool_calls]
    return [{"text": reply.text}]


def _usage(prompt_tokens: int, reply: Reply) -> dict[str, int]:
    output = estimate_tokens(len(reply.text) + sum(len(c.arguments_json()) for c in reply.tool_calls))
    return {
        "promptTokenCount": prompt_tokens,
        "candidatesTokenCount": output,
        "totalTokenCount": prompt_tokens + output,
    }


def _response(model: str, reply: Reply, index: int, prompt_tokens: int) -> dict[str, Any]:
    return {
        "candidates": [
            {"content": {"parts": _parts(reply), "role": "model"}, "finishReason": STOP, "index": 0},
        ],
        "usageMetadata": _usage(prompt_tokens, reply),
        "modelVersion": model,
        "responseId": f"ts{index:05d}",
    }


def response_json(model: str, reply: Reply, index: int, prompt_tokens: int) -> bytes:
    """The whole ``GenerateContentResponse`` body (``generateContent``)."""
    return orjson.dumps(_response(model, reply, index, prompt_tokens))


def response_array(model: str, reply: Reply, index: int, prompt_tokens: int) -> bytes:
    """``streamGenerateContent`` without ``alt=sse``: the chunks as one JSON array."""
    return orjson.dumps([_response(model, reply, index, prompt_tokens)])


def response_events(model: str, reply: Reply, index: int, prompt_tokens: int) -> Iterator[bytes]:
    """``streamGenerateContent?alt=sse``: one event with the whole candidate (what the API sent
    for a short answer, ``shared/reference/gemini-cli.md`` §1)."""
    yield b"data: " + orjson.dumps(_response(model, reply, index, prompt_tokens)) + b"\r\n\r\n"


def count_tokens_json(total_tokens: int) -> bytes:
    """The ``countTokens`` answer: the estimate over the request's JSON."""
    return orjson.dumps({"totalTokens": total_tokens})
