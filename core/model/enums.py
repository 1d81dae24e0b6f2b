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
3. Regenerate the committed JSON Schemas (``python -m toolscope.core.schemas``): the
   enums appear in them, and ``tests/test_contracts.py`` fails until they match.
4. Add it to the README's list (the same test compares the README with the enum).
"""

from __future__ import annotations

from enum import StrEnum


class StageId(StrEnum):
    """A gate in a tool's pipeline (``Stage.name``)."""

    REGISTERED = "registered"
    """Both systems: the tool is in the universe (registry / toolkit)."""
    ALLOW_LISTED = "allow_listed"
    """AgentWorks: the mode's allow-list names it."""
    DISCOVERABLE = "discoverable"
    """AgentWorks: the model can find it (native list or tool index)."""
    CALLABLE = "callable"
    """Both systems: a call reaches it."""
    VISIBLE = "visible"
    """AgentScope: its group is active."""


AGENTWORKS_STAGES: tuple[StageId, ...] = (
    StageId.REGISTERED,
    StageId.ALLOW_LISTED,
    StageId.DISCOVERABLE,
    StageId.CALLABLE,
)
AGENTSCOPE_STAGES: tuple[StageId, ...] = (StageId.REGISTERED, StageId.VISIBLE, StageId.CALLABLE)


class Verdict(StrEnum):
    """A tool's overall answer: every stage passed, one failed, or one could not be decided."""

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


class FindingKind(StrEnum):
    """What a ``check`` finding is about (``Finding.kind``)."""

    # Both systems
    DUPLICATE_NAME = "duplicate_name"
    MCP_OUTAGE = "mcp_outage"
    EXPECTATION_FAILED = "expectation_failed"
    # AgentWorks step configs
    ALLOW_LISTED_UNREGISTERED = "allow_listed_unregistered"
    REGISTERED_NOT_ALLOW_LISTED = "registered_not_allow_listed"
    DEAD_RULE = "dead_rule"
    BARE_ENTRY = "bare_entry"
    WHITESPACE_ENTRY = "whitespace_entry"
    UNKNOWN_CATEGORY = "unknown_category"
    SERVER_NOT_SELECTED = "server_not_selected"
    NO_SERVERS_MIXED = "no_servers_mixed"
    MCP_DRIFT = "mcp_drift"
    ENABLED_FILTERED_OUT = "enabled_filtered_out"
    """enabled_custom_tools enables a tool the tool filter then drops."""
    APP_REWRITE = "app_rewrite"
    """The app's rewrite of selected_servers/selected_tools changes which tools are registered."""
    UNKNOWN_KEY = "unknown_key"
    """A step-config or mcpServers key AgentWorks does not read (``config_findings``)."""
    MIXED_ERA = "mixed_era"
    """The registry has sections of an era other than the one it models (they are not applied)."""
    PRODUCT_MANIFEST = "product_manifest"
    """product.yaml breaks a rule AgentWorks' validateChatDefinitions enforces."""
    WORKFLOW_MANIFEST = "workflow_manifest"
    """workflow.json has what AgentWorks refuses to save (duplicate or empty server names)."""
    WORKFLOW_OVERRIDE = "workflow_override"
    """workflow.json execution_defaults replace a step's own setting."""
    RETIRED_TOOL = "retired_tool"
    """A step entry names a tool AgentWorks retired; says the replacement."""
    # AgentScope toolkits
    UNKNOWN_ACTIVE_GROUP = "unknown_active_group"
    NEVER_CALLABLE = "never_callable"
    EMPTY_GROUP = "empty_group"
    GROUP_WITHOUT_DESCRIPTION = "group_without_description"


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


class InputKind(StrEnum):
    """What CONFIG turned out to be (``LoadedInput.kind``)."""

    STEP_CONFIG = "step_config"
    TOOLKIT_SPEC = "toolkit_spec"
    TOOLKIT_FACTORY = "toolkit_factory"


class Lane(StrEnum):
    """The two sides of an activation session: the installed meta tool, and it guarded."""

    STOCK = "stock"
    GUARDED = "guarded"


class TurnKind(StrEnum):
    """A step of an activation session: a reset_tools call, or a group registered mid-session."""

    CALL = "call"
    REGISTER_GROUP = "register_group"
