"""The ``capture`` block: a capture file's requests against toolscope's prediction.

Shared by ``step --capture``, ``tools`` / ``explain`` / ``check`` ``--capture`` and
``report --capture`` (built by ``core.comparison.compare.CaptureComparison.to_json``).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from .base import Model


class CaptureSourceJson(Model):
    """The capture file as read."""

    path: str
    """The file's name."""
    requests: int = Field(ge=0)
    """Requests read (at most the cap)."""
    records: int = Field(ge=0)
    """Records read (count_tokens calls included)."""
    skipped: list[str]
    """Records left out of the comparison, and why (count_tokens calls are not model turns)."""
    truncated: str | None
    """What was cut when the file held more than the cap; null when read whole."""


class NameRuleJson(Model):
    """How a configured tool's name becomes the name the model receives."""

    summary: str
    documented: bool
    """A reference says so; false: toolscope's assumption (the output says so)."""


class OtherLaneJson(Model):
    """Another lane's prediction for the same request (step: the guarded lane)."""

    predicted: list[str]
    agrees: bool
    missing: list[str]
    unexpected: list[str]


Offered = Literal["full", "deferred", "either"]
"""``full``: the schema is in the request's tools; ``deferred``: only the name (Claude Code's ToolSearch list
or a tool it loaded with ``defer_loading``; a Codex deferred namespace, named ``namespace:*``); ``either``
(predicted only): Claude Code's ``ENABLE_TOOL_SEARCH=auto:N``, where the count_tokens answer decides."""


class CallCheckJson(Model):
    """One MCP tool call of the request's reply: predicted callable against what the binary did."""

    tool: str
    """As in ``received``: ``mcp__server__tool`` (Claude Code) or ``namespace:function`` (Codex)."""
    predicted_callable: bool
    outcome: Literal["ran", "refused", "unknown"]
    """Read from the next request's tool result: ``refused`` when it is the CLI's own refusal text;
    ``unknown`` without a next request or without ``--keep-messages`` (then not compared)."""
    agrees: bool | None
    """Null when the outcome is unknown."""
    evidence: str
    """The tool result's text (at most 200 characters), or why the outcome is unknown."""


class OfferJson(Model):
    """A coding-agent CLI's request in its own terms (``claude-code:DIR``, ``codex:DIR``; null for other inputs)."""

    agrees: bool
    """No difference and no compared call that disagrees (part of the request's ``agrees``)."""
    received: dict[str, Offered]
    """Every MCP tool the request offered, and how (at most 200)."""
    predicted: dict[str, Offered]
    """Every MCP tool toolscope says is offered, and how (at most 200)."""
    differences: list[str]
    """One sentence per difference; the capture is right."""
    calls: list[CallCheckJson]
    left_out: list[str]
    """Built-in tools and namespaces of the request, not modelled and not compared."""


class TraceRefJson(Model):
    """Where a request read from a trace was recorded: its model-call span."""

    trace_id: str
    """The span's trace id, in hex as the trace writes it."""
    span_id: str | None
    """The model-call span's id, in hex."""


class CaptureRequestJson(Model):
    """One captured request: what the model received, what toolscope predicted."""

    request: int = Field(ge=1)
    """1-based, in the order the requests reached the capture server."""
    record: int = Field(ge=1)
    """The capture record's ``index`` (arrival order, count_tokens calls included)."""
    protocol: str
    """The wire protocol (a capture), or ``trace:gen_ai`` / ``trace:openinference`` (read from a trace's span)."""
    model: str | None
    trace: TraceRefJson | None
    """The span the request was read from (a trace); null for a capture file."""
    received: list[str]
    """Tool names as sent, in order (in the input's spelling after the name rule; at most 200)."""
    received_count: int = Field(ge=0)
    received_tokens: int | None
    predicted: list[str]
    """The tools toolscope predicts the model sees (at most 200)."""
    predicted_count: int = Field(ge=0)
    predicted_tokens: int | None
    basis: str
    """Why toolscope predicts this list (the starting groups, or the reset_tools calls before it)."""
    agrees: bool
    """The received set is the predicted set (order aside)."""
    same_order: bool
    missing: list[str]
    """Predicted, not received."""
    unexpected: list[str]
    """Received, not predicted."""
    foreign: list[str]
    """Unexpected names the input has no tool of (a client's own tools, or a layer toolscope does not model)."""
    other_lanes: dict[str, OtherLaneJson]
    offer: OfferJson | None
    """Claude Code and Codex inputs: MCP tools in full or deferred, and what each call did; null otherwise."""


class CaptureJson(Model):
    """The ``capture`` block."""

    source: CaptureSourceJson
    name_rule: NameRuleJson
    lane: str | None
    """The lane ``predicted`` comes from (step: stock); null for inputs with one prediction."""
    agrees: bool
    """Every request agrees (false for a capture without requests)."""
    disagreeing_requests: list[int]
    never_received: list[str]
    """Predicted in some request, received in none (configured-visible tools that never reached the model)."""
    unpredicted: list[str]
    """Received in some request, predicted in none."""
    other_lanes_agree: dict[str, bool]
    requests: list[CaptureRequestJson]
    notes: list[str]
