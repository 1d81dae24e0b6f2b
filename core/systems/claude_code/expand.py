"""``${VAR}`` and ``${VAR:-default}`` in a server entry, expanded as Claude Code expands them.

Observed with Claude Code 2.1.332 (a stdio server that wrote its argv and environment to a
file): both forms are expanded in ``command``, ``args`` and ``env`` values (and, by the same
code, ``url`` and ``headers`` values). A set variable gives its value, even when empty
(``${EMPTY:-d}`` → ""); an unset one its default, which is everything after the first ``:-``
(``${UNSET:-a:-b}`` → ``a:-b``); an unset one without a default stays as written. ``$VAR``
without braces is not expanded. The variables are the environment plus the ``env`` block of the
user's ``~/.claude/settings.json`` (a project settings ``env`` block reaches the server's
environment but not the expansion). Codex 0.171.0 expands nothing (``${VAR}`` reaches the server
as written). Every value taken from the environment is returned, so that it can be masked
wherever it could surface: it is a secret until proven otherwise.

Public API::

    expand_entry(entry, environ) -> Expansion
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

_REFERENCE = re.compile(r"\$\{([^}]+)\}")
_EXPANDED_KEYS = ("command", "args", "env", "url", "headers")


@dataclass(frozen=True)
class Expansion:
    """An entry after expansion, the values taken from the environment, the variables left unset."""

    entry: dict[str, Any]
    environ_values: frozenset[str]
    missing: tuple[str, ...]


class _Expander:
    def __init__(self, environ: Mapping[str, str]) -> None:
        self.environ = environ
        self.taken: set[str] = set()
        self.missing: list[str] = []

    def text(self, value: str) -> str:
        return _REFERENCE.sub(self._one, value)

    def _one(self, match: re.Match[str]) -> str:
        name, has_default, default = match.group(1).partition(":-")
        if name in self.environ:
            self.taken.add(self.environ[name])
            return self.environ[name]
        if has_default:
            return default
        self.missing.append(name)
        return match.group(0)

    def value(self, value: Any) -> Any:
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, list):
            return [self.value(v) for v in value]
        if isinstance(value, dict):
            return {k: self.value(v) for k, v in value.items()}
        return value


def expand_entry(entry: Mapping[str, Any], environ: Mapping[str, str]) -> Expansion:
    """The entry with ``${VAR}`` / ``${VAR:-default}`` expanded in the keys Claude Code expands."""
    expander = _Expander(environ)
    out = dict(entry)
    for key in _EXPANDED_KEYS:
        if key in out:
            out[key] = expander.value(out[key])
    return Expansion(out, frozenset(v for v in expander.taken if v), tuple(dict.fromkeys(expander.missing)))
