"""The official openai and anthropic SDKs against the capture server over HTTP, streaming and not:
the SDKs parse every reply into their own types, and each request's tools land in the capture."""

from __future__ import annotations

import anthropic
import openai
import pytest
from capture_helpers import tool_call, wait_records

from toolscope.core.capture.reply import Reply

CHAT_TOOLS = [
    {"type": "function", "function": {"name": "reset_tools", "parameters": {"type": "object", "properties": {}}}},
    {
        "type": "function",
        "function": {"name": "note_write", "description": "Write a note.", "parameters": {"type": "object"}},
    },
]
RESPONSES_TOOLS = [
    {"type": "function", "name": "reset_tools", "parameters": {"type": "object", "properties": {}}},
    {"type": "function", "name": "web_search", "parameters": {"type": "object"}, "defer_loading": True},
    {
        "type": "namespace",
        "name": "mcp__time",
        "description": "Tools in the mcp__time namespace.",
        "tools": [{"type": "function", "name": "get_current_time", "parameters": {"type": "object"}}],
    },
    {"type": "tool_search"},
]
ANTHROPIC_TOOLS = [
    {"name": "reset_tools", "input_schema": {"type": "object"}},
    {"name": "mcp__time__get_time", "input_schema": {"type": "object"}, "defer_loading": True},
]
SCRIPT = [tool_call("reset_tools", {"web_search": True}), Reply(text="done", source="scripted")]


@pytest.mark.parametrize("stream", [False, True])
def test_openai_chat_completions(start_server, stream: bool) -> None:
    server = start_server(SCRIPT)
    client = openai.OpenAI(base_url=f"{server.url}/v1", api_key="sk-test-secret", max_retries=0)
    messages = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "hi"}]
    if stream:
        with client.chat.completions.stream(model="gpt-4.1", messages=messages, tools=CHAT_TOOLS) as events:
            first = events.get_final_completion().choices[0].message
        with client.chat.completions.stream(model="gpt-4.1", messages=messages, tools=CHAT_TOOLS[:1]) as events:
            second = events.get_final_completion().choices[0].message
    else:
        first = client.chat.completions.create(model="gpt-4.1", messages=messages, tools=CHAT_TOOLS).choices[0].message
        second = (
            client.chat.completions.create(model="gpt-4.1", messages=messages, tools=CHAT_TOOLS[:1]).choices[0].message
        )
    assert first.tool_calls[0].function.name == "reset_tools"
    assert first.tool_calls[0].function.arguments == '{"web_search":true}'
    assert second.content == "done" and not second.tool_calls
    one, two = wait_records(server, 2)
    assert (one.protocol, one.stream, one.model) == ("openai-chat", stream, "gpt-4.1")
    assert [t.name for t in one.tools] == ["reset_tools", "note_write"] and [t.name for t in two.tools] == [
        "reset_tools"
    ]
    assert one.tools[0].deferred is None and one.tools[0].type == "function"
    assert one.system_bytes == len("Be brief.") and one.messages == 2
    assert [(c.name, c.arguments) for c in one.reply.tool_calls] == [("reset_tools", {"web_search": True})]
    assert two.reply.tool_calls == [] and two.reply.source == "scripted" and two.reply.error is None
    assert one.user_agent.startswith("OpenAI/Python")
    assert "sk-test-secret" not in server.capture_path.read_text()


@pytest.mark.parametrize("stream", [False, True])
def test_openai_responses(start_server, stream: bool) -> None:
    server = start_server([tool_call("get_current_time", {"tz": "UTC"}, namespace="mcp__time")])
    client = openai.OpenAI(base_url=f"{server.url}/v1", api_key="sk-test", max_retries=0)
    kwargs = {"model": "gpt-5", "input": "hi", "instructions": "Be brief.", "tools": RESPONSES_TOOLS}
    if stream:
        with client.responses.stream(**kwargs) as events:
            kinds = [event.type for event in events]
            first = events.get_final_response()
        assert kinds[0] == "response.created" and kinds[-1] == "response.completed"
        with client.responses.stream(**kwargs) as events:
            second = events.get_final_response()
    else:
        first = client.responses.create(**kwargs)
        second = client.responses.create(**kwargs)
    call = first.output[0]
    assert (call.type, call.name, call.namespace, call.arguments) == (
        "function_call",
        "get_current_time",
        "mcp__time",
        '{"tz":"UTC"}',
    )
    assert second.output_text == "ok"
    one, two = wait_records(server, 2)
    assert one.protocol == "openai-responses" and one.stream is stream
    assert [(t.name, t.namespace, t.deferred) for t in one.tools] == [
        ("reset_tools", None, False),
        ("web_search", None, True),
        ("get_current_time", "mcp__time", False),
        ("tool_search", None, None),
    ]
    assert one.system_bytes == len("Be brief.")
    assert [(c.name, c.namespace) for c in one.reply.tool_calls] == [("get_current_time", "mcp__time")]
    assert two.reply.source == "default" and two.reply.stop_reason == "completed"


@pytest.mark.parametrize("stream", [False, True])
def test_anthropic_messages_and_count_tokens(start_server, stream: bool) -> None:
    server = start_server(SCRIPT)
    client = anthropic.Anthropic(base_url=server.url, api_key="sk-ant-secret", max_retries=0)
    kwargs = {
        "model": "claude-opus-5-5",
        "max_tokens": 100,
        "system": "Be brief.",
        "messages": [{"role": "user", "content": "hi"}],
        "tools": ANTHROPIC_TOOLS,
    }
    count = client.messages.count_tokens(model="claude-opus-5-5", messages=kwargs["messages"], tools=ANTHROPIC_TOOLS)
    assert count.input_tokens > 0
    if stream:
        with client.messages.stream(**kwargs) as events:
            first = events.get_final_message()
        with client.messages.stream(**kwargs) as events:
            assert events.get_final_text() == "done"
    else:
        first = client.messages.create(**kwargs)
        assert client.messages.create(**kwargs).content[0].text == "done"
    block = first.content[0]
    assert (block.type, block.name, block.input) == ("tool_use", "reset_tools", {"web_search": True})
    assert first.stop_reason == "tool_use"
    counted, one, two = wait_records(server, 3)
    assert counted.protocol == "anthropic-count-tokens" and counted.reply.tool_calls == []
    assert one.protocol == "anthropic-messages" and one.stream is stream
    assert [(t.name, t.deferred) for t in one.tools] == [("reset_tools", False), ("mcp__time__get_time", True)]
    assert one.reply.stop_reason == "tool_use" and two.reply.stop_reason == "end_turn"
    assert "sk-ant-secret" not in server.capture_path.read_text()


def test_model_listings(start_server) -> None:
    server = start_server()
    assert [m.id for m in openai.OpenAI(base_url=f"{server.url}/v1", api_key="k").models.list()] == [
        "toolscope-capture"
    ]
    assert [m.id for m in anthropic.Anthropic(base_url=server.url, api_key="k").models.list()] == ["toolscope-capture"]
    assert openai.OpenAI(base_url=f"{server.url}/v1", api_key="k").models.retrieve("gpt-x").id == "gpt-x"


def test_keep_messages_keeps_the_text_and_nothing_else_does(start_server) -> None:
    quiet = start_server(name="quiet.jsonl")
    kept = start_server(name="kept.jsonl", keep_messages=True)
    for server in (quiet, kept):
        client = anthropic.Anthropic(base_url=server.url, api_key="k", max_retries=0)
        client.messages.create(
            model="c", max_tokens=5, system="SYSTEM-TEXT", messages=[{"role": "user", "content": "USER-TEXT"}]
        )
    assert "USER-TEXT" not in quiet.capture_path.read_text() and "SYSTEM-TEXT" not in quiet.capture_path.read_text()
    (record,) = wait_records(kept, 1)
    assert record.kept.system == "SYSTEM-TEXT" and record.kept.messages == [{"role": "user", "content": "USER-TEXT"}]
    assert record.kept.reply_text == "ok"
