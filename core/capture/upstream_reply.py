"""Reading the tool calls out of a provider's reply as it streams past (proxy mode).

``ReplyObserver.feed(chunk)`` takes the reply's bytes in any split; ``finish()`` returns the
facts: tool calls (name, namespace, arguments), the text's size, the stop reason. A JSON
reply is parsed whole (at most ``MAX_OBSERVED_BYTES``); an SSE reply event by event, each
event's ``data`` line parsed alone, so memory stays bounded by one event. Shapes observed
are the SDKs' reply types (``ChatCompletion``/``ChatCompletionChunk``, ``Response`` and its
stream events, ``Message`` and ``RawMessageStreamEvent``, Gemini's ``GenerateContentResponse``
whole, as SSE chunks or as a JSON array of chunks); anything unexpected is skipped,
never an error: the client gets the bytes unchanged whatever this module understands.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import orjson

MAX_OBSERVED_BYTES = 32 * 1024 * 1024
"""The most reply bytes kept for reading (a JSON reply, or one SSE line); more is passed on unread."""
MAX_CHUNKS = 100_000
"""The most chunks of a Gemini JSON-array reply read."""


@dataclass
class _Call:
    name: str = ""
    namespace: str | None = None
    arguments: list[str] = field(default_factory=list)
    parsed: Any = None


def _gemini_candidate(response: dict[str, Any]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The first candidate of a Gemini reply and its parts that are objects (empty when absent)."""
    candidates = response.get("candidates")
    candidate = candidates[0] if isinstance(candidates, list) and candidates else None
    if not isinstance(candidate, dict):
        return {}, []
    content = candidate.get("content")
    parts = content.get("parts") if isinstance(content, dict) else None
    return candidate, [part for part in parts if isinstance(part, dict)] if isinstance(parts, list) else []


def _arguments(call: _Call) -> Any:
    if call.parsed is not None:
        return call.parsed
    text = "".join(call.arguments)
    if not text:
        return {}
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return text


class ReplyObserver:
    """Collects the tool facts of one reply of ``protocol`` (``stream``: SSE, else one JSON)."""

    def __init__(self, protocol: str | None, stream: bool, keep_text: bool = False) -> None:
        self.protocol = protocol
        self.stream = stream
        self.keep_text = keep_text
        self._buffer = bytearray()
        self._overflow = False
        self._calls: dict[Any, _Call] = {}
        self.text_bytes = 0
        self.text: list[str] = []
        self.stop_reason: str | None = None
        self.error: str | None = None

    def feed(self, chunk: bytes) -> None:
        if self._overflow or self.protocol is None:
            return
        self._buffer += chunk
        if self.stream:
            self._lines()
        if len(self._buffer) > MAX_OBSERVED_BYTES:
            self._overflow = True
            self._buffer.clear()
            self.error = (
                f"the reply (or one of its events) is over {MAX_OBSERVED_BYTES:,} bytes; its tool calls were not read"
            )

    def _lines(self) -> None:
        start = 0
        while True:
            end = self._buffer.find(b"\n", start)
            if end < 0:
                break
            line = bytes(self._buffer[start:end]).rstrip(b"\r")
            start = end + 1
            if line.startswith(b"data:"):
                data = line[5:].strip()
                if data and data != b"[DONE]":
                    self._event(data)
        del self._buffer[:start]

    def _event(self, data: bytes) -> None:
        try:
            event = orjson.loads(data)
        except orjson.JSONDecodeError:
            return
        if not isinstance(event, dict):
            return
        if self.protocol == "openai-chat":
            self._chat_chunk(event)
        elif self.protocol == "openai-responses":
            self._responses_event(event)
        elif self.protocol == "anthropic-messages":
            self._anthropic_event(event)
        elif self.protocol == "gemini-generate":
            self._gemini_response(event)

    def _add_text(self, text: Any) -> None:
        if isinstance(text, str) and text:
            self.text_bytes += len(text.encode())
            if self.keep_text:
                self.text.append(text)

    # OpenAI Chat Completions
    def _chat_chunk(self, chunk: dict[str, Any]) -> None:
        for choice in chunk.get("choices") or []:
            if not isinstance(choice, dict):
                continue
            delta = choice.get("delta") or choice.get("message") or {}
            self._add_text(delta.get("content"))
            for position, call in enumerate(delta.get("tool_calls") or []):
                function = call.get("function") or {}
                entry = self._calls.setdefault(call.get("index", position), _Call())
                entry.name += function.get("name") or ""
                if isinstance(function.get("arguments"), str):
                    entry.arguments.append(function["arguments"])
            if choice.get("finish_reason"):
                self.stop_reason = choice["finish_reason"]

    # OpenAI Responses
    def _responses_event(self, event: dict[str, Any]) -> None:
        kind = event.get("type")
        if kind == "response.output_item.done":
            self._responses_item(event.get("item") or {}, event.get("output_index"))
        elif kind == "response.output_text.delta":
            self._add_text(event.get("delta"))
        elif kind in ("response.completed", "response.incomplete", "response.failed"):
            response = event.get("response") or {}
            self.stop_reason = response.get("status")
        elif kind == "error":
            self.error = str(event.get("message") or event.get("code") or "error event")[:500]

    def _responses_item(self, item: dict[str, Any], position: Any) -> None:
        if item.get("type") in ("function_call", "custom_tool_call"):
            arguments = item.get("arguments", item.get("input", ""))
            self._calls[len(self._calls) if position is None else position] = _Call(
                name=item.get("name") or "", namespace=item.get("namespace"), arguments=[arguments or ""]
            )

    def _responses_whole(self, response: dict[str, Any]) -> None:
        for position, item in enumerate(response.get("output") or []):
            if isinstance(item, dict):
                self._responses_item(item, position)
                if item.get("type") == "message":
                    for part in item.get("content") or []:
                        if isinstance(part, dict):
                            self._add_text(part.get("text"))
        self.stop_reason = response.get("status")

    # Anthropic Messages
    def _anthropic_event(self, event: dict[str, Any]) -> None:
        kind = event.get("type")
        if kind == "content_block_start":
            block = event.get("content_block") or {}
            if block.get("type") in ("tool_use", "server_tool_use", "mcp_tool_use"):
                self._calls[event.get("index")] = _Call(name=block.get("name") or "")
        elif kind == "content_block_delta":
            delta = event.get("delta") or {}
            if delta.get("type") == "input_json_delta" and event.get("index") in self._calls:
                self._calls[event.get("index")].arguments.append(delta.get("partial_json") or "")
            elif delta.get("type") == "text_delta":
                self._add_text(delta.get("text"))
        elif kind == "message_delta":
            self.stop_reason = (event.get("delta") or {}).get("stop_reason") or self.stop_reason
        elif kind == "error":
            self.error = str((event.get("error") or {}).get("message") or "error event")[:500]

    def _anthropic_whole(self, message: dict[str, Any]) -> None:
        for position, block in enumerate(message.get("content") or []):
            if not isinstance(block, dict):
                continue
            if block.get("type") in ("tool_use", "server_tool_use", "mcp_tool_use"):
                self._calls[position] = _Call(name=block.get("name") or "", parsed=block.get("input"))
            self._add_text(block.get("text"))
        self.stop_reason = message.get("stop_reason")

    # Gemini (GenerateContentResponse: a whole reply, or one SSE chunk of it)
    def _gemini_response(self, response: dict[str, Any]) -> None:
        if isinstance(response.get("error"), dict):
            self.error = str(response["error"].get("message") or "error")[:500]
            return
        candidate, parts = _gemini_candidate(response)
        for part in parts:
            call = part.get("functionCall")
            if isinstance(call, dict):
                self._calls[len(self._calls)] = _Call(name=str(call.get("name") or ""), parsed=call.get("args"))
            elif not part.get("thought"):
                self._add_text(part.get("text"))
        self.stop_reason = candidate.get("finishReason") or self.stop_reason

    def _whole(self, whole: Any) -> None:
        if self.protocol == "gemini-generate":
            # streamGenerateContent without alt=sse answers a JSON array of chunks.
            chunks = whole[:MAX_CHUNKS] if isinstance(whole, list) else [whole]
            for chunk in chunks:
                if isinstance(chunk, dict):
                    self._gemini_response(chunk)
            return
        if not isinstance(whole, dict):
            return
        if isinstance(whole.get("error"), dict):
            self.error = str(whole["error"].get("message") or "error")[:500]
            return
        read = {
            "openai-chat": self._chat_chunk,
            "openai-responses": self._responses_whole,
            "anthropic-messages": self._anthropic_whole,
        }.get(self.protocol or "")
        if read is not None:
            read(whole)

    def finish(self) -> list[dict[str, Any]]:
        """The reply's tool calls, in order (call once, after the last ``feed``)."""
        if not self.stream and not self._overflow and self._buffer:
            try:
                whole = orjson.loads(bytes(self._buffer))
            except orjson.JSONDecodeError:
                whole = None
            self._buffer.clear()
            self._whole(whole)
        ordered = sorted(self._calls.items(), key=lambda kv: kv[0] if isinstance(kv[0], int) else 1_000_000)
        return [{"name": c.name, "namespace": c.namespace, "arguments": _arguments(c)} for _, c in ordered]
