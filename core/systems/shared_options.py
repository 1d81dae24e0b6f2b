"""Options more than one system takes, declared once (a system lists the same ``OptionSpec``)."""

from __future__ import annotations

from .contract import OptionSpec

SNAPSHOT = OptionSpec(
    "snapshot",
    ("--snapshot",),
    "Use a saved MCP discovery snapshot instead of live discovery.",
    type="path",
    group="MCP discovery",
)
"""AgentWorks registries with mcp_config, and the coding-agent CLIs' servers."""

DISCOVER = OptionSpec(
    "discover",
    ("--discover",),
    "Start the MCP servers the input names (as the modelled CLI or AgentWorks would) to list their tools: this runs "
    "their commands. Without it only the servers your own ~/.claude.json or $CODEX_HOME/config.toml defines start; "
    "the others' tools are unknown, not started.",
    type="bool",
    default=False,
    group="MCP discovery",
)
"""The opt-in of ``core.mcp.start_policy``: the same systems as ``SNAPSHOT``."""
