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
    """A gate in a tool's pipeline (``Stage.name``). ``visible`` is the AgentScope stage shown as
    *offered*: the model is sent the tool's schema (its group is active); an offered tool may
    still be refused at ``callable``. The verdict ``visible`` means every stage passed."""

    REGISTERED = "registered"
    """Both systems: the tool is in the universe (registry / toolkit)."""
    ALLOW_LISTED = "allow_listed"
    """AgentWorks: the mode's allow-list names it."""
    DISCOVERABLE = "discoverable"
    """AgentWorks: the model can find it (native list or tool index)."""
    CALLABLE = "callable"
    """Both systems: a call reaches it."""
    VISIBLE = "visible"
    """AgentScope, shown as "offered": its group is active, so the model is sent its schema."""
    # Claude Code (core/systems/claude_code), in the CLI's own order
    SOURCE = "source"
    """Claude Code: a file Claude reads defines the server (scope)."""
    PRECEDENCE = "precedence"
    """Claude Code: this definition wins over same-name ones in other scopes."""
    APPROVAL = "approval"
    """Claude Code: a .mcp.json server is approved (-p and interactive answers differ)."""
    POLICY = "policy"
    """Claude Code: allowedMcpServers / deniedMcpServers let the server start."""
    CONNECTION = "connection"
    """Both CLIs: the server started and listed its tools."""
    NAMING = "naming"
    """Both CLIs: the model-facing name, and collisions."""
    DENY = "deny"
    """Claude Code: no permissions.deny rule removes the tool."""
    IN_CONTEXT = "in_context"
    """Both CLIs: the tool reaches the model, in full or deferred behind tool search."""
    # Codex (core/systems/codex)
    LAYER = "layer"
    """Codex: a config layer Codex reads defines the server (project layers need trust)."""
    REQUIREMENTS = "requirements"
    """Codex: /etc/codex/requirements.toml admits the server."""
    ENABLED = "enabled"
    """Codex: the server's ``enabled`` key."""
    TOOL_FILTER = "tool_filter"
    """Codex: enabled_tools / disabled_tools keep the tool."""
    APPROVAL_POLICY = "approval_policy"
    """Codex: a call runs under the approval policy (the callable stage of Codex)."""


AGENTWORKS_STAGES: tuple[StageId, ...] = (
    StageId.REGISTERED,
    StageId.ALLOW_LISTED,
    StageId.DISCOVERABLE,
    StageId.CALLABLE,
)
AGENTSCOPE_STAGES: tuple[StageId, ...] = (StageId.REGISTERED, StageId.VISIBLE, StageId.CALLABLE)
CLAUDE_CODE_STAGES: tuple[StageId, ...] = (
    StageId.SOURCE,
    StageId.PRECEDENCE,
    StageId.APPROVAL,
    StageId.POLICY,
    StageId.CONNECTION,
    StageId.NAMING,
    StageId.DENY,
    StageId.IN_CONTEXT,
    StageId.CALLABLE,
)
CODEX_STAGES: tuple[StageId, ...] = (
    StageId.LAYER,
    StageId.REQUIREMENTS,
    StageId.ENABLED,
    StageId.CONNECTION,
    StageId.TOOL_FILTER,
    StageId.NAMING,
    StageId.IN_CONTEXT,
    StageId.APPROVAL_POLICY,
)


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


class FindingKind(StrEnum):
    """What a ``check`` finding is about (``Finding.kind``)."""

    # Both systems
    DUPLICATE_NAME = "duplicate_name"
    MCP_OUTAGE = "mcp_outage"
    MCP_NOT_STARTED = "mcp_not_started"
    """A server toolscope did not start (no ``--discover``): its tools are unknown, not absent."""
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
    # AgentScope 1.x toolkits and sessions
    META_TOOL_MISSING = "meta_tool_missing"
    """Groups start inactive and reset_equipped_tools is not registered: nobody can reach them."""
    UNKNOWN_GROUP_ACTIVATED = "unknown_group_activated"
    """A recorded reset_equipped_tools call activated a group that does not exist (1.x claimed success)."""
    # Coding-agent CLIs (Claude Code, Codex): the traps of reference/coding-agent-clis.md §3
    UNREAD_SERVERS = "unread_servers"
    """Claude Code: mcpServers in a file Claude never reads (settings.json, ~/.mcp.json)."""
    RULE_MATCHES_NOTHING = "rule_matches_nothing"
    """Claude Code: a permission rule (or server policy entry) in a form that matches no tool."""
    UNTRUSTED_IGNORED = "untrusted_ignored"
    """Both CLIs: project keys ignored because the project is not trusted."""
    DISABLED_BY_DIALOG = "disabled_by_dialog"
    """Claude Code: disabledMcpjsonServers (what the approval dialog writes) hides a .mcp.json server."""
    APPROVAL_DIFFERS = "approval_differs"
    """Claude Code: a .mcp.json server -p connects but the interactive app leaves pending."""
    MANAGED_EXCLUSIVE = "managed_exclusive"
    """Claude Code: managed-mcp.json drops every other server."""
    SERVER_BLOCKED = "server_blocked"
    """Both CLIs: a server policy / requirements entry blocks a configured server (no trace in the CLI)."""
    NAME_COLLISION = "name_collision"
    """Both CLIs: two tools get the same model-facing name (Claude keeps one; Codex renames all)."""
    BRIDGE_BLOCKED = "bridge_blocked"
    """AgentWorks with a CLI provider: the CLI's own settings on the machine block the api-bridge."""
    TOOL_FILTER_MATCHES_NOTHING = "tool_filter_matches_nothing"
    """Codex: an enabled_tools / disabled_tools name the server does not list."""


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


class InputKind(StrEnum):
    """What CONFIG turned out to be (``LoadedInput.kind``)."""

    STEP_CONFIG = "step_config"
    TOOLKIT_SPEC = "toolkit_spec"
    TOOLKIT_FACTORY = "toolkit_factory"
    CLAUDE_CODE = "claude_code"
    CODEX = "codex"


class Lane(StrEnum):
    """The two sides of an activation session: the installed meta tool, and it guarded."""

    STOCK = "stock"
    GUARDED = "guarded"


class TurnKind(StrEnum):
    """A step of an activation session: a reset_tools call, or a group registered mid-session."""

    CALL = "call"
    REGISTER_GROUP = "register_group"
