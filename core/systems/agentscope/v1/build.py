"""A real AgentScope 1.x ``Toolkit`` from toolscope's spec or from the user's factory.

1.x keeps each group's ``active`` flag on the Toolkit (``toolkit.groups[name].active``);
``basic`` is not in ``groups``: it is the implicit default group, always on. The meta tool
``reset_equipped_tools`` is a bound method of the Toolkit and exists only when registered
(``ReActAgent(enable_meta_tool=True)`` or ``toolkit.register_tool_function(
toolkit.reset_equipped_tools)``). A spec with groups gets it registered, as the agent
a spec stands for would (``ReActAgent(enable_meta_tool=True)``); a factory's toolkit is
taken as it is.

A spec's ``permission``, ``read_only`` and ``permissions`` have no 1.x counterpart (no
permission engine): they are reported in ``BuiltToolkitV1.notes``, not applied.

Public API::

    BuiltToolkitV1(toolkit, source, origins, group_origins, label, initial_groups, notes)
    build_spec_toolkit(spec, source) -> BuiltToolkitV1
    check_factory_result(result, target) -> BuiltToolkitV1
    make_spec_function(tool: ToolSpec) -> a function returning the canned ToolResponse
    META = "reset_equipped_tools";  is_meta(registered_tool_function, toolkit) -> bool
    v1_api(module, name) -> a name of the installed 1.x (untyped on purpose)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ....model.errors import InputError, Problem
from ..spec_models import GroupSpec, ToolkitSpec, ToolSpec

META = "reset_equipped_tools"


def v1_api(module: str, name: str) -> Any:
    """A name from the installed AgentScope 1.x (``v1_api("agentscope.tool", "Toolkit")``).

    Looked up at run time on purpose: the type checker sees whichever AgentScope the
    development environment has (2.x), whose ``Toolkit`` has none of 1.x's methods.
    """
    import importlib

    return getattr(importlib.import_module(module), name)


EXPECTED = "an AgentScope 1.x Toolkit"


@dataclass
class BuiltToolkitV1:
    """A real 1.x Toolkit, where each tool came from, and the groups active at the start."""

    toolkit: Any
    """agentscope.tool.Toolkit (1.x): activation lives on it."""
    source: str
    origins: dict[tuple[str, str], str]
    group_origins: dict[str, str]
    label: str
    initial_groups: tuple[str, ...]
    """The groups whose flag was on when the toolkit was built (``state_dict()``)."""
    notes: tuple[str, ...] = field(default=())

    def set_groups(self, groups: Any) -> None:
        """Set every group's flag: on for ``groups``, off for the rest (1.x ``load_state_dict``)."""
        self.toolkit.load_state_dict({"active_groups": [g for g in groups if g in self.toolkit.groups]})

    def active(self) -> tuple[str, ...]:
        """The groups whose flag is on now, in registration order."""
        return tuple(self.toolkit.state_dict()["active_groups"])


def is_meta(tool: Any, toolkit: Any) -> bool:
    """The registered ``reset_equipped_tools`` is the toolkit's own method (not a namesake)."""
    func = getattr(tool, "original_func", None)
    return tool.name == META and getattr(func, "__self__", None) is toolkit


def make_spec_function(tool: ToolSpec) -> Any:
    """A plain function returning the spec's canned text as a 1.x ``ToolResponse``.

    Named after the tool: 1.0.9–1.0.15 take the registered name from ``__name__`` (no
    ``func_name`` parameter) and write it into the JSON schema.
    """
    TextBlock = v1_api("agentscope.message", "TextBlock")
    ToolResponse = v1_api("agentscope.tool", "ToolResponse")

    result = tool.result if tool.result is not None else f"{tool.name}: ok (canned result)"

    def canned(**_kwargs: Any) -> Any:
        return ToolResponse(content=[TextBlock(type="text", text=result)])

    canned.__name__ = canned.__qualname__ = tool.name
    return canned


def _schema(tool: ToolSpec) -> dict[str, Any]:
    return {
        "type": "function",
        "function": {
            "name": tool.name,
            "description": tool.description or tool.name,
            "parameters": tool.input_schema(),
        },
    }


def _register(toolkit: Any, tool: ToolSpec, group: str, where: str, source: str) -> None:
    try:
        toolkit.register_tool_function(make_spec_function(tool), group_name=group, json_schema=_schema(tool))
    except ValueError as exc:
        raise InputError(source, "AgentScope refused a tool", [Problem(where, f"AgentScope says: {exc}")]) from None


def _create_group(toolkit: Any, group: GroupSpec, where: str, source: str) -> None:
    try:
        toolkit.create_tool_group(group.name, group.description or "", active=False, notes=group.instructions)
    except ValueError as exc:
        hint = "; put basic tools under the top-level 'tools:' key" if group.name == "basic" else ""
        raise InputError(
            source, "AgentScope refused a tool group", [Problem(f"{where}.name", f"AgentScope says: {exc}{hint}")]
        ) from None


def _ignored(spec: ToolkitSpec) -> list[str]:
    """Spec keys 1.x has no counterpart for (no permission engine)."""
    where = []
    tools = [(f"tools[{i}]", t) for i, t in enumerate(spec.tools)]
    tools += [(f"groups[{g}].tools[{i}]", t) for g, grp in enumerate(spec.groups) for i, t in enumerate(grp.tools)]
    for place, tool in tools:
        if tool.permission is not None or tool.read_only:
            where.append(place)
    perms = spec.permissions
    if perms.allow or perms.deny or perms.ask:
        where.append("permissions")
    return where


def build_spec_toolkit(spec: ToolkitSpec, source: str) -> BuiltToolkitV1:
    """The spec as a real 1.x Toolkit (meta tool registered when a group exists)."""
    Toolkit = v1_api("agentscope.tool", "Toolkit")

    toolkit = Toolkit()
    shown = Path(source).name
    origins: dict[tuple[str, str], str] = {}
    group_origins: dict[str, str] = {}
    for gi, group in enumerate(spec.groups):
        _create_group(toolkit, group, f"groups[{gi}]", source)
        group_origins[group.name] = f"{shown}: groups[{gi}]"
    for index, tool in enumerate(spec.tools):
        _register(toolkit, tool, "basic", f"tools[{index}]", source)
        origins.setdefault(("basic", tool.name), f"{shown}: tools[{index}]")
    for gi, group in enumerate(spec.groups):
        for ti, tool in enumerate(group.tools):
            _register(toolkit, tool, group.name, f"groups[{gi}].tools[{ti}]", source)
            origins.setdefault((group.name, tool.name), f"{shown}: groups[{gi}].tools[{ti}]")
    spec.check_initially_active(source)
    toolkit.update_tool_groups(list(spec.initially_active), active=True)
    if spec.groups:
        if META in toolkit.tools:
            raise InputError(
                source,
                "a tool is named like AgentScope 1.x's meta tool",
                [Problem("", f"'{META}' is registered by ReActAgent(enable_meta_tool=True); rename the tool")],
            )
        toolkit.register_tool_function(toolkit.reset_equipped_tools)
    notes = []
    ignored = _ignored(spec)
    if ignored:
        notes.append(
            "AgentScope 1.x has no permission engine: permission, read_only and permissions are ignored ("
            + ", ".join(ignored[:5])
            + (f" and {len(ignored) - 5} more" if len(ignored) > 5 else "")
            + ")"
        )
    label = f"AgentScope 1.x toolkit spec {shown}" + (f" ({spec.name})" if spec.name else "")
    built = BuiltToolkitV1(toolkit, source, origins, group_origins, label, (), tuple(notes))
    built.initial_groups = built.active()
    return built


def check_factory_result(result: Any, target: str) -> BuiltToolkitV1:
    """Accept a 1.x Toolkit (activation is on it: no second item to return)."""
    Toolkit = v1_api("agentscope.tool", "Toolkit")

    if isinstance(result, tuple):
        raise InputError(
            target,
            "wrong return type",
            [Problem("", f"returned a tuple; on AgentScope 1.x the factory returns {EXPECTED} (groups are on it)")],
        )
    if not isinstance(result, Toolkit):
        raise InputError(
            target, "wrong return type", [Problem("", f"returned {type(result).__name__}, expected {EXPECTED}")]
        )
    origins = {(t.group, name): f"{target}: group '{t.group}'" for name, t in result.tools.items()}
    group_origins = {name: f"{target}: group '{name}'" for name in result.groups}
    built = BuiltToolkitV1(result, target, origins, group_origins, f"AgentScope 1.x toolkit from {target}", ())
    built.initial_groups = built.active()
    return built
