"""Which AgentScope is installed, and whether toolscope supports it (read without importing it).

The installed major version decides the model: 2.x (``AgentState``-based groups,
``reset_tools``) or 1.x (groups on the ``Toolkit``, ``reset_equipped_tools``; modules in
``v1/``). The version comes from the distribution's metadata, so asking costs no
``import agentscope`` (seconds on 1.x) and works when that import itself would fail.

Supported: 1.x from 1.0.9 (PR #962: ``reset_equipped_tools`` sets the final state of every
group; before it, the meta tool only ever activated) and 2.x from 2.0.6 below 2.1.
Anything else is an ``InputError`` (exit 2) naming the installed version and both ranges.

Public API::

    installed_version() -> str | None
    agentscope_major() -> int            # 1 or 2; InputError when unsupported or missing
    parse_version(text) -> tuple[int, ...]
    SUPPORTED                            # the ranges, as users read them
"""

from __future__ import annotations

import re
from importlib import metadata

from ...model.errors import InputError, Problem

FLOOR_1X = (1, 0, 9)
FLOOR_2X = (2, 0, 6)
CEILING_2X = (2, 1)
SUPPORTED = "AgentScope 1.0.9 to 1.0.21 (1.x) and 2.0.6 to 2.0.x (2.x)"


def installed_version() -> str | None:
    """The installed ``agentscope`` distribution's version, None when it is not installed."""
    try:
        return metadata.version("agentscope")
    except metadata.PackageNotFoundError:
        return None


def parse_version(text: str) -> tuple[int, ...]:
    """The leading release numbers (``2.0.7.post1`` → (2, 0, 7); ``1.0.16dev`` → (1, 0, 16))."""
    numbers = []
    for part in text.split(".")[:4]:
        match = re.match(r"\d+", part)
        if not match:
            break
        numbers.append(int(match.group()))
        if match.end() != len(part):
            break
    return tuple(numbers)


def supported_major(version: str) -> int | None:
    """1 or 2 for a supported version, None otherwise."""
    release = parse_version(version)
    if release[:1] == (1,) and release >= FLOOR_1X:
        return 1
    if release[:1] == (2,) and FLOOR_2X <= release < CEILING_2X:
        return 2
    return None


def agentscope_major() -> int:
    """The installed major version (1 or 2); InputError (exit 2) when unsupported or missing."""
    version = installed_version()
    if version is None:
        raise InputError(
            "agentscope",
            "AgentScope is not installed",
            [Problem("", f"toolscope reads toolkits and sessions of {SUPPORTED}; pip install agentscope")],
        )
    major = supported_major(version)
    if major is None:
        raise InputError(
            "agentscope",
            f"the installed AgentScope {version} is not supported",
            [
                Problem(
                    "",
                    f"supported: {SUPPORTED}; pip install 'agentscope>=2.0.6,<2.1' (or 'agentscope==1.0.21' \"mcp<2\")",
                )
            ],
        )
    return major
