"""Gemini CLI's settings files, read as 0.61.0 reads them (reference §2 stage 1, checked with the binary).

Precedence, lowest first: ``/etc/gemini-cli/system-defaults.json`` < ``~/.gemini/settings.json``
< ``<cwd>/.gemini/settings.json`` (only in a trusted folder) < ``/etc/gemini-cli/settings.json``
(``GEMINI_CLI_SYSTEM_SETTINGS_PATH`` / ``GEMINI_CLI_SYSTEM_DEFAULTS_PATH`` move the system files).
``mcpServers`` merge by name (the whole entry replaced), ``tools.exclude`` and ``mcp.excluded``
are unions, other values (lists too) are replaced. ``$VAR``, ``${VAR}`` and ``${VAR:-default}``
expand from the environment at load; a variable that is not set stays literal.

Public API::

    SettingsFile, Settings, read_settings_file(path, shown, scope, environ) -> SettingsFile | None
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...inputs.positions import json_positions
from ..coding_cli.common import read_json_file

SCOPES = ("system-defaults", "user", "workspace", "system")
"""In precedence order, lowest first."""
_VAR = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)")
MAX_DEPTH = 64


def expand(value: Any, environ: Mapping[str, str], depth: int = 0) -> Any:
    """``$VAR`` / ``${VAR}`` / ``${VAR:-d}`` in every string, as the CLI does at load."""
    if depth > MAX_DEPTH:
        return value
    if isinstance(value, str):
        return _VAR.sub(lambda m: _one(m, environ), value)
    if isinstance(value, list):
        return [expand(v, environ, depth + 1) for v in value]
    if isinstance(value, dict):
        return {k: expand(v, environ, depth + 1) for k, v in value.items()}
    return value


def _one(match: re.Match[str], environ: Mapping[str, str]) -> str:
    name = match.group(1) or match.group(3)
    if name in environ:
        return environ[name]
    if match.group(2) is not None:
        return match.group(2)
    return match.group(0)


@dataclass(frozen=True)
class SettingsFile:
    """One settings file the CLI reads (after ``$VAR`` expansion)."""

    scope: str
    path: Path
    shown: str
    data: dict[str, Any]
    sha256: str
    positions: Mapping[tuple[str | int, ...], tuple[int, int]] = field(default_factory=dict)

    def get(self, dotted: str) -> Any:
        """The value at ``a.b.c`` (None when absent)."""
        node: Any = self.data
        for key in dotted.split("."):
            if not isinstance(node, dict) or key not in node:
                return None
            node = node[key]
        return node

    def at(self, dotted: str, *more: str | int) -> str:
        """``~/.gemini/settings.json:12: tools.core``: the file, the line and the key."""
        path = (*dotted.split("."), *more)
        found = self.positions.get(path)
        key = dotted + "".join(f"[{m}]" if isinstance(m, int) else f".{m}" for m in more)
        return f"{self.shown}:{found[0]}: {key}" if found else f"{self.shown}: {key}"


def read_settings_file(path: Path, shown: str, scope: str, environ: Mapping[str, str]) -> SettingsFile | None:
    """The file, None when absent; bad JSON is an InputError naming line:column."""
    found = read_json_file(path, shown, "Gemini CLI settings")
    if found is None:
        return None
    text = path.read_text(encoding="utf-8", errors="replace")
    try:
        positions = json_positions(text)
    except ValueError:
        positions = {}
    return SettingsFile(scope, path, shown, expand(found.data, environ), found.sha256, positions)


@dataclass(frozen=True)
class Settings:
    """The files that count, lowest precedence first, and the merged values the stages read."""

    files: tuple[SettingsFile, ...]
    ignored: tuple[SettingsFile, ...] = ()
    """Workspace settings the CLI does not read (untrusted folder, ``--skip-trust``)."""

    def last(self, dotted: str) -> tuple[Any, SettingsFile | None]:
        """The value of the highest-precedence file that sets ``dotted``."""
        for file in reversed(self.files):
            value = file.get(dotted)
            if value is not None:
                return value, file
        return None, None

    def each(self, dotted: str) -> Iterator[tuple[Any, SettingsFile]]:
        """Every file's value of ``dotted``, lowest precedence first."""
        for file in self.files:
            value = file.get(dotted)
            if value is not None:
                yield value, file

    def union(self, dotted: str) -> list[tuple[str, str]]:
        """A list key merged as a union: (item, ``file:line: key[i]``)."""
        out: list[tuple[str, str]] = []
        for value, file in self.each(dotted):
            if isinstance(value, list):
                out += [(str(v), file.at(dotted, i)) for i, v in enumerate(value) if isinstance(v, str)]
        return out

    def servers(self) -> dict[str, tuple[dict[str, Any], SettingsFile]]:
        """``mcpServers`` merged by name: the highest-precedence file's entry, whole."""
        out: dict[str, tuple[dict[str, Any], SettingsFile]] = {}
        for value, file in self.each("mcpServers"):
            if isinstance(value, dict):
                for name, entry in list(value.items())[:1000]:
                    if isinstance(entry, dict):
                        out[str(name)] = (entry, file)
        return out
