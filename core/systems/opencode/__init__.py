"""OpenCode (npm ``opencode-ai``): which tools an OpenCode agent's model receives, and why.

``layers`` finds and merges the config files as the binary does (global, ``OPENCODE_CONFIG``,
project files outer first, ``.opencode/`` folders inner first so the outer wins, ``~/.opencode``,
``OPENCODE_CONFIG_DIR``, ``OPENCODE_CONFIG_CONTENT``, managed ``/etc/opencode``), with ``{env:…}``
and ``{file:…}`` substituted; ``agents`` resolves the agent (``--agent``) and its rules;
``rules`` decides what removes a schema and what only refuses a call; ``rows`` builds one
verdict per tool (MCP and built-in); ``capture`` compares a captured run in OpenCode's terms.
Facts: OpenCode 1.18.33 as observed (shared/reference/opencode.md, tests/opencode).
"""
