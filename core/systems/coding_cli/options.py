"""Options Claude Code and Codex both take, declared once."""

from __future__ import annotations

from ..contract import OptionSpec

CLIENT_ARGS = OptionSpec(
    "client_args",
    ("--client-args",),
    'The flags the session was started with: claude-code, e.g. "-p --mcp-config f.json --allowedTools mcp__x"; '
    'codex, e.g. "--profile work -c mcp_servers.x.enabled=false -m o3".',
    group="Claude Code",
)
"""Listed under Claude Code's panel (the first system declaring it); each system parses its own flags."""
