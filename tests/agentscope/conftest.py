"""Fixtures for the AgentScope tests: the seed's toolkit, real call_tool helpers."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

SAMPLES = Path(__file__).resolve().parents[2] / "sample_configs" / "agentscope"


@pytest.fixture
def samples() -> Path:
    return SAMPLES


@pytest.fixture
def seed_built() -> Any:
    """The seed's world as a real Toolkit + AgentState (fresh for every test)."""
    from toolscope.core.systems.agentscope.spec import load_toolkit_spec

    return load_toolkit_spec(SAMPLES / "toolkit.yaml")


async def call_tool(toolkit: Any, state: Any, name: str, value: Any) -> Any:
    """Call a tool through the real ``toolkit.call_tool``; returns the final ToolResponse."""
    from agentscope.message import ToolCallBlock

    raw = value if isinstance(value, str) else json.dumps(value)
    response = None
    async for item in toolkit.call_tool(ToolCallBlock(id="t", name=name, input=raw), state):
        response = item
    return response


def text_of(response: Any) -> str:
    return "".join(getattr(b, "text", "") for b in response.content)


@pytest.fixture
def call() -> Callable[..., Awaitable[Any]]:
    """``await call(toolkit, state, args_or_raw, name="reset_tools")`` → ToolResponse."""

    async def _call(toolkit: Any, state: Any, value: Any, name: str = "reset_tools") -> Any:
        return await call_tool(toolkit, state, name, value)

    return _call


@pytest.fixture
def text() -> Callable[[Any], str]:
    return text_of
