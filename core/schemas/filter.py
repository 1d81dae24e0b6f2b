"""``toolscope.filter/1``: AgentWorks' ToolFilter asked directly (``toolscope filter --json``)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from .base import Model


class ToolAnswer(Model):
    """ShouldIncludeTool for one ``package:tool`` query."""

    kind: Literal["tool"] = "tool"
    package: str
    tool: str
    include: bool
    code: str
    reason: str
    entry: str | None
    field: str | None


class VirtualToolAnswer(ToolAnswer):
    """ShouldIncludeTool for a query asked with --virtual (the only answers with ``virtual``)."""

    virtual: Literal[True] = True


class ServerAnswer(Model):
    """ShouldIncludeServer for one ``--server`` name."""

    kind: Literal["server"] = "server"
    server: str
    include: bool
    code: str
    reason: str
    entry: str | None
    field: str | None


Answer = VirtualToolAnswer | ToolAnswer | ServerAnswer
"""An answer; ``kind`` says which question, ``virtual`` is written only for virtual tool queries."""


class FilterEnvelope(Model):
    """Every answer, queries first, then servers."""

    schema_: Literal["toolscope.filter/1"] = Field("toolscope.filter/1", alias="schema")
    answers: list[Answer]
