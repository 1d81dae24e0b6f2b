"""Decoding a request body once, reading only what the reply and the record need (msgspec).

A 1,000-tool request is about 250 KB of JSON. Building it as Python objects
(``orjson.loads``) and then serializing each tool again to learn its size cost more than
the rest of the request together (``benchmarks/capture_bench.py``, profiled with py-spy).
msgspec decodes into declared fields only and validates what it skips without building
it, so:

* every request (recording on or off) is decoded into ``_Head`` (model, stream,
  stream_options): the whole body is checked to be JSON, nothing else is built;
* a recorded request is decoded into its protocol's struct, where each tool is
  ``msgspec.Raw`` (its bytes as sent: the size, with no re-encoding), and decoded a second
  time for the tools' names and markers only.

Anything of an unexpected shape (a tool that is not an object, a message that is a string,
JSON that msgspec refuses) falls back to ``request_facts`` on the whole body built as
Python objects: the slow path gives the same facts (``tests/capture/test_request_decode.py``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import msgspec
import orjson

from .request_facts import (
    _CLAUDE_DEFERRED,
    _CODEX_DEFERRED,
    _DECLARATIONS,
    _SYSTEM_ROLES,
    MAX_TOOLS,
    RequestFacts,
    _listed,
    _text,
    gemini_text,
    request_facts,
    tool_entry,
)

_NULL = msgspec.Raw(b"null")


class _Head(msgspec.Struct):
    model: Any = None
    stream: Any = None
    stream_options: Any = None


class _Message(msgspec.Struct):
    role: Any = None
    content: msgspec.Raw = _NULL


class _ChatBody(msgspec.Struct):
    model: Any = None
    stream: Any = None
    stream_options: Any = None
    tools: list[msgspec.Raw] | None = None
    tool_choice: Any = None
    messages: list[_Message] | None = None


class _AnthropicBody(msgspec.Struct):
    model: Any = None
    stream: Any = None
    tools: list[msgspec.Raw] | None = None
    tool_choice: Any = None
    system: Any = None
    messages: list[_Message] | None = None


class _ResponsesBody(msgspec.Struct):
    model: Any = None
    stream: Any = None
    tools: list[msgspec.Raw] | None = None
    tool_choice: Any = None
    instructions: Any = None
    input: msgspec.Raw = _NULL


class _GeminiBody(msgspec.Struct):
    # Both spellings the API reads (camelCase from the SDKs and Gemini CLI, snake_case).
    tools: list[dict[str, msgspec.Raw]] | None = None
    contents: list[msgspec.Raw] | None = None
    system_camel: Any = msgspec.field(default=msgspec.UNSET, name="systemInstruction")
    system_snake: Any = msgspec.field(default=None, name="system_instruction")
    config_camel: Any = msgspec.field(default=msgspec.UNSET, name="toolConfig")
    config_snake: Any = msgspec.field(default=None, name="tool_config")


class _Named(msgspec.Struct):
    name: Any = None


class _ChatTool(msgspec.Struct):
    type: Any = "function"
    function: _Named | None = None
    custom: _Named | None = None
    name: Any = None


class _AnthropicTool(msgspec.Struct):
    name: Any = None
    type: Any = "custom"
    defer_loading: Any = None


class _Member(msgspec.Struct):
    name: Any = None
    type: Any = None
    defer_loading: Any = None


class _ResponsesTool(msgspec.Struct):
    type: Any = None
    name: Any = msgspec.UNSET
    server_label: Any = None
    defer_loading: Any = msgspec.UNSET
    tools: list[msgspec.Raw] | None = None


_HEAD = msgspec.json.Decoder(_Head)
_BODIES: dict[str, msgspec.json.Decoder[Any]] = {
    "openai-chat": msgspec.json.Decoder(_ChatBody),
    "openai-responses": msgspec.json.Decoder(_ResponsesBody),
    "anthropic-messages": msgspec.json.Decoder(_AnthropicBody),
    "anthropic-count-tokens": msgspec.json.Decoder(_AnthropicBody),
}


class _ChatTools(msgspec.Struct):
    tools: list[_ChatTool] | None = None


class _AnthropicTools(msgspec.Struct):
    tools: list[_AnthropicTool] | None = None


class _ResponsesTools(msgspec.Struct):
    tools: list[_ResponsesTool] | None = None


# The tools' names and markers: a second decode of the body, every other field skipped
# (cheaper than joining the tools' bytes into a list and decoding that).
_CHAT_TOOLS = msgspec.json.Decoder(_ChatTools)
_ANTHROPIC_TOOLS = msgspec.json.Decoder(_AnthropicTools)
_RESPONSES_TOOLS = msgspec.json.Decoder(_ResponsesTools)
_RESPONSES_MEMBERS = msgspec.json.Decoder(list[_Member])
_MESSAGES = msgspec.json.Decoder(list[_Message])
_GEMINI = msgspec.json.Decoder(_GeminiBody)
_RAW_LIST = msgspec.json.Decoder(list[msgspec.Raw])
_NAMED_LIST = msgspec.json.Decoder(list[_Named])
_ANY = msgspec.json.Decoder()


class Unusual(Exception):
    """The body is JSON of a shape the fast path does not read: use the slow path."""


@dataclass(frozen=True)
class Head:
    """What the reply needs from a request: the model asked for, streaming, stream options."""

    model: Any
    stream: Any
    stream_options: Any


def decode_head(raw: bytes) -> Head:
    """The reply's fields of a JSON object body; ``Unusual`` for anything msgspec refuses."""
    try:
        head = _HEAD.decode(raw)
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        raise Unusual(str(exc)) from None
    return Head(head.model, head.stream, head.stream_options)


def decode_facts(protocol: str, raw: bytes) -> RequestFacts:
    """``request_facts`` of a raw body: the fast path, or the slow one for unusual shapes."""
    try:
        return _fast_facts(protocol, raw)
    except (Unusual, msgspec.DecodeError, msgspec.ValidationError):
        return request_facts(protocol, loads(raw))


def loads(raw: bytes) -> Any:
    """The body as Python objects (orjson; integers beyond 64 bits through the json module)."""
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError:
        import json

        return json.loads(raw)


def _fast_facts(protocol: str, raw: bytes) -> RequestFacts:
    if protocol.startswith("gemini-"):
        return _gemini_facts(raw)
    body = _BODIES[protocol].decode(raw)
    tools = (body.tools or [])[:MAX_TOOLS]
    compact = _compact(raw)
    system_text: list[str] = []
    if protocol == "openai-responses":
        entries = _responses_entries(raw, tools, compact)
        system_text.append(_text(body.instructions))
        messages = _input_items(body.input)
    else:
        messages = body.messages or []
        if protocol == "openai-chat":
            entries = _chat_entries(raw, tools, compact)
        else:
            entries = _anthropic_entries(raw, tools, compact)
            system_text.append(_text(body.system))
    for message in messages:
        if message.role in _SYSTEM_ROLES:
            system_text.append(_text(_ANY.decode(message.content)))
    joined = "\n".join(t for t in system_text if t)
    return RequestFacts(
        model=body.model if isinstance(body.model, str) else None,
        stream=body.stream is True,
        tools=entries,
        deferred_names=_listed(joined, _CLAUDE_DEFERRED) if _CLAUDE_DEFERRED in joined else [],
        deferred_namespaces=_listed(joined, _CODEX_DEFERRED) if _CODEX_DEFERRED in joined else [],
        tool_choice=body.tool_choice,
        system_bytes=len(joined.encode("utf-8", "replace")),
        messages=len(messages),
    )


def _input_items(raw: msgspec.Raw) -> list[_Message]:
    # ``input`` is a list of items, or one string (a single user turn), or absent.
    if bytes(memoryview(raw)[:1]) == b"[":
        return _MESSAGES.decode(raw)
    items = _ANY.decode(raw)
    if isinstance(items, dict):
        raise Unusual("input is an object")
    return [_Message()] if items else []


def _compact(raw: bytes) -> bool:
    # Whether each tool's bytes as sent are its compact size. Serializers space a whole body
    # alike: compact ones (httpx under the SDKs, Node's JSON.stringify, serde_json) write
    # '{"key":value' and no newline at all (a newline inside a string is escaped), while
    # spaced or indented ones show it at the first key ('{"key": ' or '{\n'). Reading the
    # first key is O(1); scanning 250 KB for '": ' costs more than decoding them. When not
    # compact, each tool is compacted (msgspec.json.format) before it is measured.
    if raw[:2] != b'{"' or b"\n" in raw:
        return False
    end = raw.find(b'"', 2)
    return end > 0 and raw[end + 1 : end + 2] == b":" and raw[end + 2 : end + 3] not in b" \t\r"


def _size(raw: msgspec.Raw, compact: bool) -> int:
    return len(raw) if compact else len(msgspec.json.format(raw, indent=-1))


def _joined(tools: list[msgspec.Raw]) -> bytes:
    return b"[" + b",".join(tools) + b"]"


def _typed(decoder: msgspec.json.Decoder[Any], raw: bytes, count: int) -> list[Any]:
    return (decoder.decode(raw).tools or [])[:count]


def _chat_entries(body: bytes, tools: list[msgspec.Raw], compact: bool) -> list[dict[str, Any]]:
    typed = _typed(_CHAT_TOOLS, body, len(tools))
    names = []
    for tool in typed:
        kind = tool.type
        # The slow path reads the name from tool[type] for any type; here only the two typed ones.
        if kind == "function":
            inner = tool.function
        elif kind == "custom":
            inner = tool.custom
        else:
            raise Unusual(f"a chat tool of type {kind!r}")
        name = inner.name if inner is not None else tool.name
        names.append(name if isinstance(name, str) else "")
    sizes = [len(raw) for raw in tools] if compact else [_size(raw, compact) for raw in tools]
    # ``tool_entry`` written out inline: the hot loop of a 1,000-tool request, where a call per
    # tool made the whole decode about 1.3x slower (0.63 -> 0.84 ms, measured side by side).
    return [
        {
            "name": name,
            "namespace": None,
            "type": tool.type,
            "schema_bytes": size,
            "token_estimate": (size + 3) // 4,
            "deferred": None,
        }
        for name, tool, size in zip(names, typed, sizes, strict=True)
    ]


def _anthropic_entries(body: bytes, tools: list[msgspec.Raw], compact: bool) -> list[dict[str, Any]]:
    decoded = _typed(_ANTHROPIC_TOOLS, body, len(tools))
    return [
        tool_entry(tool.name, None, tool.type, _size(raw, compact), tool.defer_loading is True)
        for raw, tool in zip(tools, decoded, strict=True)
    ]


def _responses_entries(body: bytes, tools: list[msgspec.Raw], compact: bool) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for raw, tool in zip(tools, _typed(_RESPONSES_TOOLS, body, len(tools)), strict=True):
        kind = tool.type
        if kind == "namespace" and tool.tools is not None:
            namespace = "" if tool.name is msgspec.UNSET else str(tool.name)
            members = tool.tools[:MAX_TOOLS]
            for member_raw, member in zip(members, _RESPONSES_MEMBERS.decode(_joined(members)), strict=True):
                deferred = member.defer_loading is True
                out.append(tool_entry(member.name, namespace, member.type, _size(member_raw, compact), deferred))
            continue
        deferred_marker = tool.defer_loading is not msgspec.UNSET
        if kind in ("function", "custom"):
            out.append(tool_entry(tool.name, None, kind, _size(raw, compact), tool.defer_loading is True))
        else:
            name = tool.name or tool.server_label or kind
            marked = (tool.defer_loading is True) if deferred_marker else None
            out.append(tool_entry(name, None, kind, _size(raw, compact), marked))
    return out


def _gemini_facts(raw: bytes) -> RequestFacts:
    body = _GEMINI.decode(raw)
    compact = _compact(raw)
    entries: list[dict[str, Any]] = []
    for tool in (body.tools or [])[:MAX_TOOLS]:
        for key, value in tool.items():
            if key in _DECLARATIONS:
                entries += _declaration_entries(value, compact)
            else:
                # The slow path's size of ``{key: value}``: the key's JSON, the value's, braces and colon.
                size = len(msgspec.json.encode(key)) + _size(value, compact) + 3
                entries.append(tool_entry(key, None, key, size, None))
    text = gemini_text(body.system_snake if body.system_camel is msgspec.UNSET else body.system_camel)
    return RequestFacts(
        model=None,
        stream=False,
        tools=entries[:MAX_TOOLS],
        deferred_names=[],
        deferred_namespaces=[],
        tool_choice=body.config_snake if body.config_camel is msgspec.UNSET else body.config_camel,
        system_bytes=len(text.encode("utf-8", "replace")),
        messages=len(body.contents or []),
    )


def _declaration_entries(value: msgspec.Raw, compact: bool) -> list[dict[str, Any]]:
    # Each declaration's bytes as sent (its size), then the same list again for the names only.
    declarations = _RAW_LIST.decode(value)[:MAX_TOOLS]
    names = _NAMED_LIST.decode(value)[:MAX_TOOLS]
    return [
        tool_entry(named.name, None, "function", _size(item, compact), None)
        for item, named in zip(declarations, names, strict=True)
    ]
