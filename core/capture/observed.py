"""A capture file as the comparison and the views read it: per request, the tools sent and the calls replied.

Built from the ``toolscope.capture/1`` records (``core.capture`` reads the file, bounded);
this module keeps only what prediction-against-reality needs, so a future input of what a
model received (another capture format) only has to fill these dataclasses.

Public API::

    ObservedCall(name, arguments, namespace)
    ObservedRequest(index, record, protocol, model, tools, tool_tokens, deferred, received_at, calls, tool_choice,
                    namespaces, deferred_names, deferred_namespaces, results)
    ObservedCapture(path, requests, records, skipped, truncated)
    request_from_record(record, index) -> ObservedRequest
    changes(previous, request) -> (appeared, disappeared)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..text.clip import clip
from .tool_results import ObservedResult, last_turn_results

if TYPE_CHECKING:
    from ..schemas.capture import CaptureRecord


@dataclass(frozen=True)
class ObservedCall:
    """A tool call in the model's reply (what the agent then ran)."""

    name: str
    arguments: str
    """The argument text as the model sent it (JSON text; objects are re-encoded compactly)."""
    namespace: str | None = None
    """The Responses namespace of the call (Codex MCP tools), else None."""


@dataclass(frozen=True)
class ObservedRequest:
    """One model request as the capture recorded it."""

    index: int
    """1-based order among the capture's model requests (the comparison's request number)."""
    record: int
    """The record's own ``index`` (arrival order, count_tokens calls included)."""
    protocol: str
    model: str | None
    tools: tuple[str, ...]
    """Tool names in the order sent."""
    tool_tokens: tuple[int, ...]
    """Each tool's token estimate, as the capture records it (same order as ``tools``)."""
    deferred: frozenset[str] = frozenset()
    received_at: str = ""
    """When the capture received it (ISO 8601, as recorded): how long after the first request it left."""
    calls: tuple[ObservedCall, ...] = ()
    tool_choice: Any = None
    namespaces: tuple[str | None, ...] = ()
    """Each tool's Responses namespace (Codex: ``mcp__<server>``), same order as ``tools``; empty: none."""
    deferred_names: tuple[str, ...] = ()
    """Names announced in a system message as loadable by tool search (Claude Code's deferred list)."""
    deferred_namespaces: tuple[str, ...] = ()
    """Namespaces announced the same way (Codex's "Deferred tool namespaces:")."""
    results: tuple[ObservedResult, ...] | None = None
    """The results this request carries for the previous reply's calls; None: messages not kept."""
    trace_id: str | None = None
    """Read from a trace: the model-call span's trace id (hex); None for a capture file."""
    span_id: str | None = None
    """Read from a trace: the span's id (hex)."""
    started: str | None = None
    """Read from a trace: when the call started (UTC, ISO 8601); a capture's records say when they arrived."""

    @property
    def tokens(self) -> int:
        """The tool list's token estimate."""
        return sum(self.tool_tokens)

    def head_json(self) -> dict[str, Any]:
        """The keys that name this request in report JSON (the timeline's and the comparison's)."""
        trace = None if self.trace_id is None else {"trace_id": self.trace_id, "span_id": self.span_id}
        return {
            "request": self.index,
            "record": self.record,
            "protocol": self.protocol,
            "model": self.model,
            "trace": trace,
        }

    def seconds_after(self, first: ObservedRequest) -> float | None:
        """Seconds between ``first`` and this request (None when either time is missing or unreadable)."""
        from datetime import datetime

        try:
            mine, theirs = (datetime.fromisoformat(r.received_at.replace("Z", "+00:00")) for r in (self, first))
        except ValueError:
            return None
        return (mine - theirs).total_seconds()


@dataclass(frozen=True)
class ObservedCapture:
    """The requests of one capture file, and what reading it left out."""

    path: str
    """The file's name (as the user gave it)."""
    requests: tuple[ObservedRequest, ...]
    records: int
    """Records read (count_tokens calls included)."""
    skipped: tuple[str, ...] = field(default=())
    """Records left out of the comparison and why (count_tokens calls)."""
    truncated: str | None = None
    """What the caps cut, or None when the file was read whole."""

    def to_json(self) -> dict[str, Any]:
        """The ``capture.source`` block."""
        from pathlib import Path

        return {
            "path": Path(self.path).name,
            "requests": len(self.requests),
            "records": self.records,
            "skipped": list(self.skipped[:20]),
            "truncated": self.truncated,
        }


def changes(previous: ObservedRequest | None, request: ObservedRequest) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(appeared, disappeared) since the previous request; the first request: everything appeared."""
    before = () if previous is None else previous.tools
    had, has = set(before), set(request.tools)
    return tuple(n for n in request.tools if n not in had), tuple(n for n in before if n not in has)


MAX_REQUESTS = 20_000
"""Requests read from one capture at most (the rest are cut, and the cut is said)."""
MODEL_PROTOCOLS = frozenset({"openai-chat", "openai-responses", "anthropic-messages", "gemini-generate"})
"""Protocols whose requests ask the model (``anthropic-count-tokens``, ``gemini-count-tokens`` only count: not a turn)."""


def call_arguments(value: Any) -> str:
    """A call's arguments as text: a string as it is, anything else as JSON (as the capture's views show it)."""
    if isinstance(value, str):
        return value
    import json

    return json.dumps(value, ensure_ascii=False)


NAME_CHARS = 500
"""A captured name (tool, namespace, call) is read clipped to this many characters (``core.text.clip``):
every output shows names from here, and a client may send a name of any size (a 10 MB one printed
40 MB). The APIs' own limits are 64-128 characters, so a real name is never clipped."""


def clipped_name(name: str | None) -> str:
    """A received name as every output shows it: clipped to ``NAME_CHARS``."""
    return "" if name is None else clip(name, NAME_CHARS)


_name = clipped_name


def request_from_record(record: CaptureRecord, index: int) -> ObservedRequest:
    """One ``toolscope.capture/1`` record as an ObservedRequest (the fields the comparison needs; names clipped)."""
    kept = record.kept
    results = None if kept is None else last_turn_results(record.protocol or "", kept.messages)
    namespaces = tuple(None if t.namespace is None else _name(t.namespace) for t in record.tools)
    calls = record.reply.tool_calls
    return ObservedRequest(
        index=index,
        record=record.index,
        received_at=record.received_at,
        protocol=record.protocol or "",  # refused records (no protocol) never get here
        model=record.model,
        tools=tuple(_name(t.name) for t in record.tools),
        tool_tokens=tuple(t.token_estimate for t in record.tools),
        deferred=frozenset(_name(t.name) for t in record.tools if t.deferred),
        calls=tuple(
            ObservedCall(_name(c.name), call_arguments(c.arguments), c.namespace and _name(c.namespace)) for c in calls
        ),
        tool_choice=record.tool_choice,
        namespaces=namespaces if any(namespaces) else (),
        deferred_names=tuple(_name(n) for n in record.deferred_names),
        deferred_namespaces=tuple(_name(n) for n in record.deferred_namespaces),
        results=results,
    )
