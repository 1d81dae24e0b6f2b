"""The help panels options are listed under (``--help``): one per system, by the system's title.

A command's own options come first (``Options``); then each system's, in this order.
"""

from __future__ import annotations

AGENTWORKS = "AgentWorks"
AGENTSCOPE = "AgentScope 2.x and 1.x"
CLAUDE_CODE = "Claude Code"
CODEX = "Codex"
MCP_DISCOVERY = "MCP discovery"

PANEL_ORDER = ("Options", AGENTWORKS, AGENTSCOPE, CLAUDE_CODE, CODEX, MCP_DISCOVERY)
"""Sections in this order; a panel not named here comes after them."""
