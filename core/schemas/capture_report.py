"""``toolscope.capture-report/1``: ``report --capture FILE [CONFIG] --format json``."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from .base import Model
from .capture_compare import CaptureJson, CaptureSourceJson, TraceRefJson


class CallJson(Model):
    """A tool call of a reply: reset_tools keeps its argument text, other tools only their name."""

    name: str
    arguments: str | None


class TimelineRequestJson(Model):
    """One request of the capture and what changed since the one before."""

    request: int = Field(ge=1)
    record: int = Field(ge=1)
    protocol: str
    model: str | None
    trace: TraceRefJson | None
    """The model-call span the request was read from (a trace); null for a capture file."""
    tools: list[str]
    deferred: list[str]
    tokens: int = Field(ge=0)
    token_change: int
    appeared: list[str]
    disappeared: list[str]
    caused_by: list[CallJson]
    """The previous request's reply tool calls (what the agent ran before this request)."""
    reply_calls: list[CallJson]


class CaptureReportEnvelope(Model):
    """A capture's requests, their changes, and (with a config) the comparison."""

    schema_: Literal["toolscope.capture-report/1"] = Field("toolscope.capture-report/1", alias="schema")
    source: CaptureSourceJson
    summary: list[str]
    requests: list[TimelineRequestJson]
    compared_with: str | None
    """The config's label when one was given, else null."""
    capture: CaptureJson | None
    """The comparison with that config's prediction (null without a config)."""
    toolscope_version: str
