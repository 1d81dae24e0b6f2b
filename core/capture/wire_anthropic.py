"""Anthropic Messages replies (``POST /v1/messages``, ``/v1/messages/count_tokens``), from the SDK's types.

Non-streaming: one ``Message``. Streaming: the events Claude Code needs (see
``shared/reference/coding-agent-clis.md`` §0), each as ``event: NAME`` + ``data: {...}``:
``message_start``, per block ``content_block_start`` / ``content_block_delta`` (``text_delta``
or ``input_json_delta``) / ``content_block_stop``, ``message_delta`` (stop reason, output
usage) and ``message_stop``. ``count_tokens`` answers ``MessageTokensCount``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import orjson
from anthropic.types import (
    InputJSONDelta,
    Message,
    MessageDeltaUsage,
    MessageTokensCount,
    RawContentBlockDeltaEvent,
    RawContentBlockStartEvent,
    RawContentBlockStopEvent,
    RawMessageDeltaEvent,
    RawMessageStartEvent,
    RawMessageStopEvent,
    TextBlock,
    TextDelta,
    ToolUseBlock,
    Usage,
)
from anthropic.types.raw_message_delta_event import Delta

from .reply import Reply, call_id, estimate_tokens


def _output_tokens(reply: Reply) -> int:
    return estimate_tokens(len(reply.text) + sum(len(c.arguments_json()) for c in reply.tool_calls))


def _blocks(reply: Reply, index: int) -> list[TextBlock | ToolUseBlock]:
    if reply.tool_calls:
        return [
            ToolUseBlock(type="tool_use", id=f"toolu_{call_id(index, n)}", name=c.name, input=c.arguments_object())
            for n, c in enumerate(reply.tool_calls)
        ]
    return [TextBlock(type="text", text=reply.text)]


def _message(model: str, index: int, content: list[Any], stop: str | None, usage: Usage) -> Message:
    return Message(
        id=f"msg_ts{index:05d}",
        type="message",
        role="assistant",
        model=model,
        content=content,
        stop_reason=stop,
        stop_sequence=None,
        usage=usage,
    )


def _stop(reply: Reply) -> str:
    return "tool_use" if reply.tool_calls else "end_turn"


def message_json(model: str, reply: Reply, index: int, prompt_tokens: int) -> bytes:
    """The whole ``Message`` body."""
    usage = Usage(input_tokens=prompt_tokens, output_tokens=_output_tokens(reply))
    message = _message(model, index, _blocks(reply, index), _stop(reply), usage)
    return message.model_dump_json(exclude_unset=True).encode()


def _sse(event: Any) -> bytes:
    data = event.model_dump_json(exclude_unset=True)
    return b"event: " + str(event.type).encode() + b"\ndata: " + data.encode() + b"\n\n"


def message_events(model: str, reply: Reply, index: int, prompt_tokens: int) -> Iterator[bytes]:
    """The SSE event stream of one message."""
    started = _message(model, index, [], None, Usage(input_tokens=prompt_tokens, output_tokens=1))
    yield _sse(RawMessageStartEvent(type="message_start", message=started))
    for position, block in enumerate(_blocks(reply, index)):
        if isinstance(block, ToolUseBlock):
            opening: TextBlock | ToolUseBlock = block.model_copy(update={"input": {}})
            delta: TextDelta | InputJSONDelta = InputJSONDelta(
                type="input_json_delta", partial_json=orjson.dumps(block.input).decode()
            )
        else:
            opening = TextBlock(type="text", text="")
            delta = TextDelta(type="text_delta", text=block.text)
        yield _sse(RawContentBlockStartEvent(type="content_block_start", index=position, content_block=opening))
        yield _sse(RawContentBlockDeltaEvent(type="content_block_delta", index=position, delta=delta))
        yield _sse(RawContentBlockStopEvent(type="content_block_stop", index=position))
    yield _sse(
        RawMessageDeltaEvent(
            type="message_delta",
            delta=Delta(stop_reason=_stop(reply), stop_sequence=None),  # type: ignore[arg-type]
            usage=MessageDeltaUsage(output_tokens=_output_tokens(reply)),
        )
    )
    yield _sse(RawMessageStopEvent(type="message_stop"))


def count_tokens_json(input_tokens: int) -> bytes:
    """The ``count_tokens`` answer: the estimate over the request's compact JSON."""
    return MessageTokensCount(input_tokens=input_tokens).model_dump_json(exclude_unset=True).encode()
