"""The mcp SDK's private name toolscope wraps (core/mcp/sdk_private.py) is still there, and still used.

mcp cannot be pinned to one release (AgentScope 1.x and 2.0.6 need mcp<2, 2.0.7+ mcp>=2), so
its range is capped at the newest release tested, and these tests run in every lane (mcp 1.x
and 2.x): they fail on the release that renames the factory, changes its parameters or stops
calling it from ``stdio_client``, before discovery silently loses its fast kill.
"""

from __future__ import annotations

import importlib
import inspect
import re
from importlib.metadata import version
from pathlib import Path

from toolscope.core.mcp.sdk_private import PRIVATE_SPAWN

REPO = Path(__file__).resolve().parents[2]


def newest_tested_mcp() -> str:
    text = (REPO / "pyproject.toml").read_text()
    match = re.search(r'"mcp>=[^,"]+,<=([^"]+)"', text)
    assert match, "mcp must be capped (<=) at the newest tested release: core/mcp/sdk_private.py uses a private name"
    return match.group(1)


def test_the_installed_mcp_is_within_the_tested_range() -> None:
    from packaging.version import Version

    assert Version(version("mcp")) <= Version(newest_tested_mcp())


def test_the_private_process_factory_exists_with_its_parameters() -> None:
    module = importlib.import_module(PRIVATE_SPAWN[0])
    factory = getattr(module, PRIVATE_SPAWN[1])
    assert inspect.iscoroutinefunction(factory) or inspect.iscoroutinefunction(getattr(factory, "__wrapped__", None))
    if factory.__name__ == "spawn":  # already wrapped by an earlier discovery in this process
        return
    assert list(inspect.signature(factory).parameters)[:5] == ["command", "args", "env", "errlog", "cwd"]


def test_stdio_client_calls_it_through_the_module_global() -> None:
    # The hook replaces the module attribute: it works only while stdio_client looks it up there.
    from mcp.client.stdio import stdio_client

    source = inspect.getsource(stdio_client)
    assert f"await {PRIVATE_SPAWN[1]}(" in source
