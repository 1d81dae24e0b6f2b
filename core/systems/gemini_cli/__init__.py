"""Gemini CLI (``@google/gemini-cli`` 0.61.0): which MCP tools a session sends the model, stage by stage.

Facts observed with the real binary (``shared/reference/gemini-cli.md``, checked again under
``tests/gemini_cli``); the settings files are read, never written.
"""
