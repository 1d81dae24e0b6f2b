"""``--replies FILE``: the scripted answers of the capture server, one per model request, in order.

The file is a JSON or YAML list (read by ``core.inputs.documents``: strict JSON, safe YAML,
errors with file and line:column). Each item is ``{"text": "..."}`` or
``{"tool_calls": [{"name": "reset_tools", "arguments": {...}, "namespace": "mcp__x"}]}``
(``arguments`` defaults to ``{}``; ``namespace`` only for Responses clients such as Codex).
After the list, every request gets ``{"text": "ok"}``. count_tokens and model listings do
not take a reply.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any, NamedTuple

from ..inputs.documents import load_document
from ..inputs.validation import validate
from ..model.errors import InputError, Problem
from .reply import DEFAULT_REPLY, Reply, ToolCall

MAX_REPLIES = 100_000
"""The most items a replies file may hold."""


class ScriptedCall(NamedTuple):
    name: str
    arguments: Any = None
    namespace: str | None = None

    __validation__ = {"name": {"min_length": 1}}  # type: ignore[misc]  # read by core.inputs.validation


class ScriptedReply(NamedTuple):
    text: str | None = None
    tool_calls: tuple[ScriptedCall, ...] | None = None


def load_replies(path: Path | str) -> list[Reply]:
    """Read a replies file; any mistake is an InputError naming the file and the item."""
    document = load_document(path, "replies file")
    source = str(path)
    data = document.data
    if not isinstance(data, list):
        raise InputError(source, "is not a replies file", [Problem("", "expected a list of replies (JSON or YAML)")])
    if len(data) > MAX_REPLIES:
        raise InputError(source, f"has {len(data):,} replies; at most {MAX_REPLIES:,} are read")
    return [_reply(item, source, position) for position, item in enumerate(data)]


def _reply(item: Any, source: str, position: int) -> Reply:
    where = f"[{position}]"
    if not isinstance(item, dict):
        raise InputError(
            source, "is not a valid replies file", [Problem(where, 'expected {"text": ...} or {"tool_calls": [...]}')]
        )
    scripted = validate(ScriptedReply, item, source, "replies file", prefix=where)
    if (scripted.text is None) == (scripted.tool_calls is None):
        raise InputError(
            source,
            "is not a valid replies file",
            [Problem(where, 'give exactly one of "text" or "tool_calls"')],
        )
    if scripted.tool_calls is not None:
        if not scripted.tool_calls:
            raise InputError(source, "is not a valid replies file", [Problem(f"{where}.tool_calls", "is empty")])
        calls = tuple(
            ToolCall(call.name, {} if call.arguments is None else call.arguments, call.namespace)
            for call in scripted.tool_calls
        )
        return Reply(text="", tool_calls=calls, source="scripted")
    return Reply(text=scripted.text or "", source="scripted")


class ReplyScript:
    """Hands out the scripted replies in request order, then ``DEFAULT_REPLY``."""

    def __init__(self, replies: list[Reply] | None = None) -> None:
        self._replies = list(replies or [])
        self._next = 0
        self._lock = threading.Lock()

    def next(self) -> Reply:
        with self._lock:
            if self._next < len(self._replies):
                reply = self._replies[self._next]
                self._next += 1
                return reply
            return DEFAULT_REPLY

    @property
    def remaining(self) -> int:
        return len(self._replies) - self._next
