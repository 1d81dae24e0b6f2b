"""The capture server's Gemini API driven by the official google-genai SDK over HTTP (the lane:
importing the SDK costs seconds of CPU): a scripted function call round trip, streamed as SSE
and not; tools as functionDeclarations recorded; proxy mode forwarding to a scripted upstream
and recording both sides; the SDK's own error class for a Gemini-shaped error. The API key
(the SDK's ``x-goog-api-key``) is never recorded."""

from __future__ import annotations

import pytest
from capture_helpers import tool_call, wait_records
from google import genai
from google.genai import errors, types

from toolscope.core.capture.observed import request_from_record

KEY = "AIza-SECRET-gemini-key"
TOOLS = [
    types.Tool(
        function_declarations=[
            types.FunctionDeclaration(
                name="get_weather",
                description="The weather in a city.",
                parameters=types.Schema(type=types.Type.OBJECT, properties={"city": types.Schema(type="STRING")}),
            ),
            types.FunctionDeclaration(
                name="note_write", parameters_json_schema={"type": "object", "properties": {"text": {"type": "string"}}}
            ),
        ]
    )
]
CONFIG = types.GenerateContentConfig(
    tools=TOOLS,
    system_instruction="Be brief.",
    automatic_function_calling=types.AutomaticFunctionCallingConfig(disable=True),
)
QUESTION = types.Content(role="user", parts=[types.Part(text="Weather in Paris?")])


def _client(url: str) -> genai.Client:
    options = types.HttpOptions(base_url=url, api_version="v1beta", retry_options=types.HttpRetryOptions(attempts=1))
    return genai.Client(api_key=KEY, http_options=options)


def _generate(client: genai.Client, contents: list[types.Content], stream: bool) -> types.Content:
    if not stream:
        answer = client.models.generate_content(model="gemini-2.5-flash", contents=contents, config=CONFIG)
        return answer.candidates[0].content
    chunks = list(client.models.generate_content_stream(model="gemini-2.5-flash", contents=contents, config=CONFIG))
    return types.Content(role="model", parts=[part for chunk in chunks for part in chunk.candidates[0].content.parts])


@pytest.mark.parametrize("stream", [False, True])
def test_a_scripted_function_call_round_trip(start_server, stream: bool) -> None:
    server = start_server([tool_call("get_weather", {"city": "Paris"})], keep_messages=True)
    client = _client(server.url)
    call = _generate(client, [QUESTION], stream)
    assert [(p.function_call.name, p.function_call.args) for p in call.parts] == [("get_weather", {"city": "Paris"})]
    result = types.Part.from_function_response(name="get_weather", response={"output": "sunny"})
    answer = _generate(client, [QUESTION, call, types.Content(role="user", parts=[result])], stream)
    assert answer.parts[0].text == "ok"
    one, two = wait_records(server, 2)
    method = "streamGenerateContent" if stream else "generateContent"
    assert (one.protocol, one.model, one.stream, one.path) == (
        "gemini-generate",
        "gemini-2.5-flash",
        stream,
        f"/v1beta/models/gemini-2.5-flash:{method}",
    )
    assert [(t.name, t.type, t.deferred) for t in one.tools] == [("get_weather", "function", None)] + [
        ("note_write", "function", None)
    ]
    assert (one.system_bytes, one.messages, two.messages) == (len("Be brief."), 1, 3)
    assert [(c.name, c.arguments) for c in one.reply.tool_calls] == [("get_weather", {"city": "Paris"})]
    assert (one.reply.stop_reason, two.reply.source, two.reply.text_bytes) == ("STOP", "default", 2)
    # The comparison reads the result the second request carried back for the first reply's call.
    (result_seen,) = request_from_record(two, 2).results
    assert (result_seen.name, result_seen.text) == ("get_weather", "sunny")
    assert one.user_agent.startswith("google-genai-sdk/")
    assert KEY not in server.capture_path.read_text()


def test_proxy_mode_records_both_sides_without_the_key(start_server) -> None:
    upstream = start_server([tool_call("get_weather", {"city": "Oslo"})], name="up.jsonl")
    proxy = start_server(name="proxy.jsonl", upstream=upstream.url)
    client = _client(proxy.url)  # kept: a google-genai Client closes its connections when collected
    call = _generate(client, [QUESTION], stream=True)
    assert call.parts[0].function_call.name == "get_weather"
    (through,) = wait_records(proxy, 1)
    assert (through.mode, through.protocol, through.model, through.stream) == (
        "proxy",
        "gemini-generate",
        "gemini-2.5-flash",
        True,
    )
    assert [t.name for t in through.tools] == ["get_weather", "note_write"]
    assert [(c.name, c.arguments) for c in through.reply.tool_calls] == [("get_weather", {"city": "Oslo"})]
    assert through.reply.stop_reason == "STOP"
    assert [r.mode for r in wait_records(upstream, 1)] == ["scripted"]
    for server in (proxy, upstream):
        assert KEY not in server.capture_path.read_text()


def test_the_sdk_raises_its_own_error_class(start_server) -> None:
    server = start_server()
    client = _client(server.url)
    with pytest.raises(errors.ClientError) as caught:
        client.models.embed_content(model="gemini-embedding", contents="hi")  # :batchEmbedContents: not served
    assert caught.value.code == 404 and caught.value.status == "NOT_FOUND"
    assert "no endpoint POST '/v1beta/models/gemini-embedding:batchEmbedContents'" in caught.value.message
    (record,) = wait_records(server, 1)
    assert (record.protocol, record.error.kind) == (None, "unknown_path")
