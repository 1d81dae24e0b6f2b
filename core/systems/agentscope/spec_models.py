"""The pydantic models of a declarative toolkit spec (format: see ``spec.py``).

No AgentScope here: validation alone names the place of every problem, including a tool
named ``reset_tools`` (AgentScope's meta tool). Re-exported by ``spec``.

Public API::

    ToolSpec, GroupSpec, PermissionsSpec, ToolkitSpec;  META_TOOL_NAME = "reset_tools"
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator
from pydantic_core import PydanticCustomError

from ...model.errors import InputError, Problem
from ...text.suggest import close_matches

PermissionWord = Literal["allow", "ask", "deny"]
META_TOOL_NAME = "reset_tools"
"""AgentScope's meta tool: a spec tool of this name would be a second reset_tools row."""


class ToolSpec(BaseModel):
    """One tool: name, description, parameters and its canned behaviour."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1)
    description: str = ""
    parameters: dict[str, dict[str, Any]] = Field(default_factory=dict)
    required: list[str] | None = None
    read_only: bool = False
    permission: PermissionWord | None = None
    result: str | None = None

    @field_validator("name")
    @classmethod
    def _not_the_meta_tool(cls, value: str) -> str:
        # Validated here, so specs and scripts' register_group steps both name the place.
        if value == META_TOOL_NAME:
            raise PydanticCustomError(
                "reserved_tool_name",
                "reset_tools is AgentScope's meta tool name: the Toolkit registers it itself "
                "once a non-basic group exists; rename this tool",
            )
        return value

    def input_schema(self) -> dict[str, Any]:
        """The JSON Schema object AgentScope validates and offers to the model."""
        required = (
            self.required
            if self.required is not None
            else [name for name, schema in self.parameters.items() if "default" not in schema]
        )
        schema: dict[str, Any] = {"type": "object", "properties": dict(self.parameters)}
        if required:
            schema["required"] = list(required)
        return schema


class GroupSpec(BaseModel):
    """One non-basic tool group."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1)
    description: str | None = None
    instructions: str | None = None
    tools: list[ToolSpec] = Field(default_factory=list)


class PermissionsSpec(BaseModel):
    """Tool-name-level permission rules for the AgentState's PermissionContext."""

    model_config = ConfigDict(extra="forbid")

    allow: list[str] = Field(default_factory=list)
    deny: list[str] = Field(default_factory=list)
    ask: list[str] = Field(default_factory=list)


class ToolkitSpec(BaseModel):
    """The whole spec file."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["toolkit"] | None = None
    name: str | None = None
    tools: list[ToolSpec] = Field(default_factory=list)
    groups: list[GroupSpec] = Field(default_factory=list)
    initially_active: list[str] = Field(default_factory=list)
    permissions: PermissionsSpec = Field(default_factory=PermissionsSpec)

    @field_validator("initially_active")
    @classmethod
    def _no_duplicates(cls, value: list[str]) -> list[str]:
        return list(dict.fromkeys(value))

    def check_initially_active(self, source: str) -> None:
        """Raise ``InputError`` (with a did-you-mean) for an ``initially_active`` name no group has.

        Both AgentScope builders (2.x ``spec.build_toolkit``, 1.x ``v1.build``) call it: neither
        AgentScope refuses such a name itself (2.x ignores it, 1.x skips it silently).
        """
        names = [g.name for g in self.groups]
        problems = []
        for index, name in enumerate(self.initially_active):
            if name not in names:
                close = close_matches(name, names, n=2)
                hint = f" (did you mean {', '.join(close)}?)" if close else ""
                problems.append(Problem(f"initially_active[{index}]", f"no group named '{name}'{hint}"))
        if problems:
            raise InputError(source, "unknown group in initially_active", problems)
