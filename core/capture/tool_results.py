"""The tool results a request carries back for the previous reply's calls (``--keep-messages`` only).

A client answers a model's tool calls in its next request: Anthropic Messages as
``tool_result`` blocks after the assistant's ``tool_use`` blocks, OpenAI Responses as
``function_call_output`` items after the ``function_call`` items, Chat Completions as
``role: tool`` messages after the assistant's ``tool_calls``, Gemini as ``functionResponse``
parts after the ``model`` content's ``functionCall`` parts. Only the results of the last
assistant turn are read (the calls of the reply just before this request): earlier
turns were read with their own request, and a long conversation stays cheap.

Pure functions over the kept JSON; the text is clipped, so a huge tool output costs
nothing more than its first ``TEXT_CAP`` characters.

Public API::

    ObservedResult(call_id, name, namespace, text, is_error)
    last_turn_results(protocol, messages) -> tuple[ObservedResult, ...]
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Any

__all__ = ["ObservedResult", "last_turn_results"]

TEXT_CAP = 400
"""Characters of a result's text kept (enough for any CLI's refusal sentence)."""
MAX_RESULTS = 100
"""Results read per request at most (one reply rarely calls more than a few tools)."""


@dataclass(frozen=True)
class ObservedResult:
    """One tool result the client sent back."""

    call_id: str
    name: str
    """The called tool's name (from the call with the same id; "" when the call is not in the request)."""
    namespace: str | None
    text: str
    """The result's text, clipped to ``TEXT_CAP`` characters."""
    is_error: bool | None
    """Anthropic's ``is_error`` (null where the protocol has no such flag)."""


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content[:TEXT_CAP]
    parts: list[str] = []
    size = 0
    if isinstance(content, list):
        for part in content[:MAX_RESULTS]:
            text = part.get("text") if isinstance(part, dict) else None
            if isinstance(text, str):
                parts.append(text[: TEXT_CAP - size])
                size += len(parts[-1])
                if size >= TEXT_CAP:
                    break
    return "\n".join(parts)[:TEXT_CAP]


def _last_index(items: list[Any], matches: Any) -> int:
    for position in range(len(items) - 1, -1, -1):
        if matches(items[position]):
            return position
    return -1


class _Calls:
    """The turn's calls by id, each id's in order: a client that gives every call one id (seen)
    gets each result paired with the next call of that id, not every result with the last call."""

    def __init__(self) -> None:
        self._by_id: dict[str, deque[Any]] = {}

    def add(self, call_id: Any, value: Any) -> None:
        self._by_id.setdefault(str(call_id), deque()).append(value)

    def take(self, call_id: str, default: Any) -> Any:
        waiting = self._by_id.get(call_id)
        return waiting.popleft() if waiting else default


def _anthropic(messages: list[Any]) -> tuple[ObservedResult, ...]:
    last = _last_index(messages, lambda m: isinstance(m, dict) and m.get("role") == "assistant")
    if last < 0 or not isinstance(messages[last].get("content"), list):
        return ()
    calls = _Calls()
    for block in messages[last]["content"][:MAX_RESULTS]:
        if isinstance(block, dict) and block.get("type") == "tool_use":
            calls.add(block.get("id"), str(block.get("name", "")))
    out = []
    for message in messages[last + 1 :]:
        content = message.get("content") if isinstance(message, dict) else None
        for block in content[:MAX_RESULTS] if isinstance(content, list) else ():
            if isinstance(block, dict) and block.get("type") == "tool_result":
                call_id = str(block.get("tool_use_id", ""))
                error = block.get("is_error")
                out.append(
                    ObservedResult(call_id, calls.take(call_id, ""), None, _text(block.get("content")), error is True)
                )
    return tuple(out[:MAX_RESULTS])


def _responses(items: list[Any]) -> tuple[ObservedResult, ...]:
    # The last turn's items follow the last message (a user or assistant message item).
    last = _last_index(items, lambda i: isinstance(i, dict) and (i.get("type") == "message" or "role" in i))
    calls = _Calls()
    out = []
    for item in items[last + 1 :][: MAX_RESULTS * 4]:
        if not isinstance(item, dict):
            continue
        kind = item.get("type")
        call_id = str(item.get("call_id", ""))
        if kind in ("function_call", "custom_tool_call"):
            namespace = item.get("namespace")
            calls.add(call_id, (str(item.get("name", "")), namespace if isinstance(namespace, str) else None))
        elif kind in ("function_call_output", "custom_tool_call_output"):
            name, namespace = calls.take(call_id, ("", None))
            out.append(ObservedResult(call_id, name, namespace, _text(item.get("output")), None))
    return tuple(out[:MAX_RESULTS])


def _chat(messages: list[Any]) -> tuple[ObservedResult, ...]:
    last = _last_index(messages, lambda m: isinstance(m, dict) and m.get("role") == "assistant")
    if last < 0:
        return ()
    calls = _Calls()
    for call in (messages[last].get("tool_calls") or [])[:MAX_RESULTS]:
        function = call.get("function") if isinstance(call, dict) else None
        if isinstance(function, dict):
            calls.add(call.get("id"), str(function.get("name", "")))
    out = []
    for message in messages[last + 1 :][:MAX_RESULTS]:
        if isinstance(message, dict) and message.get("role") == "tool":
            call_id = str(message.get("tool_call_id", ""))
            out.append(ObservedResult(call_id, calls.take(call_id, ""), None, _text(message.get("content")), None))
    return tuple(out)


def _gemini_parts(content: Any) -> list[Any]:
    parts = content.get("parts") if isinstance(content, dict) else None
    return parts[: MAX_RESULTS * 4] if isinstance(parts, list) else []


def _gemini_output(response: Any) -> str:
    # Gemini CLI answers ``{output: "…"}`` or ``{error: "…"}``; anything else is shown as JSON.
    if isinstance(response, dict):
        for key in ("output", "error"):
            if isinstance(response.get(key), str):
                return _text(response[key])
    import json

    return json.dumps(response, ensure_ascii=False)[:TEXT_CAP]


def _gemini_calls(content: Any) -> _Calls:
    calls = _Calls()
    for part in _gemini_parts(content):
        call = part.get("functionCall") if isinstance(part, dict) else None
        if isinstance(call, dict):
            calls.add(call.get("id") or call.get("name"), str(call.get("name", "")))
    return calls


def _gemini(contents: list[Any]) -> tuple[ObservedResult, ...]:
    # ``functionCall`` parts in the last ``model`` content, ``functionResponse`` parts after it
    # (paired by ``id`` when the client sends one, else by name).
    last = _last_index(contents, lambda c: isinstance(c, dict) and c.get("role") == "model")
    if last < 0:
        return ()
    calls = _gemini_calls(contents[last])
    responses = [
        part["functionResponse"]
        for content in contents[last + 1 :][:MAX_RESULTS]
        for part in _gemini_parts(content)
        if isinstance(part, dict) and isinstance(part.get("functionResponse"), dict)
    ]
    out = []
    for response in responses[:MAX_RESULTS]:
        name = calls.take(str(response.get("id") or response.get("name")), str(response.get("name", "")))
        call_id = str(response.get("id") or "")
        out.append(ObservedResult(call_id, name, None, _gemini_output(response.get("response")), None))
    return tuple(out)


def last_turn_results(protocol: str, messages: Any) -> tuple[ObservedResult, ...]:
    """The results of the last assistant turn's tool calls in ``messages`` (kept as sent)."""
    if not isinstance(messages, list):
        return ()
    if protocol == "anthropic-messages":
        return _anthropic(messages)
    if protocol == "openai-responses":
        return _responses(messages)
    if protocol == "openai-chat":
        return _chat(messages)
    if protocol == "gemini-generate":
        return _gemini(messages)
    return ()
