"""OpenAI Chat Completions replies (``POST /v1/chat/completions``), built from the SDK's own types.

Non-streaming: one ``ChatCompletion``. Streaming: ``ChatCompletionChunk`` events as
``data: {...}`` lines (role first, then the text or each tool call's name and arguments,
then ``finish_reason``, a usage chunk when ``stream_options.include_usage`` asks for it)
and ``data: [DONE]``, as the API sends them. Fields are written only when set
(``exclude_unset``), like the API's own JSON.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

from openai.types.chat import ChatCompletion, ChatCompletionChunk, ChatCompletionMessage
from openai.types.chat.chat_completion import Choice
from openai.types.chat.chat_completion_chunk import Choice as ChunkChoice
from openai.types.chat.chat_completion_chunk import ChoiceDelta, ChoiceDeltaToolCall, ChoiceDeltaToolCallFunction
from openai.types.chat.chat_completion_message_function_tool_call import (
    ChatCompletionMessageFunctionToolCall,
    Function,
)
from openai.types.completion_usage import CompletionUsage

from .reply import Reply, call_id, estimate_tokens


def _usage(prompt_tokens: int, reply: Reply) -> CompletionUsage:
    completion = estimate_tokens(len(reply.text) + sum(len(c.arguments_json()) for c in reply.tool_calls))
    return CompletionUsage(
        prompt_tokens=prompt_tokens, completion_tokens=completion, total_tokens=prompt_tokens + completion
    )


def completion_json(model: str, reply: Reply, index: int, prompt_tokens: int) -> bytes:
    """The whole ``ChatCompletion`` body."""
    calls = [
        ChatCompletionMessageFunctionToolCall(
            id=call_id(index, n), type="function", function=Function(name=c.name, arguments=c.arguments_json())
        )
        for n, c in enumerate(reply.tool_calls)
    ]
    message = ChatCompletionMessage(
        role="assistant",
        content=None if calls else reply.text,
        refusal=None,
        **({"tool_calls": calls} if calls else {}),
    )
    completion = ChatCompletion(
        id=f"chatcmpl-ts{index:05d}",
        object="chat.completion",
        created=int(time.time()),
        model=model,
        choices=[Choice(index=0, message=message, finish_reason="tool_calls" if calls else "stop", logprobs=None)],
        usage=_usage(prompt_tokens, reply),
    )
    return completion.model_dump_json(exclude_unset=True).encode()


def completion_events(model: str, reply: Reply, index: int, prompt_tokens: int, stream_options: Any) -> Iterator[bytes]:
    """The SSE stream of ``ChatCompletionChunk`` events, ending with ``data: [DONE]``."""
    created = int(time.time())
    base = {"id": f"chatcmpl-ts{index:05d}", "object": "chat.completion.chunk", "created": created, "model": model}

    def chunk(delta: ChoiceDelta, finish: Any = None) -> bytes:
        event = ChatCompletionChunk(
            **base, choices=[ChunkChoice(index=0, delta=delta, finish_reason=finish, logprobs=None)]
        )
        return b"data: " + event.model_dump_json(exclude_unset=True).encode() + b"\n\n"

    yield chunk(ChoiceDelta(role="assistant", content="" if not reply.tool_calls else None))
    if reply.tool_calls:
        for n, call in enumerate(reply.tool_calls):
            start = ChoiceDeltaToolCall(
                index=n,
                id=call_id(index, n),
                type="function",
                function=ChoiceDeltaToolCallFunction(name=call.name, arguments=""),
            )
            yield chunk(ChoiceDelta(tool_calls=[start]))
            arguments = ChoiceDeltaToolCallFunction(arguments=call.arguments_json())
            yield chunk(ChoiceDelta(tool_calls=[ChoiceDeltaToolCall(index=n, function=arguments)]))
    elif reply.text:
        yield chunk(ChoiceDelta(content=reply.text))
    yield chunk(ChoiceDelta(), "tool_calls" if reply.tool_calls else "stop")
    if isinstance(stream_options, dict) and stream_options.get("include_usage"):
        usage = ChatCompletionChunk(**base, choices=[], usage=_usage(prompt_tokens, reply))
        yield b"data: " + usage.model_dump_json(exclude_unset=True).encode() + b"\n\n"
    yield b"data: [DONE]\n\n"
