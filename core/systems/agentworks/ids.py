"""AgentWorks' own words: its stages, the finding kinds it emits, its input kind.

Each member *is* its string (``AgentWorksStage.ALLOW_LISTED == "allow_listed"``); the registry
(``system.py``) declares them, and the JSON Schemas list them from there.
"""

from __future__ import annotations

from enum import StrEnum


class AgentWorksStage(StrEnum):
    """The four gates of a step's tool, in order."""

    REGISTERED = "registered"
    """The tool is in the universe the step is built with (the tool filter, enabled custom tools)."""
    ALLOW_LISTED = "allow_listed"
    """The mode's allow-list names it."""
    DISCOVERABLE = "discoverable"
    """The model can find it (native list or tool index)."""
    CALLABLE = "callable"
    """A call reaches it (the execution gate)."""


class AgentWorksFinding(StrEnum):
    """What an AgentWorks ``check`` finding is about (shared kinds: ``core.model.enums.SharedFinding``)."""

    ALLOW_LISTED_UNREGISTERED = "allow_listed_unregistered"
    REGISTERED_NOT_ALLOW_LISTED = "registered_not_allow_listed"
    DEAD_RULE = "dead_rule"
    BARE_ENTRY = "bare_entry"
    WHITESPACE_ENTRY = "whitespace_entry"
    UNKNOWN_CATEGORY = "unknown_category"
    SERVER_NOT_SELECTED = "server_not_selected"
    NO_SERVERS_MIXED = "no_servers_mixed"
    ENABLED_FILTERED_OUT = "enabled_filtered_out"
    """enabled_custom_tools enables a tool the tool filter then drops."""
    APP_REWRITE = "app_rewrite"
    """The app's rewrite of selected_servers/selected_tools changes which tools are registered."""
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


class AgentWorksInput(StrEnum):
    """What CONFIG is when it is AgentWorks'."""

    STEP_CONFIG = "step_config"


AGENTWORKS_STAGES: tuple[AgentWorksStage, ...] = tuple(AgentWorksStage)
