"""The registry: the AgentWorks tool universe a step config is evaluated against.

A registry file (YAML or JSON) says which tools exist and how the app treats them:
MCP servers and their tools, custom tool categories (and aliases such as
``workspace_tools``), virtual tools, tools registered by other paths, system
categories, the workshop-mode table, code-execution providers, the profile rules the
app applies to ``enabled_custom_tools``, and the era's denial texts. The format is
documented in README.md ("The registry format"). Default file names, looked up next
to the step config: ``toolscope.registry.yaml``, ``toolscope.registry.yml``,
``toolscope.registry.json``.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, NamedTuple

from ...inputs.documents import Document, load_document
from ...inputs.validation import EMPTY, validate
from ...model.errors import InputError, Problem

REGISTRY_FILE_NAMES = ("toolscope.registry.yaml", "toolscope.registry.yml", "toolscope.registry.json")

ERA_A_EXECUTION_DENIAL = 'tool "{tool}" is not available in the current workshop mode'


# The models are immutable records validated by pydantic-core (``core.inputs.validation``):
# unknown keys are errors, and pydantic's messages and error locations are kept.


class McpServer(NamedTuple):
    """A server's tools, with optional descriptions."""

    tools: tuple[str, ...] = ()
    descriptions: Mapping[str, str] = EMPTY


class CustomCategory(NamedTuple):
    """A custom tool category: its tools, or an alias of other categories."""

    tools: tuple[str, ...] = ()
    """What ``category:*`` expands to; these tools have this category as display group."""
    also_registered: tuple[str, ...] = ()
    """Tools with this display group that ``category:*`` does not expand to
    (AgentWorks' ``record_run_concern`` in ``workflow_db``)."""
    alias_of: tuple[str, ...] = ()
    """For alias categories (``workspace_tools``): the categories whose tools it expands to."""
    descriptions: Mapping[str, str] = EMPTY


class Modes(NamedTuple):
    """The workshop-mode allow-lists (``GetToolsForWorkshopMode``)."""

    system: tuple[str, ...] = ()
    """The slice allowed in every mode."""
    groups: Mapping[str, tuple[str, ...]] = EMPTY
    """Named groups of tools, referenced from mode lists as ``@name``."""
    lists: Mapping[str, tuple[str, ...]] = EMPTY
    """Each mode's own list (``@group`` entries expand)."""
    aliases: Mapping[str, str] = EMPTY
    """Other mode names and the mode they canonicalize to."""
    default: str | None = None
    """The mode used when none is given."""
    fallback: str | None = None
    """Mode for any other non-empty name (AgentWorks HEAD: workshop). Unset: unknown names are an error."""
    applies_to_mcp: bool = False
    """Whether the allow-list also gates MCP tools (era A: custom tools only)."""


class Profile(NamedTuple):
    """How the app rewrites ``enabled_custom_tools`` before filtering (``prepareCustomTools``)."""

    defaults: tuple[str, ...] = ()
    """Entries used when the step's list is empty."""
    append: tuple[str, ...] = ()
    """Entries always appended to a non-empty list (when missing)."""
    append_unless_prefix: Mapping[str, str] = EMPTY
    """prefix → entry: appended when no entry starts with the prefix."""
    drop_prefixes: tuple[str, ...] = ()
    """Entries starting with one of these are dropped (legacy categories)."""


class Workflow(NamedTuple):
    """The workflow a step belongs to: what the app rewrites the step's server and tool lists against
    (``controller_agent_factory.go``: ``filterServersByWorkflow``, reference §2.3)."""

    servers: tuple[str, ...] = ()
    """The workflow-level selected servers (names exactly as the app compares them)."""
    selected_tools: tuple[str, ...] = ()
    """The workflow-level selected_tools, used when the step has none."""
    append_selected_tools: tuple[str, ...] = ()
    """Entries the app appends to selected_tools when missing (HEAD: ``workflow_db:record_run_concern``)."""


class DenialTexts(NamedTuple):
    """The era's error texts, with ``{tool}`` and ``{mode}`` placeholders."""

    execution: str = ERA_A_EXECUTION_DENIAL
    """What a blocked custom tool call returns (``CallCustomToolWithSession``)."""
    discovery: str | None = None
    """What ``get_api_spec`` says for a blocked tool, when the era has a text for it."""


class RetiredTool(NamedTuple):
    """A tool name AgentWorks no longer has, what replaces it and since when."""

    replacement: tuple[str, ...] = ()
    since: str | None = None
    note: str | None = None
    """Where the retirement is stated (the seed: "Use shell and diff tools instead")."""


def _null_map(value: Any) -> Any:
    return {} if value is None else value


def _tools_map(value: Any) -> Any:
    # `server: [a, b]` is shorthand for `server: {tools: [a, b]}`; normalizing before
    # validation keeps error paths free of union-member names.
    value = _null_map(value)
    if isinstance(value, dict):
        return {key: {"tools": item} if isinstance(item, (list, tuple)) else item for key, item in value.items()}
    return value


class RegistryModel(NamedTuple):
    """The registry file."""

    name: str | None = None
    __validation__ = {  # type: ignore[misc]  # read by core.inputs.validation, not a field
        "mcp_servers": {"before": _tools_map},
        "custom_tools": {"before": _tools_map},
        "other_tools": {"before": _null_map},
        "retired_tools": {"before": _null_map},
    }

    mcp_servers: Mapping[str, McpServer] = EMPTY
    mcp_config: str | None = None
    """An ``mcpServers`` config to discover servers from (relative to the registry)."""
    custom_tools: Mapping[str, CustomCategory] = EMPTY
    virtual_tools: tuple[str, ...] = ()
    other_tools: Mapping[str, tuple[str, ...]] = EMPTY
    """label → tools registered by other paths (session, sub-agent, workshop registrations)."""
    system_categories: tuple[str, ...] | None = None
    """System category bases; unset = mcpagent HEAD's list."""
    modes: Modes | None = None
    code_execution_providers: tuple[str, ...] = ()
    profile: Profile = Profile()
    workflow: Workflow | None = None
    """The workflow's servers; unset = the app's rewrite of selected_servers/selected_tools cannot be modelled."""
    denial_texts: DenialTexts = DenialTexts()
    era: str | None = None
    """Which era of layer 2 the registry models (``era.py``); unset: its sections decide."""
    product: str | None = None
    """AgentWorks' product.yaml (era C), relative to the registry: its chats are the modes."""
    retired_tools: Mapping[str, RetiredTool] = EMPTY
    """Names AgentWorks retired (legacy configs still carry them) → replacement and since when."""
    bridge_tools: tuple[str, ...] | None = None
    """mcpagent's ``bridgeTools`` (the coding-CLI bridge's own tools), for ``registry check --go-src``."""


def find_registry(step_config: Path, given: Path | None) -> Path:
    """The registry to use: ``--registry``, else a default-named file next to the config (or one
    folder up for ``planning/step_config.json``)."""
    if given is not None:
        return given
    folders = [step_config.parent]
    if step_config.parent.name == "planning":  # AgentWorks' layout: the workflow folder holds planning/
        folders.append(step_config.parent.parent)
    for folder in folders:
        for name in REGISTRY_FILE_NAMES:
            candidate = folder / name
            if candidate.is_file():
                return candidate
    raise InputError(
        str(step_config),
        "no registry found",
        [
            Problem(
                "",
                f"put one of {', '.join(REGISTRY_FILE_NAMES)} next to the step config, or pass --registry FILE",
            )
        ],
    )


def load_registry_model(path: Path) -> tuple[Document, RegistryModel]:
    """Parse and validate a registry file (structure only; see ``Universe`` for meaning)."""
    document = load_document(path, "registry")
    if not isinstance(document.data, dict):
        raise InputError(
            str(path),
            "not a registry",
            [Problem("(top level)", "expected an object with mcp_servers, custom_tools, modes, …")],
        )
    return document, validate(RegistryModel, document.data, str(path), "registry")
