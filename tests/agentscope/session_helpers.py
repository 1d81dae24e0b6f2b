"""Helpers for the session tests: the shipped recording script, and a conversation that loses a tool."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path


def recorder(samples: Path):
    """The shipped recording script, imported as a module (its agent is the real one)."""
    spec = importlib.util.spec_from_file_location("record_session", samples / "record_session.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def drop_web_turns():
    """Activate both groups, search, then keep only scraping, then fetch: lost on every version."""
    from agentscope.message import TextBlock, ToolCallBlock

    def tc(text, name, args, call_id):
        return ([TextBlock(text=text)] if text else []) + [ToolCallBlock(id=call_id, name=name, input=json.dumps(args))]

    return [
        tc("Web tools, please.", "reset_tools", {"web_search": True, "scraping": True}, "a1"),
        tc(None, "web_search", {"query": "secret-query-value"}, "a2"),
        tc("Scraping only now.", "reset_tools", {"scraping": True}, "a3"),
        tc(None, "page_fetch", {"url": "https://example.org/private"}, "a4"),
        [TextBlock(text="I can't fetch pages.")],
    ]
