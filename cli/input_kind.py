"""What kind of input CONFIG is: each system of the registry is asked in turn
(``core.systems.recognise``), without importing anything heavy."""

from __future__ import annotations

from pathlib import Path

from ..core.systems.recognise import Recognised, recognise

__all__ = ["Recognised", "cli_target", "detect_kind", "recognise"]


def cli_target(target: str) -> tuple[str, Path] | None:
    """``claude-code:DIR`` / ``codex:DIR`` (any system's prefix) → (kind, DIR); None for every other CONFIG."""
    from ..core.systems.registry import by_prefix

    found = by_prefix(target)
    return (found[0].input_kinds[0], found[1]) if found is not None else None


def detect_kind(target: str) -> str:
    """Classify the CONFIG argument without importing anything heavy."""
    return recognise(target).kind


def config_help() -> str:
    """CONFIG's help: every input kind the registry's systems take (their files, prefixes and folders)."""
    from ..core.systems.registry import systems

    prefixes = ", ".join(f"{s.prefix}DIR ({s.title})" for s in systems() if s.prefix)
    return (
        "An AgentWorks step config; an AgentScope toolkit spec (YAML/JSON) or factory "
        f"(package.module:function, file.py:function); {prefixes}; or a folder with one agent's files."
    )
