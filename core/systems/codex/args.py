"""The flags a Codex session was started with (``--client-args "…"``), as far as they change tools.

``codex [exec] --profile P -c k=v -m MODEL --enable F --disable F …``: split with ``shlex`` like a
shell would; other words (subcommands, the prompt, flags that do not change tools) are skipped; a
flag missing its value is an InputError naming ``--client-args``.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass

from ...model.errors import InputError, Problem

_VALUED = {
    "--profile": "profile",
    "-p": "profile",
    "-c": "config",
    "--config": "config",
    "-m": "model",
    "--model": "model",
    "--enable": "enable",
    "--disable": "disable",
}
PROFILE_NAME = re.compile(r"^[A-Za-z0-9_.-]{1,128}$")


@dataclass(frozen=True)
class CodexArgs:
    """What the session's command line says: the profile, and every override in order (``-c``, ``-m``, features)."""

    profile: str | None = None
    overrides: tuple[str, ...] = ()


def _override(key: str, value: str) -> str:
    if key == "model":
        return f"model={_toml_string(value)}"
    return f"features.{value}={'true' if key == 'enable' else 'false'}"


def _toml_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _split(text: str) -> list[str]:
    try:
        return shlex.split(text)
    except ValueError as exc:
        raise InputError(
            "--client-args", "cannot be split like a shell command line", [Problem("", str(exc))]
        ) from None


def _flag_values(words: list[str]) -> list[tuple[str, str]]:
    """(kind, value) of every flag that changes tools, in order; a flag without its value is an InputError."""
    out = []
    i = 0
    while i < len(words):
        flag, eq, inline = words[i].partition("=")
        key = _VALUED.get(flag)
        if key is not None and not eq:
            if i + 1 >= len(words):
                raise InputError("--client-args", f"{flag} needs a value")
            i += 1
            inline = words[i]
        if key is not None:
            out.append((key, inline))
        i += 1
    return out


def parse_codex_args(text: str | None) -> CodexArgs:
    """``--client-args "--profile p -c k=v"`` → CodexArgs."""
    if not text:
        return CodexArgs()
    found = _flag_values(_split(text))
    profiles = [v for k, v in found if k == "profile"]
    profile = profiles[-1] if profiles else None
    if profile is not None and not PROFILE_NAME.match(profile):
        raise InputError("--client-args", f"--profile {profile!r}: expected a profile name (letters, digits, _ . -)")
    overrides = tuple(v if k == "config" else _override(k, v) for k, v in found if k != "profile")
    return CodexArgs(profile, overrides)
