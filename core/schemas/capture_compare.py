"""The ``capture`` block: a capture file's requests against toolscope's prediction.

Shared by ``step --capture``, ``tools`` / ``explain`` / ``check`` ``--capture`` and
``report --capture`` (built by ``core.capture.compare.CaptureComparison.to_json``).
"""

from __future__ import annotations

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


class CaptureRequestJson(Model):
    """One captured request: what the model received, what toolscope predicted."""

    request: int = Field(ge=1)
    """1-based, in the order the requests reached the capture server."""
    record: int = Field(ge=1)
    """The capture record's ``index`` (arrival order, count_tokens calls included)."""
    protocol: str
    model: str | None
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
