"""Claude Code: which MCP tools the model receives and may call, in Claude Code's own order.

``files`` reads the real files (``~/.claude.json``, the settings scopes, ``.mcp.json``, managed
files, ``--mcp-config``); ``args`` the flags a session was started with; ``servers`` decides
stages 1-5 per server definition (source, precedence, approval, policy, connection);
``permissions`` the rules; ``tools`` stages 6-9 per tool (naming, deny, in context, callable);
``subject`` answers the Subject protocol, ``checklist`` and ``findings`` build on it.
Facts: Claude Code 2.1.332 as observed (reference/coding-agent-clis.md §1, tests/clis).
"""
