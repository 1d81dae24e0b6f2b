"""``toolscope capture --otlp URL|FILE``: the recorded requests as OpenTelemetry GenAI spans.

Each model request of the capture (refused requests and count_tokens calls left out) becomes
one ``chat {model}`` span (kind CLIENT) of one trace per run, with the GenAI attributes
``gen_ai.operation.name``, ``gen_ai.provider.name``, ``gen_ai.request.model``,
``gen_ai.tool.definitions`` (``[{"type", "name"}]`` in the order sent: the capture keeps no
schema) and, when the reply called tools, ``gen_ai.output.messages`` (``tool_call`` parts).
``toolscope.capture.index`` keeps the record's index. The export is one
``ExportTraceServiceRequest`` in OTLP JSON (ids in hex): written to a file, or POSTed to an
OTLP/HTTP endpoint (``/v1/traces`` added to a URL without a path) within a timeout.

Public API::

    export_document(records, version) -> dict
    is_otlp_url(target) -> bool
    write_export(document, target, timeout) -> str      (OtlpExportError: the endpoint failed)
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from datetime import datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import orjson

from ..schemas.capture import CaptureRecord
from .observed import MODEL_PROTOCOLS

__all__ = ["OtlpExportError", "export_document", "is_otlp_url", "write_export"]

EXPORT_TIMEOUT = 10.0
"""Seconds an OTLP/HTTP endpoint gets to take the export."""
_PROVIDERS = {
    "openai-chat": "openai",
    "openai-responses": "openai",
    "anthropic-messages": "anthropic",
    "gemini-generate": "gcp.gemini",
}
"""``gen_ai.provider.name`` per wire protocol (the GenAI conventions' well-known values)."""
_SPAN_KIND_CLIENT = 3


class OtlpExportError(Exception):
    """The endpoint did not take the export (unreachable, slow, or an error status)."""


def _string(key: str, value: str) -> dict[str, Any]:
    return {"key": key, "value": {"stringValue": value}}


def _nanos(received_at: str) -> int:
    moment = datetime.fromisoformat(received_at.replace("Z", "+00:00"))
    return int(moment.timestamp() * 1_000_000) * 1000


def _calls(record: CaptureRecord) -> list[dict[str, Any]]:
    parts = [{"type": "tool_call", "name": c.name, "arguments": c.arguments} for c in record.reply.tool_calls]
    return [{"role": "assistant", "parts": parts}] if parts else []


def _span(record: CaptureRecord, trace_id: str) -> dict[str, Any]:
    tools = [{"type": tool.type, "name": tool.name} for tool in record.tools]
    attributes = [
        _string("gen_ai.operation.name", "chat"),
        _string("gen_ai.provider.name", _PROVIDERS.get(record.protocol or "", "unknown")),
        {"key": "toolscope.capture.index", "value": {"intValue": str(record.index)}},
        _string("gen_ai.tool.definitions", orjson.dumps(tools).decode()),
    ]
    if record.model is not None:
        attributes.insert(2, _string("gen_ai.request.model", record.model))
    if calls := _calls(record):
        attributes.append(_string("gen_ai.output.messages", orjson.dumps(calls).decode()))
    start = _nanos(record.received_at)
    return {
        "traceId": trace_id,
        "spanId": os.urandom(8).hex(),
        "name": f"chat {record.model or ''}".strip(),
        "kind": _SPAN_KIND_CLIENT,
        "startTimeUnixNano": str(start),
        "endTimeUnixNano": str(start + int(record.duration_ms * 1_000_000)),
        "attributes": attributes,
        "status": {"code": 2 if record.reply.error else 0},
    }


def export_document(records: Iterable[CaptureRecord], version: str) -> dict[str, Any]:
    """The model requests of ``records`` as one ExportTraceServiceRequest (OTLP JSON)."""
    trace_id = os.urandom(16).hex()
    spans = [_span(r, trace_id) for r in records if r.error is None and r.protocol in MODEL_PROTOCOLS]
    return {
        "resourceSpans": [
            {
                "resource": {"attributes": [_string("service.name", "toolscope-capture")]},
                "scopeSpans": [{"scope": {"name": "toolscope", "version": version}, "spans": spans}],
            }
        ]
    }


def is_otlp_url(target: str) -> bool:
    """``--otlp`` names an OTLP/HTTP endpoint (http:// or https://), not a file."""
    return target.startswith(("http://", "https://"))


def endpoint(url: str) -> str:
    """The URL to POST to: ``/v1/traces`` added when the URL has no path."""
    parts = urlsplit(url)
    if parts.path in ("", "/"):
        parts = parts._replace(path="/v1/traces")
    return urlunsplit(parts)


def write_export(document: dict[str, Any], target: str, timeout: float = EXPORT_TIMEOUT) -> str:
    """Write the export to a file or POST it; where it went (for the summary line)."""
    payload = orjson.dumps(document)
    if not is_otlp_url(target):
        Path(target).write_bytes(payload + b"\n")
        return target
    import httpx

    url = endpoint(target)
    try:
        response = httpx.post(
            url, content=payload, headers={"Content-Type": "application/json"}, timeout=timeout, follow_redirects=False
        )
    except httpx.HTTPError as exc:
        raise OtlpExportError(f"{url}: {type(exc).__name__}: {exc}"[:500]) from None
    if response.status_code >= 300:
        raise OtlpExportError(f"{url} answered HTTP {response.status_code}: {response.text[:200]!r}")
    return url
