"""Declarative toolkit specs (YAML or JSON) turned into a **real** AgentScope ``Toolkit``.

Format (every key but ``groups`` optional)::

    kind: toolkit                  # optional marker
    name: seed world               # shown in headers
    tools:                         # the "basic" group: always active
      - name: note_write
        description: Write a note.
        parameters:                # JSON Schema of each parameter
          text: {type: string, description: The note.}
        required: [text]           # default: every parameter without a "default"
        read_only: false           # PermissionEngine's read-only fast path
        permission: allow          # allow | ask | deny; default ask (like FunctionTool)
        result: "Saved."           # canned text the tool returns
    groups:                        # in registration order
      - name: web_search
        description: Search the web.      # required by AgentScope for non-basic groups
        instructions: Cite URLs.          # shown by reset_tools on activation
        tools: [...]
    initially_active: [web_search] # the AgentState's activated_groups at the start
    permissions:                   # the AgentState's PermissionContext
      allow: [note_write]          # tool-name-level rules (rule_content None)
      deny: []
      ask: []

Each tool becomes a real ``ToolBase`` (``SpecTool``: the declared ``input_schema``,
``permission`` decision and ``is_read_only``) whose ``call`` returns the canned ``result``. A group named
``basic`` or two groups with one name are refused by AgentScope's own ``Toolkit``; the
``InputError`` quotes AgentScope's message and says where in the spec the problem is. A
tool named ``reset_tools`` (AgentScope's meta tool) is refused by validation.

The pydantic models of the format are in ``spec_models.py`` (re-exported here).

Public API::

    load_spec(path) -> (ToolkitSpec, Document)          # parse + validate (no AgentScope)
    build_toolkit(spec, source) -> BuiltToolkit         # real Toolkit + AgentState
    load_toolkit_spec(path) -> BuiltToolkit
    make_spec_tool(tool: ToolSpec) -> SpecTool (a ToolBase)
    make_spec_group(group: GroupSpec) -> ToolGroup
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...inputs.documents import Document, load_document
from ...inputs.validation_errors import validate_model
from ...model.errors import InputError, Problem

# The document models live in spec_models; re-exported here (their public import path).
from .spec_models import (
    META_TOOL_NAME,
    GroupSpec,
    PermissionsSpec,
    PermissionWord,
    ToolkitSpec,
    ToolSpec,
)

__all__ = [
    "META_TOOL_NAME",
    "BuiltToolkit",
    "GroupSpec",
    "PermissionWord",
    "PermissionsSpec",
    "ToolSpec",
    "ToolkitSpec",
    "build_toolkit",
    "load_spec",
    "load_toolkit_spec",
    "make_spec_group",
    "make_spec_tool",
]


@dataclass
class BuiltToolkit:
    """A real Toolkit plus the AgentState it starts with, and where each tool came from."""

    toolkit: Any
    """agentscope.tool.Toolkit"""
    state: Any
    """agentscope.state.AgentState (initial activated_groups and permission rules)."""
    source: str
    """The file name (or factory target) as shown to users."""
    origins: dict[tuple[str, str], str]
    """(group, tool name) → where it is declared, e.g. ``toolkit.yaml: groups[1].tools[0]``.

    Keyed by group too: one name can be declared in several groups."""
    group_origins: dict[str, str]
    label: str


def load_spec(path: Path | str) -> tuple[ToolkitSpec, Document]:
    """Parse and validate a spec file; returns the spec and the document it was read from (path, sha256)."""
    document = load_document(Path(path), "toolkit spec")
    if not isinstance(document.data, dict):
        raise InputError(str(path), "not a toolkit spec", [Problem("(top level)", "expected an object with 'groups'")])
    spec = validate_model(ToolkitSpec, document.data, str(path), "toolkit spec")
    return spec, document


def _spec_tool_class() -> type:
    """``SpecTool``: a real ``ToolBase`` subclass (defined lazily: AgentScope is slow to import).

    Not ``FunctionTool``: 2.0.6's FunctionTool takes neither ``input_schema`` nor
    ``permission``, and the spec must work on every 2.0.x from 2.0.6 on.
    """
    global _SPEC_TOOL
    if _SPEC_TOOL is not None:
        return _SPEC_TOOL
    from agentscope.message import TextBlock, ToolResultState
    from agentscope.permission import PermissionBehavior, PermissionDecision
    from agentscope.tool import ToolBase, ToolChunk

    class SpecTool(ToolBase):
        """A tool from a toolkit spec: declared schema, declared permission, canned result."""

        is_concurrency_safe = True
        is_external_tool = False
        is_state_injected = False
        is_mcp = False

        def __init__(self, spec: ToolSpec) -> None:
            super().__init__()
            self.name = spec.name
            self.description = spec.description or spec.name
            self.input_schema = spec.input_schema()
            self.is_read_only = spec.read_only
            self.permission = spec.permission
            self.result = spec.result if spec.result is not None else f"{spec.name}: ok (canned result)"

        async def check_permissions(self, tool_input: dict[str, Any], context: Any) -> Any:
            # Like FunctionTool: without a declared permission, ask the user.
            if self.permission is None:
                return PermissionDecision(
                    behavior=PermissionBehavior.ASK,
                    message=f"{self.name}: no permission declared in the toolkit spec; the user is asked",
                )
            return PermissionDecision(
                behavior=PermissionBehavior(self.permission),
                message=f"{self.name}: {self.permission} (declared in the toolkit spec)",
            )

        async def call(self, **_kwargs: Any) -> Any:
            return ToolChunk(content=[TextBlock(type="text", text=self.result)], state=ToolResultState.SUCCESS)

    _SPEC_TOOL = SpecTool
    return SpecTool


_SPEC_TOOL: type | None = None


def make_spec_tool(tool: ToolSpec) -> Any:
    """A real ``ToolBase`` returning the spec's canned result."""
    return _spec_tool_class()(tool)


def make_spec_group(group: GroupSpec) -> Any:
    """A real ToolGroup (AgentScope raises ValueError when a description is missing)."""
    from agentscope.tool import ToolGroup

    return ToolGroup(
        name=group.name,
        description=group.description,
        instructions=group.instructions,
        tools=[make_spec_tool(t) for t in group.tools],
    )


def build_toolkit(spec: ToolkitSpec, source: str) -> BuiltToolkit:
    """Build the real Toolkit and AgentState; AgentScope's own errors become InputErrors."""
    from agentscope.state import AgentState
    from agentscope.tool import Toolkit

    groups = _spec_groups(spec, source)
    try:
        toolkit = Toolkit(tools=[make_spec_tool(t) for t in spec.tools], tool_groups=groups)
    except ValueError as exc:
        raise InputError(source, "AgentScope refused the toolkit", _explain_toolkit_error(spec, str(exc))) from None

    spec.check_initially_active(source)

    state = AgentState(permission_context=_permission_context(spec, source))
    state.tool_context.activated_groups.extend(spec.initially_active)

    shown = Path(source).name
    origins, group_origins = _spec_origins(spec, shown)
    label = f"AgentScope toolkit spec {shown}" + (f" ({spec.name})" if spec.name else "")
    return BuiltToolkit(toolkit, state, source, origins, group_origins, label)


def _spec_groups(spec: ToolkitSpec, source: str) -> list[Any]:
    """The spec's groups as AgentScope ToolGroups; a group AgentScope refuses is named."""
    groups = []
    for index, group in enumerate(spec.groups):
        try:
            groups.append(make_spec_group(group))
        except ValueError as exc:
            raise InputError(
                source,
                "AgentScope refused a tool group",
                [Problem(f"groups[{index}]", f"AgentScope says: {exc}")],
            ) from None
    return groups


def _permission_context(spec: ToolkitSpec, source: str) -> Any:
    """The spec's allow / deny / ask lists as AgentScope PermissionRules (sourced from the spec file)."""
    from agentscope.permission import (
        PermissionBehavior,
        PermissionContext,
        PermissionRule,
    )

    context = PermissionContext()
    for word, names_ in (
        ("allow", spec.permissions.allow),
        ("deny", spec.permissions.deny),
        ("ask", spec.permissions.ask),
    ):
        rules = getattr(context, f"{word}_rules")
        for tool_name in names_:
            rules.setdefault(tool_name, []).append(
                PermissionRule(
                    tool_name=tool_name, rule_content=None, behavior=PermissionBehavior(word), source=Path(source).name
                )
            )
    return context


def _spec_origins(spec: ToolkitSpec, shown: str) -> tuple[dict[tuple[str, str], str], dict[str, str]]:
    """Where each (group, tool) and each group is declared, as ``file: groups[1].tools[0]``."""
    origins: dict[tuple[str, str], str] = {}
    for index, tool in enumerate(spec.tools):
        origins.setdefault(("basic", tool.name), f"{shown}: tools[{index}]")
    group_origins = {}
    for gi, group in enumerate(spec.groups):
        group_origins[group.name] = f"{shown}: groups[{gi}]"
        for ti, tool in enumerate(group.tools):
            origins.setdefault((group.name, tool.name), f"{shown}: groups[{gi}].tools[{ti}]")
    return origins, group_origins


def load_toolkit_spec(path: Path | str) -> BuiltToolkit:
    """Parse, validate and build a spec file."""
    spec, _ = load_spec(path)
    return build_toolkit(spec, str(path))


def _explain_toolkit_error(spec: ToolkitSpec, message: str) -> list[Problem]:
    """Quote AgentScope's error and point at the spec entries that caused it."""
    problems = []
    for index, group in enumerate(spec.groups):
        if group.name == "basic":
            problems.append(
                Problem(
                    f"groups[{index}].name",
                    "'basic' is AgentScope's always-active group; put those tools under the "
                    "top-level 'tools:' key instead",
                )
            )
    seen: dict[str, int] = {}
    for index, group in enumerate(spec.groups):
        if group.name in seen:
            problems.append(
                Problem(
                    f"groups[{index}].name",
                    f"'{group.name}' is also groups[{seen[group.name]}]; group names must be unique",
                )
            )
        seen.setdefault(group.name, index)
    problems.append(Problem("", f"AgentScope says: {message}"))
    return problems
