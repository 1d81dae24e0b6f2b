"""``ClientOptions``: the options of the coding-agent CLI inputs, as one value."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from ..core.model.errors import InputError

CLI_ONLY = ("home", "managed_dir", "client_args", "codex_home", "codex_system_dir", "codex_config")
"""The client options only claude-code:DIR and codex:DIR take (--client-home reaches step configs too)."""
CLAUDE_ONLY = ("home", "managed_dir", "client_args")
CODEX_ONLY = ("codex_home", "codex_system_dir", "codex_config")


@dataclass(frozen=True)
class ClientOptions:
    """The options of ``claude-code:DIR`` and ``codex:DIR`` (and ``--client-home``, the AgentWorks
    link to them). Unset: None, or () for the repeatable ``-c``."""

    home: Path | None = None
    managed_dir: Path | None = None
    client_args: str | None = None
    codex_home: Path | None = None
    codex_system_dir: Path | None = None
    codex_config: tuple[str, ...] = ()
    client_home: Path | None = None

    def given(self, *names: str) -> list[str]:
        """The option flags among ``names`` (attribute names) that were given."""
        return [
            "--" + n.replace("_", "-") if n != "codex_config" else "-c"
            for n in names
            if getattr(self, n) not in (None, ())
        ]

    def refuse(self, names: Iterable[str], why: str = "applies to claude-code:DIR / codex:DIR inputs") -> None:
        """Exit 2 on the first of ``names`` that was given; ``why`` says where it applies."""
        for flag in self.given(*names):
            raise InputError(flag, why)
