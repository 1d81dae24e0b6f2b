"""The fast decoding of a request body (msgspec, tools kept as their bytes) gives the same facts
as building the whole body as Python objects; unusual shapes fall back to that slow path."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from toolscope.core.capture import request_decode
from toolscope.core.capture.request_body import BadRequest, read_head
from toolscope.core.capture.request_decode import Unusual, decode_facts, decode_head
from toolscope.core.capture.request_facts import request_facts

SCHEMA = {"type": "object", "properties": {"id": {"type": "string", "description": 'The record\'s id, e.g. "a1".'}}}

CHAT = {
    "model": "gpt-x",
    "stream": True,
    "stream_options": {"include_usage": True},
    "messages": [
        {"role": "system", "content": "Be brief."},
        {"role": "developer", "content": [{"type": "text", "text": "Use tools."}, {"type": "image_url"}]},
        {"role": "user", "content": "hi, café"},
        {"role": "assistant", "content": None, "tool_calls": [{"id": "c1", "type": "function"}]},
    ],
    "tools": [
        {"type": "function", "function": {"name": "reset_tools", "description": "Résumé", "parameters": SCHEMA}},
        {"type": "custom", "custom": {"name": "apply_patch", "format": {"type": "text"}}},
        {"function": {"name": "no_type_given", "parameters": SCHEMA}},
    ],
    "tool_choice": {"type": "function", "function": {"name": "reset_tools"}},
}

ANTHROPIC = {
    "model": "claude-x",
    "max_tokens": 10,
    "system": [
        {"type": "text", "text": "You are Claude Code."},
        {
            "type": "text",
            "text": "The following deferred tools are now available via ToolSearch:\nmcp__a__one\nmcp__a__two\n</x>",
        },
    ],
    "messages": [{"role": "user", "content": [{"type": "text", "text": "hi"}]}],
    "tools": [
        {"name": "Bash", "description": "Run a command", "input_schema": SCHEMA},
        {"name": "mcp__a__one", "input_schema": SCHEMA, "defer_loading": True},
        {"type": "web_search_20250305", "name": "web_search", "max_uses": 5},
    ],
    "tool_choice": {"type": "auto"},
}

RESPONSES = {
    "model": "gpt-5",
    "instructions": "You are Codex.",
    "input": [
        {
            "type": "message",
            "role": "developer",
            "content": [{"type": "input_text", "text": "Deferred tool namespaces:\n- mcp__docs: Docs tools\n"}],
        },
        {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "hi"}]},
        {"type": "function_call_output", "call_id": "c", "output": "done"},
    ],
    "tools": [
        {"type": "function", "name": "shell", "parameters": SCHEMA, "strict": False},
        {"type": "function", "name": "late", "parameters": SCHEMA, "defer_loading": True},
        {
            "type": "namespace",
            "name": "mcp__docs",
            "description": "Docs",
            "tools": [
                {"type": "function", "name": "search", "parameters": SCHEMA, "defer_loading": True},
                {"name": "typeless"},
            ],
        },
        {"type": "tool_search"},
        {"type": "web_search", "defer_loading": False},
        {"type": "mcp", "server_label": "remote"},
    ],
    "tool_choice": "auto",
}

# What the google-genai SDK sent (recorded by fixtures/record_gemini_sdk.py): a call round trip,
# a stream and a token count.
GEMINI_SDK = [
    json.loads(json.loads(line)["body"])
    for line in (Path(__file__).parent / "fixtures" / "gemini_sdk.requests.jsonl").read_text().splitlines()
]
GEMINI = GEMINI_SDK[0]
GEMINI_SNAKE = {
    "contents": [{"role": "user", "parts": [{"text": "hi"}]}],
    "system_instruction": {"parts": [{"text": "Be"}, {"text": " brief."}]},
    "tool_config": {"function_calling_config": {"mode": "ANY"}},
    "tools": [
        {"function_declarations": [{"name": "a", "parameters": SCHEMA}]},
        {"googleSearch": {}},
        {"codeExecution": {}, "functionDeclarations": [{"name": "b", "parametersJsonSchema": SCHEMA}]},
    ],
}

USUAL = [
    *[("gemini-generate", body) for body in GEMINI_SDK[:3]],
    ("gemini-count-tokens", GEMINI_SDK[3]),
    ("gemini-generate", GEMINI_SNAKE),
    ("gemini-generate", {"contents": [], "tools": [{"functionDeclarations": []}], "systemInstruction": "a string"}),
    ("openai-chat", CHAT),
    ("anthropic-messages", ANTHROPIC),
    ("anthropic-count-tokens", ANTHROPIC),
    ("openai-responses", RESPONSES),
    ("openai-responses", {**RESPONSES, "input": "just a string"}),
    ("openai-responses", {"model": "m"}),
    ("openai-chat", {"model": "m", "messages": []}),
    ("openai-responses", {**RESPONSES, "tools": [{"type": "namespace", "name": None, "tools": [{"name": "x"}]}]}),
]

UNUSUAL = [
    ("openai-chat", {**CHAT, "tools": ["not an object", *CHAT["tools"]]}),
    ("openai-chat", {**CHAT, "tools": [{"type": "web_search", "web_search": {"name": "w"}}]}),
    ("openai-chat", {**CHAT, "tools": [{"type": "function", "function": "not an object", "name": "n"}]}),
    ("openai-chat", {**CHAT, "messages": "a string"}),
    ("anthropic-messages", {**ANTHROPIC, "messages": [["a list"]]}),
    ("anthropic-messages", {**ANTHROPIC, "tools": {"name": "not a list"}}),
    ("openai-responses", {**RESPONSES, "input": {"role": "system", "content": "an object"}}),
    ("openai-responses", {**RESPONSES, "tools": [{"type": "namespace", "tools": ["x", {"name": "y"}]}]}),
    ("gemini-generate", {**GEMINI, "tools": ["not an object"]}),
    ("gemini-generate", {**GEMINI, "tools": [{"functionDeclarations": ["x", {"name": "y"}]}]}),
    ("gemini-generate", {**GEMINI, "tools": [{"functionDeclarations": {"name": "not a list"}}]}),
    ("gemini-generate", {**GEMINI, "contents": "a string"}),
    ("openai-chat", {**CHAT, "big": 123456789012345678901234567890}),
]


def _compact(body: Any) -> bytes:
    # How httpx (under the openai and anthropic SDKs) writes a JSON body.
    return json.dumps(body, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode()


def _pretty(body: Any) -> bytes:
    return json.dumps(body, ensure_ascii=False, indent=2).encode()


@pytest.mark.parametrize(("protocol", "body"), USUAL + UNUSUAL)
@pytest.mark.parametrize("encode", [_compact, _pretty])
def test_the_fast_path_gives_the_slow_paths_facts(protocol: str, body: dict[str, Any], encode) -> None:
    raw = encode(body)
    assert decode_facts(protocol, raw) == request_facts(protocol, json.loads(raw))


@pytest.mark.parametrize(("protocol", "body"), USUAL)
def test_usual_bodies_take_the_fast_path(protocol: str, body: dict[str, Any]) -> None:
    facts = request_decode._fast_facts(protocol, _compact(body))  # raises Unusual when it would fall back
    assert facts == request_facts(protocol, body)


@pytest.mark.parametrize(("protocol", "body"), UNUSUAL[:-1])
def test_unusual_bodies_are_left_to_the_slow_path(protocol: str, body: dict[str, Any]) -> None:
    import msgspec

    with pytest.raises((Unusual, msgspec.ValidationError)):
        request_decode._fast_facts(protocol, _compact(body))


def test_a_tool_is_measured_as_sent_without_whitespace() -> None:
    compact = decode_facts("openai-chat", _compact(CHAT)).tools
    pretty = decode_facts("openai-chat", _pretty(CHAT)).tools
    assert [t["schema_bytes"] for t in compact] == [t["schema_bytes"] for t in pretty]
    assert compact[0]["schema_bytes"] == len(_compact(CHAT["tools"][0]))


def test_the_head_is_read_and_bad_bodies_are_refused_by_kind() -> None:
    head = decode_head(_compact(CHAT))
    assert (head.model, head.stream, head.stream_options) == ("gpt-x", True, {"include_usage": True})
    assert read_head(_compact({"model": 1, "n": 123456789012345678901234567890})).model == 1
    for raw, kind in [
        (b'{"model": ', "malformed_json"),
        (b'{"model":"x","messages":[1,,2]}', "malformed_json"),
        (b"  ", "empty_body"),
        (b"[1, 2]", "not_an_object"),
    ]:
        with pytest.raises(BadRequest) as refused:
            read_head(raw)
        assert refused.value.kind == kind and refused.value.status == 400


def test_gemini_tools_are_one_entry_per_declaration_and_builtins_by_key() -> None:
    sdk = decode_facts("gemini-generate", json.dumps(GEMINI).encode())
    # The SDK's Schema (``parameters``) and a JSON schema (sent as ``parameters_json_schema``) alike.
    assert [(t["name"], t["type"]) for t in sdk.tools] == [("get_weather", "function"), ("note_write", "function")]
    declarations = GEMINI["tools"][0]["functionDeclarations"]
    assert [t["schema_bytes"] for t in sdk.tools] == [len(_compact(d)) for d in declarations]
    assert (sdk.system_bytes, sdk.messages, sdk.tool_choice) == (9, 1, {"functionCallingConfig": {"mode": "AUTO"}})
    assert "parameters_json_schema" in json.dumps(declarations[1])
    snake = decode_facts("gemini-generate", _compact(GEMINI_SNAKE))
    assert [(t["name"], t["type"]) for t in snake.tools] == [
        ("a", "function"),
        ("googleSearch", "googleSearch"),
        ("codeExecution", "codeExecution"),
        ("b", "function"),
    ]
    assert (snake.system_bytes, snake.tool_choice) == (len("Be brief."), {"function_calling_config": {"mode": "ANY"}})
    assert snake.tools[1]["schema_bytes"] == len(b'{"googleSearch":{}}')
