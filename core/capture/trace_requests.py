"""Model-call spans as captured requests: the tool list, the model, the reply's tool calls, the ids.

A span is a model call when it carries a tool list (``gen_ai.tool.definitions``, or
OpenInference's ``llm.tools.<i>.tool.json_schema``), or says it is one
(``gen_ai.operation.name`` chat / text_completion / generate_content, OpenLLMetry's
``llm.request.type`` chat / completion, ``openinference.span.kind`` LLM). Each becomes one
``ObservedRequest`` with the span's trace and span ids, in the order the calls started.

A model call whose span carries no tool list is counted and reported, never read as "no
tools": the attribute is opt-in (``opentelemetry-instrumentation-openai-v2`` never writes it).
Two instrumentations can record the same call (AgentScope's own ``TracingMiddleware`` span
around OpenLLMetry's ``openai.chat``): a model-call span with another one inside it that has a
tool list is the same call, and the inner one (closest to the wire) is read. ``docs/traces.md``
lists every attribute read.

Public API::

    observed_from_spans(spans, source) -> ObservedCapture   (InputError: no model call with a tool list)
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import orjson

from ..model.errors import InputError, Problem
from ..text.counts import counted, counted_phrase
from .observed import MAX_REQUESTS, ObservedCall, ObservedCapture, ObservedRequest, call_arguments, clipped_name
from .otlp_read import OtlpSpans, Span
from .reply import estimate_tokens

__all__ = ["MAX_TOOLS", "observed_from_spans"]

MAX_TOOLS = 10_000
"""Tools read from one span's list (the rest are cut, and the cut is said)."""
MAX_CALLS = 200
"""Tool calls read from one span's reply."""
MAX_PARENT_STEPS = 256
"""Ancestors walked from one span (a cycle of parent ids ends there)."""
MODEL_OPERATIONS = frozenset({"chat", "text_completion", "generate_content"})
GENAI_TOOLS = "gen_ai.tool.definitions"
_OI_TOOL = re.compile(r"llm\.tools\.(\d{1,6})\.tool\.json_schema")
_OI_CALL = re.compile(r"llm\.output_messages\.0\.message\.tool_calls\.(\d{1,6})\.tool_call\.function\.(name|arguments)")
_LLMETRY_CALL = re.compile(r"gen_ai\.completion\.0\.tool_calls\.(\d{1,6})\.(name|arguments)")


@dataclass(frozen=True)
class _ToolList:
    names: tuple[str, ...]
    tokens: tuple[int, ...]
    convention: str
    problem: str | None = None
    """Why the attribute could not be read (then it is not a tool list)."""
    cut: int = 0
    """Tools past ``MAX_TOOLS``, not read."""


def is_model_call(attributes: dict[str, Any]) -> bool:
    """The span records a model call (see the module docstring)."""
    return (
        attributes.get("gen_ai.operation.name") in MODEL_OPERATIONS
        or attributes.get("llm.request.type") in ("chat", "completion")
        or attributes.get("openinference.span.kind") == "LLM"
        or GENAI_TOOLS in attributes
        or any(k.startswith("llm.tools.") for k in attributes)
    )


def tool_list(attributes: dict[str, Any]) -> _ToolList | None:
    """The span's tool list, or None when it records none."""
    if GENAI_TOOLS in attributes:
        return _entries(_genai_entries(attributes[GENAI_TOOLS]), "gen_ai")
    numbered = sorted((int(m.group(1)), v) for k, v in attributes.items() if (m := _OI_TOOL.fullmatch(k)))
    if not numbered:
        return None
    return _entries([_json(value) for _, value in numbered], "openinference")


def _json(value: Any) -> Any:
    if not isinstance(value, str):
        return value
    try:
        return orjson.loads(value)
    except orjson.JSONDecodeError:
        return _Unreadable()


class _Unreadable:
    """A JSON text that did not parse (cut by an attribute length limit, or not JSON)."""


def _genai_entries(value: Any) -> list[Any] | _Unreadable:
    value = _json(value)
    if isinstance(value, list):
        return [_json(item) for item in value]
    return value if isinstance(value, _Unreadable) else _Unreadable()


def _entries(entries: list[Any] | _Unreadable, convention: str) -> _ToolList:
    if isinstance(entries, _Unreadable):
        return _ToolList((), (), convention, "its tool list is not a JSON list (cut by a length limit?)")
    names, tokens = [], []
    for entry in entries[:MAX_TOOLS]:
        name = _tool_name(entry)
        if name is None:
            return _ToolList((), (), convention, "a tool in its list has no name")
        names.append(clipped_name(name))
        tokens.append(estimate_tokens(len(orjson.dumps(entry))))
    return _ToolList(tuple(names), tuple(tokens), convention, cut=max(0, len(entries) - MAX_TOOLS))


def _tool_name(entry: Any) -> str | None:
    if not isinstance(entry, dict):
        return None
    name = entry.get("name")
    function = entry.get("function")
    if name is None and isinstance(function, dict):
        name = function.get("name")
    return name if isinstance(name, str) else None


def reply_calls(attributes: dict[str, Any]) -> tuple[ObservedCall, ...]:
    """The tool calls of the model's reply, as the span records them (GenAI, OpenLLMetry, OpenInference)."""
    output = attributes.get("gen_ai.output.messages")
    if output is not None:
        return _genai_calls(_json(output))
    for pattern in (_LLMETRY_CALL, _OI_CALL):
        numbered: dict[int, dict[str, Any]] = {}
        for key, value in attributes.items():
            if (m := pattern.fullmatch(key)) and len(numbered) < MAX_CALLS:
                numbered.setdefault(int(m.group(1)), {})[m.group(2)] = value
        if numbered:
            return tuple(_call(numbered[i].get("name"), numbered[i].get("arguments")) for i in sorted(numbered))
    return ()


def _genai_calls(messages: Any) -> tuple[ObservedCall, ...]:
    if not isinstance(messages, list):
        return ()
    calls = []
    for message in messages[:MAX_CALLS]:
        parts = message.get("parts") if isinstance(message, dict) else None
        for part in parts[:MAX_CALLS] if isinstance(parts, list) else ():
            if isinstance(part, dict) and part.get("type") == "tool_call":
                calls.append(_call(part.get("name"), part.get("arguments")))
    return tuple(calls[:MAX_CALLS])


def _call(name: Any, arguments: Any) -> ObservedCall:
    """Arguments sent as JSON text are read as the capture reads them (parsed, then shown as JSON)."""
    parsed = _json(arguments)
    shown = call_arguments(arguments if isinstance(parsed, _Unreadable) else parsed)
    return ObservedCall(clipped_name(name if isinstance(name, str) else ""), shown)


def _iso(start_ns: int) -> str | None:
    if start_ns <= 0:
        return None
    return datetime.fromtimestamp(start_ns / 1e9, UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _ancestors(span: Span, parents: dict[tuple[str, str], str | None]) -> Iterable[str]:
    parent = span.parent_id
    for _ in range(MAX_PARENT_STEPS):
        if parent is None:
            return
        yield parent
        parent = parents.get((span.trace_id, parent))


def _request(span: Span, tools: _ToolList, index: int) -> ObservedRequest:
    attributes = span.attributes
    model = attributes.get("gen_ai.request.model") or attributes.get("llm.model_name")
    model = model or attributes.get("gen_ai.response.model")
    return ObservedRequest(
        index=index,
        record=span.position,
        protocol=f"trace:{tools.convention}",
        model=clipped_name(model) if isinstance(model, str) else None,
        tools=tools.names,
        tool_tokens=tools.tokens,
        calls=reply_calls(attributes),
        trace_id=span.trace_id,
        span_id=span.span_id,
        started=_iso(span.start_ns),
    )


class _Sorted:
    """The model-call spans of one input, sorted into requests and what was left out."""

    def __init__(self, read: OtlpSpans) -> None:
        self.read = read
        self.calls = [s for s in read.spans if is_model_call(s.attributes)]
        self.lists = {id(s): tool_list(s.attributes) for s in self.calls}
        self.outer: set[tuple[str, str]] = set()
        """Model-call spans with a readable tool-list span inside them (the same call, read inside)."""
        self.inner: set[int] = set()
        """Model-call spans without a list inside one that has it (the same call, read outside)."""
        self._nesting(read.spans)

    def _nesting(self, spans: list[Span]) -> None:
        parents = {(s.trace_id, s.span_id): s.parent_id for s in spans}
        listed = {(s.trace_id, s.span_id) for s in self.calls if self._readable(s)}
        for span in self.calls:
            above = {(span.trace_id, p) for p in _ancestors(span, parents)}
            if self._readable(span):
                self.outer |= above
            elif above & listed:
                self.inner.add(id(span))

    def _readable(self, span: Span) -> bool:
        found = self.lists[id(span)]
        return found is not None and found.problem is None

    def requests(self) -> tuple[list[tuple[Span, _ToolList]], list[str]]:
        kept: list[tuple[Span, _ToolList]] = []
        counts: dict[str, int] = {}
        for span in self.calls:
            found = self.lists[id(span)]
            if (span.trace_id, span.span_id) in self.outer or id(span) in self.inner:
                why = "model-call span(s) recording the same call as a span nested with it (the innermost read)"
            elif found is None:
                why = "model-call span(s) with no tool list recorded (not compared: the attribute is opt-in)"
            elif found.problem is not None:
                why = f"model-call span(s) whose tool list is unreadable: {found.problem}"
            else:
                kept.append((span, found))
                if found.cut:
                    why = f"tool list(s) cut at their first {MAX_TOOLS:,} tools"
                else:
                    continue
            counts[why] = counts.get(why, 0) + 1
        notes = [counted_phrase(count, why) for why, count in counts.items()]
        notes += [counted_phrase(count, why) for why, count in self.read.skipped.items()]
        return sorted(kept, key=lambda pair: (pair[0].start_ns, pair[0].position)), notes


def observed_from_spans(read: OtlpSpans, source: str) -> ObservedCapture:
    """The model calls of ``read`` as an ObservedCapture; InputError when none carries a tool list."""
    kept, notes = _Sorted(read).requests()
    truncated = f"only the first {MAX_REQUESTS:,} model calls were read" if len(kept) > MAX_REQUESTS else None
    requests = tuple(_request(span, tools, i) for i, (span, tools) in enumerate(kept[:MAX_REQUESTS], 1))
    if not requests:
        raise InputError(
            source,
            "has no model call with a tool list recorded (toolscope compares tool lists)",
            [Problem("(trace)", note) for note in notes[:10]]
            or [Problem("(trace)", f"{counted(len(read.spans), 'span')}, none of them a model call")],
        )
    return ObservedCapture(source, requests, len(read.spans), tuple(notes), truncated)
