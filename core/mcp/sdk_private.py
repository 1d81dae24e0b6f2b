"""The one place toolscope touches a private name of the ``mcp`` SDK.

``stdio_client`` keeps the server process it spawns to itself; discovery needs its PID to
kill a hung server at its deadline and to find what the server left behind. The SDK spawns
through the module-level ``mcp.client.stdio._create_platform_compatible_process``;
``install_spawn_hook`` wraps it so each discovery task learns the process it spawned.

``mcp`` is pinned exactly in pyproject.toml for this, and ``tests/mcp/test_sdk_private.py``
fails when the name, its parameters or ``stdio_client``'s use of it change. Should the name
be missing anyway (another SDK release installed by hand), only the fast kill is lost: the
SDK's own shutdown still ends the server, and descendants are found from the process tree.
"""

from __future__ import annotations

import contextvars
from typing import Any

PRIVATE_SPAWN = ("mcp.client.stdio", "_create_platform_compatible_process")
"""(module, name) of the SDK's process factory that ``stdio_client`` calls."""

SPAWNED: contextvars.ContextVar[list[Any] | None] = contextvars.ContextVar("toolscope_mcp_spawned", default=None)
"""The processes the SDK's stdio_client spawned for the current task (see install_spawn_hook)."""

_HOOKED: list[bool] = []


def install_spawn_hook() -> bool:
    """Wrap the SDK's process factory (once); True when the hook is in place.

    The wrapper is transparent and records into a per-task ContextVar, so concurrent
    discoveries (and other users of the SDK) are unaffected.
    """
    if _HOOKED:
        return _HOOKED[0]
    import importlib

    module = importlib.import_module(PRIVATE_SPAWN[0])
    original = getattr(module, PRIVATE_SPAWN[1], None)
    if original is None:  # pragma: no cover - another SDK than the pinned one
        _HOOKED.append(False)
        return False

    async def spawn(*args: Any, **kwargs: Any) -> Any:
        process = await original(*args, **kwargs)
        sink = SPAWNED.get()
        if sink is not None:
            sink.append(process)
        return process

    setattr(module, PRIVATE_SPAWN[1], spawn)
    _HOOKED.append(True)
    return True
