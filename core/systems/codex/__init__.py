"""Codex CLI: which MCP tools the model receives and may call, in Codex's own order.

``layers`` reads and merges the TOML layers (``/etc/codex``, ``$CODEX_HOME``, a trusted
project's ``.codex/config.toml``, ``-c`` overrides, managed config); ``tools`` decides the
stages per server and tool (layer and trust, requirements, enabled, startup, tool filter,
naming, deferral by model, approval); ``rows`` puts them together into one row per tool under an
approval policy; ``checklist`` and ``findings`` answer ``explain`` and the traps; ``subject``
answers the Subject protocol.
Facts: Codex 0.171.0 as observed (reference/coding-agent-clis.md §2, tests/clis).
"""
