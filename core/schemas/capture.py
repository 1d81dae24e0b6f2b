"""``toolscope.capture/1``: one model request as ``toolscope capture`` saw it (one JSON line each).

A capture file is JSON Lines: one ``CaptureRecord`` per request that reached the capture
server, in arrival order, each written and flushed as soon as its reply is done. It holds
the *facts about tools* (names in the order sent, sizes, deferral, ``tool_choice``, the
tool calls of the reply), never an API key or an auth header, and no message text unless
``--keep-messages`` was given (then ``kept`` holds the system prompt and the messages).
A request the server refused (malformed JSON, a body over the limit, an unknown path) is
recorded too, with ``error`` saying why and no tools.

Token estimates follow ``core.systems.agentscope.turns``: ``ceil(bytes of compact JSON / 4)``.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from .base import Model

CAPTURE_SCHEMA = "toolscope.capture/1"

Protocol = Literal[
    "openai-chat",
    "openai-responses",
    "anthropic-messages",
    "anthropic-count-tokens",
    "gemini-generate",
    "gemini-count-tokens",
]
"""The wire protocol of the request: the endpoint it was sent to (``gemini-generate``: Gemini's
``generateContent`` and ``streamGenerateContent``; the ``stream`` key tells them apart)."""


class CaptureTool(Model):
    """One entry of the request's tool list, in the order sent (a namespace's tools flattened in place)."""

    name: str
    """The tool's name as the model sees it (for a Responses namespace member: the member's name)."""
    namespace: str | None
    """The Responses ``namespace`` tool that holds it (Codex: ``mcp__<server>``); null elsewhere."""
    type: str
    """The wire type: ``function``, ``custom``, ``tool_search``, ``web_search_20250305``, …; Gemini: ``function``
    for each of ``functionDeclarations``, else the built-in's key (``googleSearch``, ``codeExecution``)."""
    schema_bytes: int
    """Bytes of the tool's entry as compact UTF-8 JSON (name, description, parameters, markers)."""
    token_estimate: int
    """``ceil(schema_bytes / 4)``: an estimate, not a tokenizer count."""
    deferred: bool | None
    """``defer_loading`` as sent (Anthropic tools, Responses function tools); null where the protocol has no such marker."""


class CaptureToolCall(Model):
    """A tool call in the reply the client received."""

    name: str
    namespace: str | None
    """The Responses namespace of the call (Codex MCP tools), else null."""
    arguments: Any
    """The arguments, parsed when they are JSON (else the raw text)."""


class CaptureReply(Model):
    """What the client got back."""

    source: Literal["scripted", "default", "upstream", "error"]
    """``scripted``: an item of ``--replies``; ``default``: ``{"text": "ok"}`` after the list (or no list);
    ``upstream``: the ``--upstream`` provider's answer; ``error``: an error the capture server answered."""
    status: int
    """The HTTP status sent to the client."""
    tool_calls: list[CaptureToolCall]
    text_bytes: int
    """Bytes of the reply's text (the text itself only in ``kept``)."""
    stop_reason: str | None
    """``finish_reason`` / ``stop_reason`` / the Responses status / Gemini's ``finishReason``, as sent; null when unknown."""
    error: str | None
    """The error message sent (or the upstream failure), else null."""


ErrorKind = Literal[
    "malformed_json",
    "empty_body",
    "not_an_object",
    "body_too_large",
    "unknown_path",
    "method_not_allowed",
    "client_disconnected",
    "browser_origin",
    "too_deep",
]
"""Why the capture server refused a request (``error.kind``)."""


class CaptureError(Model):
    """A request the capture server refused (answered with the status in ``reply``, in the provider's error shape)."""

    kind: ErrorKind
    """``malformed_json``: the body is not JSON; ``empty_body``; ``not_an_object``: JSON, but not an object;
    ``body_too_large``: over the 32 MiB limit (413); ``unknown_path``: no such endpoint (404);
    ``method_not_allowed``: e.g. a GET on a POST endpoint (405); ``client_disconnected``: the client went
    away while sending the body; ``browser_origin``: a web page's request (an ``Origin`` or a
    ``Sec-Fetch-Site`` header) not allowed by ``--allow-origin`` (403), its body never read;
    ``too_deep``: JSON nested too deeply to be read (hundreds of levels)."""
    message: str
    """The message sent to the client (it names the path or what is wrong)."""
    method: str
    """The HTTP method of the request."""


class KeptText(Model):
    """Message text, only with ``--keep-messages``."""

    system: Any
    """The system prompt / instructions as sent."""
    messages: Any
    """``messages`` (Chat, Anthropic), ``input`` (Responses) or ``contents`` (Gemini) as sent."""
    reply_text: str
    """The reply's text."""


class CaptureRecord(Model):
    """One model request: its tool list and the reply's tool calls."""

    schema_: Literal["toolscope.capture/1"] = Field("toolscope.capture/1", alias="schema")
    index: int
    """1 for the first request the server received, in arrival order."""
    received_at: str
    """When the request arrived (UTC, ISO 8601 with milliseconds)."""
    protocol: Protocol | None
    """The endpoint's protocol; null only for a refused request (``error``) to a path that is not a model endpoint."""
    path: str
    """The request path without the query string, e.g. ``/v1/messages`` (at most 200 characters, then ``…``)."""
    mode: Literal["scripted", "proxy"]
    """``proxy``: forwarded to ``--upstream``; ``scripted``: answered from ``--replies``."""
    model: str | None
    stream: bool
    """The client asked for server-sent events."""
    user_agent: str | None
    """The client's User-Agent header (which SDK or CLI sent it)."""
    tools: list[CaptureTool]
    deferred_names: list[str]
    """Tool names a client announced in a system message as loadable by tool search but did not send
    as tools (Claude Code's "The following deferred tools are now available via ToolSearch" list)."""
    deferred_namespaces: list[str]
    """Namespaces announced the same way (Codex's "Deferred tool namespaces:" in its developer message)."""
    tool_choice: Any
    """``tool_choice`` as sent, null when absent."""
    system_bytes: int
    """Bytes of the system prompt (Chat: system/developer messages; Responses: ``instructions``; Anthropic: ``system``;
    Gemini: ``systemInstruction``'s text parts)."""
    system_token_estimate: int
    messages: int
    """How many messages (Chat, Anthropic), input items (Responses) or contents (Gemini) the request carried."""
    reply: CaptureReply
    duration_ms: float
    """From the request's arrival to the reply's last byte."""
    kept: KeptText | None
    """The message text with ``--keep-messages``, else null."""
    error: CaptureError | None = None
    """Set when the server refused the request (bad JSON, too large, unknown path, …): then there are
    no tools and no model turn. In proxy mode a malformed body is still forwarded, and ``reply`` is the
    upstream's answer. Absent in files written before it existed."""
