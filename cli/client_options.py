"""``ClientOptions``: the options of the coding-agent CLI inputs, as one value."""

from __future__ import annotations

from dataclasses import dataclass, fields
from pathlib import Path


@dataclass(frozen=True)
class ClientOptions:
    """The options of ``claude-code:DIR``, ``codex:DIR`` and ``gemini-cli:DIR`` (and ``--client-home``, the AgentWorks
    link to them). Unset: None, or () for the repeatable ``-c``."""

    home: Path | None = None
    managed_dir: Path | None = None
    client_args: str | None = None
    codex_home: Path | None = None
    codex_system_dir: Path | None = None
    codex_config: tuple[str, ...] = ()
    gemini_system_dir: Path | None = None
    client_home: Path | None = None

    def given_values(self) -> dict[str, object]:
        """Every option by name (None, or () for ``-c``, when not given)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}
