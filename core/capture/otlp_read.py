"""Reading OpenTelemetry traces in OTLP JSON: the spans, flat, with only the attributes toolscope reads.

The input is what a collector's ``file`` exporter writes (``ExportTraceServiceRequest`` as
JSON, ids in hex): one document, or JSON Lines with one export per line. The whole file is
parsed with orjson (bounded by ``MAX_INPUT_BYTES``; orjson gives up past 1,024 levels of
nesting and says where), then walked: ``resourceSpans[].scopeSpans[].spans[]``. Only the
attributes named in ``WANTED`` (exact keys) or starting with one of ``WANTED_PREFIXES`` are
kept; a string value over ``MAX_ATTRIBUTE_CHARS`` is dropped and counted (a megabyte prompt
is never kept). Spans over ``MAX_SPANS`` are counted, not kept; a span that is not an object,
or has no span id, is counted as skipped.

Public API::

    read_otlp(data, source) -> OtlpSpans   (InputError: not JSON, not an OTLP trace)
    looks_like_otlp(head) -> bool           (the first bytes of a file)
    Span(trace_id, span_id, parent_id, name, start_ns, attributes)
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import orjson

from ..model.errors import InputError, Problem

__all__ = ["MAX_SPANS", "OtlpSpans", "Span", "looks_like_otlp", "read_otlp"]

MAX_SPANS = 500_000
"""Spans kept from one input (a day of a busy agent is far fewer); the rest are counted."""
MAX_ATTRIBUTES = 2_000
"""Attributes looked at per span (OpenInference flattens one key per message part)."""
MAX_ATTRIBUTE_CHARS = 16 * 1024 * 1024
"""A kept string attribute's longest value (a tool list of 1,000 tools is ~250 KB)."""

WANTED = frozenset(
    {
        "gen_ai.operation.name",
        "gen_ai.request.model",
        "gen_ai.response.model",
        "gen_ai.system",
        "gen_ai.provider.name",
        "gen_ai.tool.definitions",
        "gen_ai.output.messages",
        "llm.request.type",
        "llm.model_name",
        "openinference.span.kind",
    }
)
"""Attributes read whole (``docs/traces.md`` says what each is for)."""
WANTED_PREFIXES = ("llm.tools.", "llm.output_messages.0.message.tool_calls.", "gen_ai.completion.0.tool_calls.")
"""Attribute families read by prefix: OpenInference's tool list and reply tool calls, OpenLLMetry's reply tool calls."""


@dataclass(frozen=True)
class Span:
    """One span: its ids (hex), name, start and the attributes toolscope reads."""

    trace_id: str
    span_id: str
    parent_id: str | None
    name: str
    start_ns: int
    attributes: dict[str, Any]
    position: int
    """1-based order in the input (the request's ``record``)."""


@dataclass
class OtlpSpans:
    """The spans of one input, and what was left out."""

    spans: list[Span] = field(default_factory=list)
    skipped: dict[str, int] = field(default_factory=dict)
    """Why something was left out → how many times."""
    exports: int = 0
    """Exports (documents or lines) read."""

    def skip(self, why: str, count: int = 1) -> None:
        """Count something left out."""
        self.skipped[why] = self.skipped.get(why, 0) + count


def looks_like_otlp(head: bytes) -> bool:
    """The first bytes of a file open an OTLP export (``{"resourceSpans"`` after whitespace)."""
    text = head.lstrip()[:200]
    return text.startswith(b"{") and (b'"resourceSpans"' in text or b'"resource_spans"' in text)


def read_otlp(data: bytes, source: str) -> OtlpSpans:
    """Every span of ``data`` (one export, or one per line); InputError when it is not an OTLP trace."""
    out = OtlpSpans()
    try:
        documents: Iterator[tuple[str, Any]] = iter([("(file)", orjson.loads(data))])
    except orjson.JSONDecodeError as exc:
        if not _first_line_parses(data):
            raise _json_error(exc, data, source, 0) from None
        documents = _lines(data, source, out)
    for where, document in documents:
        _export(document, where, source, out)
    return out


def _first_line_parses(data: bytes) -> bool:
    """JSON Lines when the first line is a whole JSON document on its own (and more follows)."""
    stripped = data.strip()
    if b"\n" not in stripped:
        return False
    try:
        orjson.loads(stripped.split(b"\n", 1)[0])
    except orjson.JSONDecodeError:
        return False
    return True


def _lines(data: bytes, source: str, out: OtlpSpans) -> Iterator[tuple[str, Any]]:
    """JSON Lines: each non-empty line one export; a cut-short last line is counted, not an error."""
    lines = data.split(b"\n")
    last = max((i for i, line in enumerate(lines) if line.strip()), default=-1)
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            yield f"line {number}", orjson.loads(line)
        except orjson.JSONDecodeError as exc:
            if number - 1 == last and not data.endswith(b"\n"):
                out.skip(f"line {number} cut short (a write in progress?)")
                return
            raise _json_error(exc, line, source, number) from None


def _json_error(exc: orjson.JSONDecodeError, data: bytes, source: str, line: int) -> InputError:
    message = str(exc).split(":", 1)[0]
    if "depth" in message or "ecursion" in message:
        message = "nested more than 1,024 levels deep (orjson's limit)"
    if line:
        place = f"line {line}, column {exc.colno}"
    else:
        place = f"line {exc.lineno}, column {exc.colno}"
    if not data.strip():
        return InputError(source, "is empty; expected an OTLP trace (JSON) or a toolscope capture")
    return InputError(source, "is not an OTLP trace in JSON (nor a toolscope capture)", [Problem(place, message)])


def _export(document: Any, where: str, source: str, out: OtlpSpans) -> None:
    if not isinstance(document, dict) or not isinstance(
        resource_spans := document.get("resourceSpans", document.get("resource_spans")), list
    ):
        raise InputError(
            source,
            "is not an OTLP trace",
            [Problem(where, "expected an object with resourceSpans (ExportTraceServiceRequest as JSON)")],
        )
    out.exports += 1
    for resource in resource_spans:
        scopes = resource.get("scopeSpans", resource.get("scope_spans")) if isinstance(resource, dict) else None
        if not isinstance(scopes, list):
            out.skip("resourceSpans entry without a scopeSpans list")
            continue
        for scope in scopes:
            spans = scope.get("spans") if isinstance(scope, dict) else None
            if not isinstance(spans, list):
                out.skip("scopeSpans entry without a spans list")
                continue
            _spans(spans, out)


def _spans(spans: list[Any], out: OtlpSpans) -> None:
    room = MAX_SPANS - len(out.spans)
    if len(spans) > room:
        out.skip(f"span(s) over the {MAX_SPANS:,} read", len(spans) - max(room, 0))
        spans = spans[: max(room, 0)]
    for raw in spans:
        span = _span(raw, len(out.spans) + 1, out)
        if span is not None:
            out.spans.append(span)


def _span(raw: Any, position: int, out: OtlpSpans) -> Span | None:
    if not isinstance(raw, dict):
        out.skip("span(s) that are not an object")
        return None
    span_id = raw.get("spanId", raw.get("span_id"))
    trace_id = raw.get("traceId", raw.get("trace_id"))
    if not isinstance(span_id, str) or not span_id or not isinstance(trace_id, str):
        out.skip("span(s) without a traceId and spanId")
        return None
    parent = raw.get("parentSpanId", raw.get("parent_span_id"))
    name = raw.get("name")
    return Span(
        trace_id=trace_id[:64],
        span_id=span_id[:64],
        parent_id=parent[:64] if isinstance(parent, str) and parent else None,
        name=name[:500] if isinstance(name, str) else "",
        start_ns=_int(raw.get("startTimeUnixNano", raw.get("start_time_unix_nano"))),
        attributes=_attributes(raw.get("attributes"), out),
        position=position,
    )


def _int(value: Any) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and value.isdigit() and len(value) < 25:
        return int(value)
    return 0


def _attributes(raw: Any, out: OtlpSpans) -> dict[str, Any]:
    kept: dict[str, Any] = {}
    if not isinstance(raw, list):
        return kept
    if len(raw) > MAX_ATTRIBUTES:
        out.skip(f"attribute(s) past the first {MAX_ATTRIBUTES:,} of a span", len(raw) - MAX_ATTRIBUTES)
        raw = raw[:MAX_ATTRIBUTES]
    for entry in raw:
        key = entry.get("key") if isinstance(entry, dict) else None
        if not isinstance(key, str) or not (key in WANTED or key.startswith(WANTED_PREFIXES)):
            continue
        value = any_value(entry.get("value"))
        if isinstance(value, str) and len(value) > MAX_ATTRIBUTE_CHARS:
            out.skip(f"attribute value(s) over {MAX_ATTRIBUTE_CHARS:,} characters ({key})")
            continue
        kept[key] = value
    return kept


_SCALARS = ("stringValue", "intValue", "doubleValue", "boolValue", "bytesValue")


def any_value(value: Any, depth: int = 0) -> Any:
    """An OTLP ``AnyValue`` as plain data (arrays and key-value lists to 8 levels; deeper: None)."""
    if not isinstance(value, dict) or depth > 8:
        return None
    for kind in _SCALARS:
        if kind in value:
            scalar = value[kind]
            return _int(scalar) if kind == "intValue" else scalar
    if isinstance(array := value.get("arrayValue"), dict):
        values = array.get("values")
        return [any_value(v, depth + 1) for v in values[:10_000]] if isinstance(values, list) else []
    if isinstance(kvlist := value.get("kvlistValue"), dict):
        return _kvlist(kvlist.get("values"), depth)
    return None


def _kvlist(values: Any, depth: int) -> dict[str, Any]:
    if not isinstance(values, list):
        return {}
    return {str(e.get("key")): any_value(e.get("value"), depth + 1) for e in values[:10_000] if isinstance(e, dict)}
