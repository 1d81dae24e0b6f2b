"""The reply the capture server gives one request: text or tool calls (protocol-neutral).

The wire modules (``wire_chat``, ``wire_responses``, ``wire_anthropic``, ``wire_gemini``) turn a ``Reply``
into each protocol's bytes; ``replies`` reads a ``--replies`` file into a list of them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

import orjson

ReplySource = Literal["scripted", "default", "upstream", "error"]


@dataclass(frozen=True)
class ToolCall:
    """A tool call the reply makes; ``namespace`` only means something to Responses clients (Codex)."""

    name: str
    arguments: Any = field(default_factory=dict)
    namespace: str | None = None

    def arguments_json(self) -> str:
        """The arguments as the wire carries them: a JSON text."""
        if isinstance(self.arguments, str):
            return self.arguments
        return orjson.dumps(self.arguments).decode()

    def arguments_object(self) -> dict[str, Any]:
        """The arguments as an object, for wires whose call carries one (Anthropic ``input``,
        Gemini ``args``): a JSON object text is parsed, anything else goes under ``"input"``."""
        arguments = self.arguments
        if isinstance(arguments, dict):
            return arguments
        if isinstance(arguments, str):
            try:
                parsed = orjson.loads(arguments)
            except orjson.JSONDecodeError:
                parsed = None
            if isinstance(parsed, dict):
                return parsed
        return {"input": arguments}


@dataclass(frozen=True)
class Reply:
    """What to answer: tool calls when there are any, else text."""

    text: str = "ok"
    tool_calls: tuple[ToolCall, ...] = ()
    source: ReplySource = "default"


DEFAULT_REPLY = Reply(text="ok", source="default")
"""Every request after the scripted list (or all of them without ``--replies``)."""


def call_id(request_index: int, position: int) -> str:
    """A stable, unique id for a tool call: which request, which call."""
    return f"call_ts{request_index:05d}_{position}"


def estimate_tokens(size: int) -> int:
    """About four bytes of JSON per token, rounded up (see ``core.systems.agentscope.turns``)."""
    return (size + 3) // 4
