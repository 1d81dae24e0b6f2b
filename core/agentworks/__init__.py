"""AgentWorks step configs: the registry of the tool universe (``registry``, ``universe``, its
modes resolved in ``mode_table``), step
configs and their keys (``step_config``, ``step_keys``), the app's rewrite of a step's lists
(``selection_rewrite``, ``profile``), the four gates (``tool_filter`` and ``custom_filter`` for
stage 1, ``later_stages`` for 2-4, run together by ``pipeline``), invariant checks
(``invariants``), the seed's checklist (``checklist``) and the loaded input (``subject``, from the
``world`` all steps share). Live MCP listings: ``mcp_tools`` (what they add to the universe) and
``discovery_drift`` (``--drift-from``). ``registry check --go-src``: ``go_syntax`` reads a Go
checkout's literals, ``go_source`` the facts in them, ``registry_drift`` compares them with the
registry."""
