"""Coding-agent CLIs (Claude Code, Codex): which MCP tools the model receives, stage by stage.

Each CLI has its own subpackage that reads the CLI's real files (never writing them) and
decides every stage in the CLI's own order, naming the file, key and entry that decided it;
``common`` holds what both share (file reading with line:column errors, discovery of the
servers they define, stage construction). The facts come from the real binaries
(``shared/reference/coding-agent-clis.md`` and the captures in ``tests/clis``).
"""
