"""The one list of modelled systems, and what the front ends ask of it.

Built-in systems, in this order (the order of the JSON Schemas' enums, of the help panels and
of detection): AgentWorks, AgentScope 2.x, AgentScope 1.x, Claude Code, Codex, Gemini CLI, OpenCode. Each is the
``SYSTEM`` of its package's ``system.py`` (``core.systems.contract``): data, cheap to import.

More systems (a plugin, a test's toy system) are added by:

- ``register(system)`` in the same process, or
- the environment variable ``TOOLSCOPE_SYSTEMS``: comma-separated module names, each defining
  ``SYSTEM``; read once, on the first question asked of the registry, so a ``toolscope``
  subprocess sees them too (``TOOLSCOPE_SYSTEMS=my_pkg.system toolscope tools my:DIR``).

Public API::

    systems() -> tuple[System, ...]
    system_named(key) -> System                 # KeyError for an unknown key
    system_of_kind(kind) -> System              # the first system whose input_kinds has it
    by_prefix(target) -> (System, DIR) | None   # "codex:DIR"
    prefixes() -> tuple[str, ...]
    seen_in(folder) -> list[(System, markers)]  # whose files a plain folder holds
    stage_ids() / finding_kinds() / input_kinds()   # every system's, once each, in registry order
    stage_titles() / stage_headers()            # stage id -> title / short header
    STAGE_TITLES / STAGE_HEADERS                # the same as live mappings
    options() -> tuple[OptionSpec, ...]         # every system option, once each
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

from ..model.enums import SharedFinding
from .agentscope.system import SYSTEM as AGENTSCOPE
from .agentscope.v1.system import SYSTEM as AGENTSCOPE1
from .agentworks.system import SYSTEM as AGENTWORKS
from .claude_code.system import SYSTEM as CLAUDE_CODE
from .codex.system import SYSTEM as CODEX
from .contract import OptionSpec, System
from .gemini_cli.system import SYSTEM as GEMINI_CLI
from .opencode.system import SYSTEM as OPENCODE

__all__ = [
    "BUILTIN",
    "ENV_VAR",
    "STAGE_HEADERS",
    "STAGE_TITLES",
    "by_prefix",
    "finding_kinds",
    "input_kinds",
    "options",
    "prefixes",
    "register",
    "seen_in",
    "stage_headers",
    "stage_ids",
    "stage_titles",
    "system_named",
    "system_of_kind",
    "systems",
]

BUILTIN: tuple[System, ...] = (AGENTWORKS, AGENTSCOPE, AGENTSCOPE1, CLAUDE_CODE, CODEX, GEMINI_CLI, OPENCODE)
ENV_VAR = "TOOLSCOPE_SYSTEMS"
MAX_EXTRA = 32
"""At most this many systems from ``TOOLSCOPE_SYSTEMS`` (a bound on outside data)."""

_registered: list[System] = []
_from_env: tuple[System, ...] | None = None


def register(system: System) -> None:
    """Add ``system`` after the built-in ones (a second system with the same key replaces the first)."""
    _registered[:] = [s for s in _registered if s.key != system.key]
    _registered.append(system)


def unregister(key: str) -> None:
    """Remove a system ``register`` added (tests)."""
    _registered[:] = [s for s in _registered if s.key != key]


def _env_systems() -> tuple[System, ...]:
    """The systems ``TOOLSCOPE_SYSTEMS`` names (imported once; a bad name is an ImportError: exit 70)."""
    global _from_env
    if _from_env is None:
        names = [n.strip() for n in os.environ.get(ENV_VAR, "").split(",") if n.strip()][:MAX_EXTRA]
        _from_env = tuple(importlib.import_module(name).SYSTEM for name in names)
    return _from_env


def systems() -> tuple[System, ...]:
    """Every system: the built-in ones, then the environment's, then the registered ones (each key once)."""
    out: dict[str, System] = {}
    for system in (*BUILTIN, *_env_systems(), *_registered):
        out.setdefault(system.key, system)
    return tuple(out.values())


def system_named(key: str) -> System:
    """The system with this key."""
    for system in systems():
        if system.key == key:
            return system
    raise KeyError(key)


def system_of_kind(kind: str) -> System:
    """The system that opens inputs of this kind (KeyError when none does)."""
    for system in systems():
        if kind in system.input_kinds:
            return system
    raise KeyError(kind)


def prefixes() -> tuple[str, ...]:
    """Every ``prefix:`` a CONFIG can start with (``claude-code:``, ``codex:``)."""
    return tuple(s.prefix for s in systems() if s.prefix)


def by_prefix(target: str) -> tuple[System, Path] | None:
    """``codex:DIR`` → (Codex, DIR); a bare prefix is the cwd. None for any other CONFIG."""
    for system in systems():
        if system.prefix and target.startswith(system.prefix):
            return system, Path(target[len(system.prefix) :] or ".")
    return None


def seen_in(folder: Path) -> list[tuple[System, tuple[str, ...]]]:
    """The prefixed systems whose files ``folder`` holds, with the markers found."""
    found = []
    for system in systems():
        if system.prefix and system.markers:
            markers = system.seen_in(folder)
            if markers:
                found.append((system, markers))
    return found


def _union(values: list[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(values))


def stage_ids() -> tuple[str, ...]:
    """Every stage id, once, in registry order (the JSON Schemas' ``stages`` enum)."""
    return _union([stage.id for system in systems() for stage in system.stages])


def finding_kinds() -> tuple[str, ...]:
    """Every finding kind: the systems' in registry order, then the shared ones none declared."""
    declared = [kind for system in systems() for kind in system.finding_kinds]
    return _union([*declared, *SharedFinding])


def input_kinds() -> tuple[str, ...]:
    """Every input kind, once, in registry order."""
    return _union([kind for system in systems() for kind in system.input_kinds])


def stage_titles() -> dict[str, str]:
    """Stage id → title (the first system to declare an id names it)."""
    out: dict[str, str] = {}
    for system in systems():
        for stage in system.stages:
            out.setdefault(stage.id, stage.title)
    return out


def stage_headers() -> dict[str, str]:
    """Stage id → short column header."""
    out: dict[str, str] = {}
    for system in systems():
        for stage in system.stages:
            out.setdefault(stage.id, stage.header)
    return out


def options() -> tuple[OptionSpec, ...]:
    """Every system option, once each (by name), in registry order."""
    out: dict[str, OptionSpec] = {}
    for system in systems():
        for option in system.options:
            out.setdefault(option.name, option)
    return tuple(out.values())


class _StageNames(Mapping[str, str]):
    """Stage id → title (or header), read from the registry on each look-up (a system registered
    later is seen); what tables, reports and the TUI name stages by."""

    def __init__(self, of: Callable[[], dict[str, str]]) -> None:
        self._of = of

    def __getitem__(self, key: str) -> str:
        return self._of()[key]

    def get(self, key: str, default: Any = None) -> Any:
        return self._of().get(key, default)

    def __iter__(self) -> Iterator[str]:
        return iter(self._of())

    def __len__(self) -> int:
        return len(self._of())


STAGE_TITLES: Mapping[str, str] = _StageNames(stage_titles)
"""``STAGE_TITLES["visible"] == "offered"``."""
STAGE_HEADERS: Mapping[str, str] = _StageNames(stage_headers)
"""``STAGE_HEADERS["allow_listed"] == "ALLOW"``: the short column headers."""
