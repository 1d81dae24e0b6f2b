"""The closed vocabularies shared by core, CLI, TUI and reports, as ``StrEnum``s.

Every string that one layer writes and another layer compares lives here once: stage
ids, verdicts, tool kinds, finding kinds and severities, rule-code families and the
rule codes code branches on, input kinds, the TUI's view names, and the two lanes of
an activation session. A member *is* its string (``StageId.CALLABLE == "callable"``,
``json.dumps`` and f-strings give the plain value), so JSON outputs, goldens and
snapshots are unchanged; what changes is that a typo is a type error, and the README
and the JSON Schemas list exactly these values (``tests/test_contracts.py``).

How to add a value (a new finding kind, stage, tool kind, …):

1. Add the member here, in the enum it belongs to, with a comment saying who emits it.
2. Emit the member (``Finding(FindingKind.MY_KIND, ...)``), never the bare string:
   the JSON models serialize these fields as enums, and mypy checks the call.
3. Regenerate the committed JSON Schemas (``python -m toolscope.core.systems.schema_files``): the
   enums appear in them, and ``tests/test_contracts.py`` fails until they match.
4. Add it to the README's list (the same test compares the README with the enum).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any


class _Vocabulary:
    """An open string type whose values the systems declare (``core.systems.registry``).

    In Python it is ``str`` (a system's own ``StrEnum`` member is one); in the JSON Schemas it is
    an enum of every value the registry's systems declare, filled in by the generator
    (``core.systems.schema_files``: the schemas are generated above the systems). pydantic is
    imported only when a model is built, so this module stays cheap.
    """

    __slots__ = ("description", "title")

    def __init__(self, title: str, description: str) -> None:
        self.title = title
        self.description = description

    def __get_pydantic_core_schema__(self, source: Any, handler: Any) -> Any:
        from pydantic_core import core_schema

        metadata = {VOCABULARY: self.title, "description": self.description}
        return core_schema.str_schema(ref=f"toolscope.vocabulary.{self.title}", metadata=metadata)


VOCABULARY = "toolscope_vocabulary"
"""The core-schema metadata key naming a vocabulary (``StageId``, ``FindingKind``, ``InputKind``)."""

StageId = Annotated[
    str,
    _Vocabulary(
        "StageId",
        "A gate in a tool's pipeline (``Stage.name``). ``visible`` is the AgentScope stage shown as\n"
        "*offered*: the model is sent the tool's schema (its group is active); an offered tool may\n"
        "still be refused at ``callable``. The verdict ``visible`` means every stage passed.",
    ),
]
"""A stage id: each system declares its stages (``core/systems/<system>/ids.py``)."""


class SharedStage(StrEnum):
    """The stage ids code outside the systems compares (several systems have them)."""

    REGISTERED = "registered"
    """The tool is in the universe (registry / toolkit): the gate whose failure means "no such tool here"."""
    VISIBLE = "visible"
    """AgentScope, shown as "offered": its group is active, so the model is sent its schema."""
    CALLABLE = "callable"
    """A call reaches it."""


class Verdict(StrEnum):
    """A tool's overall answer. ``visible``: every stage passed, so the agent has the tool (it is
    offered to the model and a call goes through: usable). ``hidden``: a stage failed, so the agent
    lacks it, even when the model is offered it but a call is refused (a denied file_delete).
    ``unknown``: a stage could not be decided (an MCP server that failed)."""

    VISIBLE = "visible"
    HIDDEN = "hidden"
    UNKNOWN = "unknown"


class ToolKind(StrEnum):
    """What a tool is (``ToolVerdict.kind``)."""

    MCP = "mcp"
    """Both systems: listed by an MCP server."""
    CUSTOM = "custom"
    """AgentWorks: a custom (direct) tool of a category."""
    VIRTUAL = "virtual"
    """AgentWorks: a virtual tool (get_api_spec, …)."""
    OTHER = "other"
    """AgentWorks: a registry list entry of no known kind."""
    TOOL = "tool"
    """AgentScope: a function tool of a group."""
    META = "meta"
    """AgentScope: the builtin meta tool (reset_tools)."""


class Severity(StrEnum):
    """How bad a finding is: errors fail ``check``; warnings only with ``--strict``."""

    ERROR = "error"
    WARNING = "warning"


FindingKind = Annotated[str, _Vocabulary("FindingKind", "What a ``check`` finding is about (``Finding.kind``).")]
"""A finding kind: each system declares the kinds it emits (``core/systems/<system>/ids.py``)."""


class SharedFinding(StrEnum):
    """The finding kinds code outside one system emits or compares."""

    DUPLICATE_NAME = "duplicate_name"
    MCP_OUTAGE = "mcp_outage"
    EXPECTATION_FAILED = "expectation_failed"
    """``--expect`` (``core.model.expectations``)."""
    UNKNOWN_KEY = "unknown_key"
    """A step-config or mcpServers key the system does not read (``core.mcp.config``)."""
    MCP_DRIFT = "mcp_drift"
    """``check --drift-from``: tools added, removed or renamed since a snapshot."""


class RuleFamily(StrEnum):
    """The part of a rule code before the first dot: which gate's logic decided.

    Rule codes (``Stage.code``) are ``family.detail``; AgentWorks' registered stage
    composes them from the filters' own decision codes (``filter.specific_miss``,
    ``custom.not_enabled+filter.wildcard``), so the full set is open while the families
    are closed.
    """

    FILTER = "filter"
    CUSTOM = "custom"
    MCP = "mcp"
    MODE = "mode"
    DISCOVERY = "discovery"
    EXECUTION = "execution"
    GROUP = "group"
    META = "meta"
    PERMISSION = "permission"
    SCHEMA = "schema"

    @classmethod
    def of(cls, code: str) -> RuleFamily | None:
        """The family of a rule code (``custom.x+filter.y`` → custom), None for a foreign code."""
        head = code.partition(".")[0]
        try:
            return cls(head)
        except ValueError:
            return None


class RuleCode(StrEnum):
    """Rule codes that code branches on (checklists, fixes, outage answers)."""

    MCP_OUTAGE = "mcp.outage"
    MCP_DUPLICATE = "mcp.duplicate"
    FILTER_SERVER_NOT_SELECTED = "filter.server_not_selected"
    DISCOVERY_SERVER_EXCLUDED = "discovery.server_excluded"
    DISCOVERY_VIRTUAL_CUT = "discovery.virtual_cut"
    EXECUTION_DENIED = "execution.denied"
    GROUP_INACTIVE = "group.inactive"


InputKind = Annotated[str, _Vocabulary("InputKind", "What CONFIG turned out to be (``LoadedInput.kind``).")]
"""What CONFIG turned out to be: each system declares its input kinds (``System.input_kinds``)."""


class Lane(StrEnum):
    """The two sides of an activation session: the installed meta tool, and it guarded."""

    STOCK = "stock"
    GUARDED = "guarded"


class TurnKind(StrEnum):
    """A step of an activation session: a reset_tools call, or a group registered mid-session."""

    CALL = "call"
    REGISTER_GROUP = "register_group"
