"""The flags a Gemini CLI session was started with (``--client-args "…"``), as far as they change tools.

Parsed with ``shlex`` like a shell would; flags that do not affect MCP tools are skipped (a
flag's value is skipped with it), a flag missing its value is an InputError naming ``--client-args``.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass

from ...model.errors import InputError, Problem

MODES = ("default", "auto_edit", "yolo", "plan")
"""``--approval-mode`` values (0.61.0)."""

_VALUE = {
    "-p": "prompt",
    "--prompt": "prompt",
    "-m": "model",
    "--model": "model",
    "--approval-mode": "approval_mode",
}
_LIST = {
    "-e": "extensions",
    "--extensions": "extensions",
    "--allowed-mcp-server-names": "allowed_servers",
    "--allowed-tools": "allowed_tools",
    "--policy": "policy",
}
_SWITCHES = {"-y": "yolo", "--yolo": "yolo", "--skip-trust": "skip_trust"}
_SKIPPED_WITH_VALUE = {"-i", "--prompt-interactive", "-o", "--output-format", "--include-directories"}


@dataclass(frozen=True)
class GeminiArgs:
    """What the session's command line says about servers, rules and mode."""

    text: str = ""
    prompt: str | None = None
    """``-p``: headless (no match in the policy is DENY, not ASK_USER)."""
    model: str | None = None
    approval_mode: str | None = None
    yolo: bool = False
    skip_trust: bool = False
    extensions: tuple[str, ...] | None = None
    """``-e a,b`` / ``-e none``: only these extensions (None: every enabled one)."""
    allowed_servers: tuple[str, ...] | None = None
    """``--allowed-mcp-server-names``: replaces ``mcp.allowed`` and drops the ``mcp.excluded`` gate."""
    allowed_tools: tuple[str, ...] = ()
    policy: tuple[str, ...] = ()
    """``--policy FILE``: replaces the user policy folder."""

    @property
    def headless(self) -> bool:
        return self.prompt is not None

    def mode(self) -> str | None:
        """The approval mode the flags choose (None: the default)."""
        return "yolo" if self.yolo else self.approval_mode


def _value(words: list[str], i: int, flag: str, inline: str | None) -> tuple[str, int]:
    if inline is not None:
        return inline, i
    if i + 1 < len(words) and (not words[i + 1].startswith("-") or flag in ("-p", "--prompt")):
        return words[i + 1], i + 1
    if flag in ("-p", "--prompt"):
        return "", i  # `-p` last: headless with the prompt from stdin
    raise InputError("--client-args", f"{flag} needs a value")


def _split(value: str) -> list[str]:
    return [part.strip() for part in value.split(",") if part.strip()]


def _words(text: str) -> list[str]:
    try:
        return shlex.split(text)
    except ValueError as exc:
        raise InputError(
            "--client-args", "cannot be split like a shell command line", [Problem("", str(exc))]
        ) from None


def _one_flag(words: list[str], i: int, values: dict[str, object], lists: dict[str, list[str]]) -> int:
    """Read the flag at ``words[i]`` (and its value) into ``values`` / ``lists``; the index of its last word."""
    flag, eq, rest = words[i].partition("=")
    inline = rest if eq else None
    if flag in _SWITCHES:
        values[_SWITCHES[flag]] = True
    elif flag in _VALUE:
        values[_VALUE[flag]], i = _value(words, i, flag, inline)
    elif flag in _LIST:
        value, i = _value(words, i, flag, inline)
        lists.setdefault(_LIST[flag], []).extend(_split(value) if flag != "--policy" else [value])
    elif flag in _SKIPPED_WITH_VALUE and inline is None and i + 1 < len(words):
        i += 1
    return i


def _check_mode(values: dict[str, object]) -> None:
    mode = values.get("approval_mode")
    if mode is not None and mode not in MODES:
        problem = Problem("", f"one of {', '.join(MODES)}")
        raise InputError("--client-args", f"--approval-mode {mode}: not a Gemini CLI approval mode", [problem])
    if values.get("yolo") and mode is not None:
        raise InputError("--client-args", "--yolo and --approval-mode together: gemini exits 1 (choose one)")


def parse_gemini_args(text: str | None) -> GeminiArgs:
    """``--client-args "-p hi -m gemini-2.5-flash --approval-mode yolo -e none"`` → GeminiArgs."""
    if not text:
        return GeminiArgs()
    words = _words(text)[:10_000]
    values: dict[str, object] = {"text": text}
    lists: dict[str, list[str]] = {}
    i = 0
    while i < len(words):
        i = _one_flag(words, i, values, lists) + 1
    _check_mode(values)
    values.update({key: tuple(got) for key, got in lists.items()})
    return GeminiArgs(**values)  # type: ignore[arg-type]
