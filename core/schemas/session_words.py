"""The words of a recorded AgentScope session that the JSON documents publish (``step/1``,
``report/2``), defined here, below the systems, so the models name them without importing
AgentScope's replay machinery; ``core.systems.agentscope`` uses the same types."""

from __future__ import annotations

from typing import Literal

SourceKind = Literal[
    "agent_state", "msg_list", "msg_jsonl", "app_storage", "tap", "v1_json_session", "v1_agent_state", "v1_memory"
]
"""Which kind of recorded session was read (``recorded.SOURCE_KINDS``)."""
StartFrom = Literal["session", "--groups", "toolkit"]
"""Where a replay's starting groups came from (``session_replay``)."""
Failure = Literal["not_found", "inactive_group"]
"""Why a recorded reset_tools call failed, as AgentScope said it."""
Visibility = Literal["visible", "inactive_group", "not_in_toolkit"]
"""Whether a tool the model called was offered at that point (``lost_tools``)."""
