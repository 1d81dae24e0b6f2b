"""Helpers for the session tests: the shipped recording script, and a conversation that loses a tool."""

from __future__ import annotations

import importlib.util
from pathlib import Path

LANE_TURN_KEYS = {
    "call",
    "accepted",
    "response_state",
    "response_text",
    "groups_before",
    "groups_after",
    "visible_tools",
}
"""What every lane's side of a call turn says, in ``step --json`` and ``Turn.to_json()`` alike."""


def recorder(samples: Path):
    """The shipped recording script, imported as a module (its agent is the real one)."""
    spec = importlib.util.spec_from_file_location("record_session", samples / "record_session.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def sample_recorder():
    """The shipped recording script of ``sample_configs/agentscope``, imported as a module."""
    return recorder(Path(__file__).resolve().parents[2] / "sample_configs" / "agentscope")


def drop_web_turns():
    """Activate both groups, search, then keep only scraping, then fetch: lost on every version."""
    return sample_recorder().drop_turns()
