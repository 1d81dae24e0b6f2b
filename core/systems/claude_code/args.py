"""The flags a Claude Code session was started with (``--client-args "…"``), as far as they change tools.

Parsed with ``shlex`` like a shell would; flags that do not affect MCP tools are skipped,
a flag missing its value is an InputError naming ``--client-args``.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass

from ...model.errors import InputError, Problem

# Flags that take values until the next flag (Commander's variadic options).
_VARIADIC = {
    "--mcp-config": "mcp_config",
    "--allowedTools": "allowed",
    "--allowed-tools": "allowed",
    "--disallowedTools": "disallowed",
    "--disallowed-tools": "disallowed",
    "--tools": "tools",
}
_SINGLE = {
    "--permission-mode": "permission_mode",
    "--model": "model",
    "--settings": "settings",
    "--setting-sources": "setting_sources",
}
_SWITCHES = {
    "-p": "print_mode",
    "--print": "print_mode",
    "--strict-mcp-config": "strict_mcp_config",
    "--dangerously-skip-permissions": "skip_permissions",
    "--bare": "bare",
    "--safe-mode": "safe_mode",
}


@dataclass(frozen=True)
class ClientArgs:
    """What the session's command line says about MCP servers, rules and mode."""

    text: str = ""
    print_mode: bool = False
    """``-p``: headless; .mcp.json servers connect without approval."""
    mcp_config: tuple[str, ...] = ()
    strict_mcp_config: bool = False
    allowed: tuple[str, ...] = ()
    disallowed: tuple[str, ...] = ()
    tools: tuple[str, ...] | None = None
    """``--tools``: the built-in tools available (None: all)."""
    permission_mode: str | None = None
    skip_permissions: bool = False
    model: str | None = None
    settings: str | None = None
    setting_sources: tuple[str, ...] | None = None
    bare: bool = False
    safe_mode: bool = False


def _split_rules(values: list[str]) -> tuple[str, ...]:
    # --allowedTools "a,b" c: commas and spaces both separate (Claude's own parsing).
    return tuple(part.strip() for value in values for part in value.replace(",", " ").split() if part.strip())


def parse_client_args(text: str | None) -> ClientArgs:
    """``--client-args "-p --mcp-config f.json --allowedTools mcp__x"`` → ClientArgs."""
    if not text:
        return ClientArgs()
    try:
        words = shlex.split(text)
    except ValueError as exc:
        raise InputError(
            "--client-args", "cannot be split like a shell command line", [Problem("", str(exc))]
        ) from None
    values: dict[str, object] = {"text": text}
    lists: dict[str, list[str]] = {}
    i = 0
    while i < len(words):
        word = words[i]
        flag, eq, inline = word.partition("=")
        if flag in _SWITCHES:
            values[_SWITCHES[flag]] = True
        elif flag in _SINGLE:
            if eq:
                values[_SINGLE[flag]] = inline
            elif i + 1 < len(words) and not words[i + 1].startswith("-"):
                i += 1
                values[_SINGLE[flag]] = words[i]
            else:
                raise InputError("--client-args", f"{flag} needs a value")
        elif flag in _VARIADIC:
            got = lists.setdefault(_VARIADIC[flag], [])
            if eq:
                got.append(inline)
            while i + 1 < len(words) and not words[i + 1].startswith("-"):
                i += 1
                got.append(words[i])
            if not got and flag != "--tools":
                raise InputError("--client-args", f"{flag} needs a value")
        i += 1
    for key, got in lists.items():
        if key == "mcp_config":
            values[key] = tuple(got)
        else:
            values[key] = _split_rules(got)
    if isinstance(values.get("setting_sources"), str):
        values["setting_sources"] = tuple(s.strip() for s in str(values["setting_sources"]).split(",") if s.strip())
    return ClientArgs(**values)  # type: ignore[arg-type]
