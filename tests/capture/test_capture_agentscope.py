"""A real AgentScope 2.x Agent, with its own OpenAIChatModel, OpenAIResponseModel and
AnthropicChatModel (the official SDKs underneath), pointed at the capture server: the
scripted replies make it call reset_tools and then answer, and the capture shows the
tool list of every request, before and after the groups changed."""

from __future__ import annotations

from pathlib import Path

import pytest
from capture_helpers import tool_call, wait_records

from toolscope.core.capture.reply import Reply

pytestmark = pytest.mark.agentscope

SAMPLES = Path(__file__).resolve().parents[2] / "sample_configs" / "agentscope"
BASIC = ["reset_tools", "note_write"]
WITH_WEB = ["reset_tools", "note_write", "web_search", "page_fetch"]


def _model(kind: str, url: str, stream: bool):
    from agentscope.credential import AnthropicCredential, OpenAICredential
    from agentscope.model import AnthropicChatModel, OpenAIChatModel, OpenAIResponseModel

    if kind == "anthropic":
        credential = AnthropicCredential(api_key="sk-ant-test", base_url=url)
        return AnthropicChatModel(credential=credential, model="claude-opus-5-5", stream=stream, max_retries=0)
    credential = OpenAICredential(api_key="sk-test", base_url=f"{url}/v1")
    cls = OpenAIChatModel if kind == "chat" else OpenAIResponseModel
    return cls(credential=credential, model="gpt-4.1", stream=stream, max_retries=0)


@pytest.mark.parametrize(
    ("kind", "protocol", "stream"),
    [
        ("chat", "openai-chat", True),
        ("chat", "openai-chat", False),
        ("responses", "openai-responses", True),
        ("anthropic", "anthropic-messages", True),
    ],
)
async def test_agent_calls_reset_tools_and_the_next_request_carries_the_group(
    start_server, kind: str, protocol: str, stream: bool
) -> None:
    from agentscope.agent import Agent, ReActConfig
    from agentscope.message import UserMsg

    from toolscope.core.systems.agentscope.spec import load_toolkit_spec

    built = load_toolkit_spec(SAMPLES / "toolkit.yaml")
    server = start_server(
        [tool_call("reset_tools", {"web_search": True, "scraping": True}), Reply(text="done", source="scripted")]
    )
    agent = Agent(
        name="dbg",
        system_prompt="Test agent.",
        model=_model(kind, server.url, stream),
        toolkit=built.toolkit,
        state=built.state.model_copy(deep=True),
        react_config=ReActConfig(max_iters=4),
    )
    reply = await agent.reply(UserMsg(name="user", content="search for agentscope"))
    assert [b.text for b in reply.content if getattr(b, "type", "") == "text"] == ["done"]
    first, second = wait_records(server, 2)
    assert (first.protocol, first.stream) == (protocol, stream)
    assert [t.name for t in first.tools] == BASIC
    assert [(c.name, c.arguments) for c in first.reply.tool_calls] == [
        ("reset_tools", {"web_search": True, "scraping": True})
    ]
    assert [t.name for t in second.tools] == WITH_WEB
    assert second.tools[2].schema_bytes > 0 and second.system_bytes >= len("Test agent.")
    assert agent.state.tool_context.activated_groups == ["web_search", "scraping"]
