"""AgentScope's own words (2.x and 1.x): its stages, the finding kinds it emits, its input kinds.

Each member *is* its string; the registry (``system.py``, ``v1/system.py``) declares them.
"""

from __future__ import annotations

from enum import StrEnum


class AgentScopeStage(StrEnum):
    """The gates of a toolkit's tool (1.x has the first two)."""

    REGISTERED = "registered"
    """The tool is in some group of the Toolkit."""
    VISIBLE = "visible"
    """Shown as "offered": its group is active, so the model is sent its schema."""
    CALLABLE = "callable"
    """2.x: the PermissionEngine lets a call through."""


class AgentScopeFinding(StrEnum):
    """What an AgentScope ``check`` finding is about (shared kinds: ``core.model.enums.SharedFinding``)."""

    UNKNOWN_ACTIVE_GROUP = "unknown_active_group"
    NEVER_CALLABLE = "never_callable"
    EMPTY_GROUP = "empty_group"
    GROUP_WITHOUT_DESCRIPTION = "group_without_description"
    # AgentScope 1.x toolkits and sessions
    META_TOOL_MISSING = "meta_tool_missing"
    """1.x: groups start inactive and reset_equipped_tools is not registered: nobody can reach them."""
    UNKNOWN_GROUP_ACTIVATED = "unknown_group_activated"
    """1.x: a recorded reset_equipped_tools call activated a group that does not exist (1.x claimed success)."""


class AgentScopeInput(StrEnum):
    """What CONFIG is when it is a toolkit."""

    TOOLKIT_SPEC = "toolkit_spec"
    TOOLKIT_FACTORY = "toolkit_factory"


AGENTSCOPE_STAGES: tuple[AgentScopeStage, ...] = tuple(AgentScopeStage)
"""2.x's stages (1.x: ``v1.stages.AGENTSCOPE1_STAGES``, the first two)."""
