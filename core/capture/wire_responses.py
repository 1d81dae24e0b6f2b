"""OpenAI Responses replies (``POST /v1/responses``), built from the SDK's own types.

Non-streaming: one ``Response``. Streaming: the event sequence Codex needs (see
``shared/reference/coding-agent-clis.md`` §0) with ``event:`` names and sequence numbers:
``response.created``, ``response.in_progress``, then per output item
``response.output_item.added``, (message: ``content_part.added``, ``output_text.delta``,
``output_text.done``, ``content_part.done``; function call: ``function_call_arguments.delta``
and ``.done``), ``response.output_item.done``, and ``response.completed``.
A tool call with a ``namespace`` (Codex's MCP tools) carries it on the ``function_call`` item.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

from openai.types.responses import (
    Response,
    ResponseCompletedEvent,
    ResponseContentPartAddedEvent,
    ResponseContentPartDoneEvent,
    ResponseCreatedEvent,
    ResponseFunctionCallArgumentsDeltaEvent,
    ResponseFunctionCallArgumentsDoneEvent,
    ResponseFunctionToolCall,
    ResponseInProgressEvent,
    ResponseOutputItemAddedEvent,
    ResponseOutputItemDoneEvent,
    ResponseOutputMessage,
    ResponseOutputText,
    ResponseTextDeltaEvent,
    ResponseTextDoneEvent,
    ResponseUsage,
)
from openai.types.responses.response_usage import InputTokensDetails, OutputTokensDetails

from .reply import Reply, call_id, estimate_tokens


def _usage(prompt_tokens: int, reply: Reply) -> ResponseUsage:
    output = estimate_tokens(len(reply.text) + sum(len(c.arguments_json()) for c in reply.tool_calls))
    return ResponseUsage(
        input_tokens=prompt_tokens,
        input_tokens_details=InputTokensDetails(cached_tokens=0, cache_write_tokens=0),
        output_tokens=output,
        output_tokens_details=OutputTokensDetails(reasoning_tokens=0),
        total_tokens=prompt_tokens + output,
    )


def _items(reply: Reply, index: int, status: Any) -> list[ResponseOutputMessage | ResponseFunctionToolCall]:
    if reply.tool_calls:
        return [
            ResponseFunctionToolCall(
                type="function_call",
                id=f"fc_ts{index:05d}_{n}",
                call_id=call_id(index, n),
                name=call.name,
                arguments=call.arguments_json(),
                status=status,
                **({"namespace": call.namespace} if call.namespace else {}),
            )
            for n, call in enumerate(reply.tool_calls)
        ]
    text = ResponseOutputText(type="output_text", text=reply.text, annotations=[])
    return [
        ResponseOutputMessage(id=f"msg_ts{index:05d}", type="message", role="assistant", status=status, content=[text])
    ]


def _response(model: str, index: int, created: float, status: Any, output: list[Any], usage: Any) -> Response:
    fields: dict[str, Any] = {
        "id": f"resp_ts{index:05d}",
        "object": "response",
        "created_at": created,
        "model": model,
        "status": status,
        "output": output,
        "parallel_tool_calls": True,
        "tool_choice": "auto",
        "tools": [],
    }
    if usage is not None:
        fields["usage"] = usage
    return Response(**fields)


def response_json(model: str, reply: Reply, index: int, prompt_tokens: int) -> bytes:
    """The whole ``Response`` body."""
    response = _response(
        model, index, time.time(), "completed", _items(reply, index, "completed"), _usage(prompt_tokens, reply)
    )
    return response.model_dump_json(exclude_unset=True).encode()


def _sse(event: Any) -> bytes:
    data = event.model_dump_json(exclude_unset=True)
    return b"event: " + str(event.type).encode() + b"\ndata: " + data.encode() + b"\n\n"


def response_events(model: str, reply: Reply, index: int, prompt_tokens: int) -> Iterator[bytes]:
    """The SSE event stream of one response."""
    created = time.time()
    sequence = iter(range(1_000_000))
    started = _response(model, index, created, "in_progress", [], None)
    yield _sse(ResponseCreatedEvent(type="response.created", response=started, sequence_number=next(sequence)))
    yield _sse(ResponseInProgressEvent(type="response.in_progress", response=started, sequence_number=next(sequence)))
    done_items = _items(reply, index, "completed")
    for position, (pending, done) in enumerate(zip(_items(reply, index, "in_progress"), done_items, strict=True)):
        if isinstance(pending, ResponseOutputMessage):
            pending = pending.model_copy(update={"content": []})
        yield _sse(
            ResponseOutputItemAddedEvent(
                type="response.output_item.added", item=pending, output_index=position, sequence_number=next(sequence)
            )
        )
        item_id = str(done.id)
        if isinstance(done, ResponseFunctionToolCall):
            yield _sse(
                ResponseFunctionCallArgumentsDeltaEvent(
                    type="response.function_call_arguments.delta",
                    item_id=item_id,
                    output_index=position,
                    delta=done.arguments,
                    sequence_number=next(sequence),
                )
            )
            yield _sse(
                ResponseFunctionCallArgumentsDoneEvent(
                    type="response.function_call_arguments.done",
                    item_id=item_id,
                    output_index=position,
                    arguments=done.arguments,
                    sequence_number=next(sequence),
                )
            )
        else:
            yield from _text_events(item_id, position, reply.text, sequence)
        yield _sse(
            ResponseOutputItemDoneEvent(
                type="response.output_item.done", item=done, output_index=position, sequence_number=next(sequence)
            )
        )
    finished = _response(model, index, created, "completed", done_items, _usage(prompt_tokens, reply))
    yield _sse(ResponseCompletedEvent(type="response.completed", response=finished, sequence_number=next(sequence)))


def _text_events(item_id: str, position: int, text: str, sequence: Iterator[int]) -> Iterator[bytes]:
    empty = ResponseOutputText(type="output_text", text="", annotations=[])
    full = ResponseOutputText(type="output_text", text=text, annotations=[])
    where = {"item_id": item_id, "output_index": position, "content_index": 0}
    yield _sse(
        ResponseContentPartAddedEvent(
            type="response.content_part.added", part=empty, sequence_number=next(sequence), **where
        )
    )
    yield _sse(
        ResponseTextDeltaEvent(
            type="response.output_text.delta", delta=text, logprobs=[], sequence_number=next(sequence), **where
        )
    )
    yield _sse(
        ResponseTextDoneEvent(
            type="response.output_text.done", text=text, logprobs=[], sequence_number=next(sequence), **where
        )
    )
    yield _sse(
        ResponseContentPartDoneEvent(
            type="response.content_part.done", part=full, sequence_number=next(sequence), **where
        )
    )
