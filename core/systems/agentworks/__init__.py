"""AgentWorks step configs.

- The registry and its tool universe: ``registry``, ``universe``, the modes resolved in
  ``mode_table`` (``product_modes`` for product.yaml's chats), the era in ``era``.
- Step configs and their keys: ``step_config``, ``step_keys``; the app's rewrite of a step's
  lists: ``selection_rewrite``, ``profile``.
- The four gates: stage 1 in ``registered_stage`` (``custom_filter``, then ``tool_filter``
  over the lists ``filter_entries`` parses; ``server_filter`` for ShouldIncludeServer),
  stages 2-4 in ``later_stages``, put together row by row in ``pipeline``.
- Invariant checks (``invariants``), the seed's checklist (``checklist``) ending at the fix
  (``fixes``), and the loaded input (``subject``, from the ``world`` all steps share).
- Live MCP listings: ``mcp_tools`` (what they add to the universe), ``discovery_drift``
  (``--drift-from``).
- ``registry check --go-src``: ``go_syntax`` reads a Go checkout's literals, ``go_source`` the
  facts in them, ``registry_drift`` compares them with the registry.
"""
