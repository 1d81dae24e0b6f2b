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
