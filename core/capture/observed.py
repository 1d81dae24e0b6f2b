"""A capture file as the comparison and the views read it: per request, the tools sent and the calls replied.

Built from the ``toolscope.capture/1`` records (``core.capture`` reads the file, bounded);
this module keeps only what prediction-against-reality needs, so a future input of what a
model received (another capture format) only has to fill these dataclasses.

Public API::

    ObservedCall(name, arguments)
    ObservedRequest(index, line, protocol, model, tools, tool_tokens, deferred, calls, tool_choice)
    ObservedCapture(path, requests, lines_read, skipped, truncated)
    changes(previous, request) -> (appeared, disappeared)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class ObservedCall:
    """A tool call in the model's reply (what the agent then ran)."""

    name: str
    arguments: str
    """The argument text as the model sent it (JSON text; objects are re-encoded compactly)."""


@dataclass(frozen=True)
class ObservedRequest:
    """One model request as the capture recorded it."""

    index: int
    """1-based order in the capture."""
    line: int
    protocol: str
    model: str | None
    tools: tuple[str, ...]
    """Tool names in the order sent."""
    tool_tokens: tuple[int, ...]
    """Each tool's token estimate, as the capture records it (same order as ``tools``)."""
    deferred: frozenset[str] = frozenset()
    calls: tuple[ObservedCall, ...] = ()
    tool_choice: Any = None

    @property
    def tokens(self) -> int:
        """The tool list's token estimate."""
        return sum(self.tool_tokens)


@dataclass(frozen=True)
class ObservedCapture:
    """The requests of one capture file, and what reading it left out."""

    path: str
    """The file's name (as the user gave it)."""
    requests: tuple[ObservedRequest, ...]
    lines_read: int
    skipped: tuple[str, ...] = field(default=())
    """``line N: why`` for lines that were not capture records (at most 20 kept)."""
    truncated: str | None = None
    """What the caps cut, or None when the file was read whole."""

    def to_json(self) -> dict[str, Any]:
        """The ``capture.source`` block."""
        from pathlib import Path

        return {
            "path": Path(self.path).name,
            "requests": len(self.requests),
            "lines_read": self.lines_read,
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


def _arguments(value: Any) -> str:
    if isinstance(value, str):
        return value
    import json

    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def request_from_record(record: dict[str, Any], index: int, line: int) -> ObservedRequest:
    """One ``toolscope.capture/1`` record as an ObservedRequest (the fields comparison needs)."""
    tools = [t for t in record.get("tools") or [] if isinstance(t, dict)]
    reply = record.get("reply") if isinstance(record.get("reply"), dict) else {}
    calls = [c for c in (reply.get("tool_calls") or []) if isinstance(c, dict)]
    return ObservedRequest(
        index=index,
        line=line,
        protocol=str(record.get("protocol") or "?"),
        model=record.get("model") if isinstance(record.get("model"), str) else None,
        tools=tuple(str(t.get("name", "")) for t in tools),
        tool_tokens=tuple(int(t.get("tokens") or 0) for t in tools),
        deferred=frozenset(str(t.get("name", "")) for t in tools if t.get("deferred")),
        calls=tuple(ObservedCall(str(c.get("name", "")), _arguments(c.get("arguments", ""))) for c in calls),
        tool_choice=record.get("tool_choice"),
    )
