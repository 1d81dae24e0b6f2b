"""Claude Code's permission rules and modes as they apply to MCP tools (reference §1 rows 7, 10).

A rule matches an MCP tool when it is the normalised full name (``mcp__time__convert_time``),
the server (``mcp__time``), or a glob: observed with 2.1.332 (``tests/clis/experiments/
x_c_claude_rule_globs.py``), ``*`` matches any run of characters anywhere in the rule and crosses
the ``__`` separator (``mcp__gh__delete_*``, ``mcp__*__delete_repo``, ``mcp__gh*`` also matches
server ``ghx``, ``mcp__*`` and a lone ``*`` match every MCP tool); ``?`` and ``[…]`` are literal.
Forms that match nothing: raw names with dots, bare tool names, ``…(*)``. Deny beats ask beats allow.
``permissions.allow`` in ``.claude/settings.json`` counts only in a trusted project; managed
``allowManagedPermissionRulesOnly: true`` drops user (and project, local, flag) rules.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from .args import ClientArgs
from .files import ClaudeFiles

MODES = ("default", "acceptEdits", "plan", "dontAsk", "bypassPermissions", "auto")
"""Claude Code's permission modes (``--permission-mode``, ``permissions.defaultMode``)."""


@dataclass(frozen=True)
class Rule:
    """One permission rule as written, and where."""

    kind: str
    """deny, ask or allow."""
    text: str
    source: str
    """``file: permissions.deny[2]`` or ``--disallowedTools``."""
    counts: bool = True
    ignored_because: str = ""


def rule_matches(rule: str, server_part: str, tool_name: str) -> bool:
    """Does ``rule`` match the tool ``tool_name`` (normalised) of the server ``server_part`` (normalised)?"""
    rule = rule.strip()
    if rule in (tool_name, f"mcp__{server_part}"):
        return True
    return "*" in rule and _glob(rule).fullmatch(tool_name) is not None


@functools.lru_cache(maxsize=1024)
def _glob(rule: str) -> re.Pattern[str]:
    """A rule with ``*`` as Claude Code matches it: ``*`` any run of characters, everything else literal."""
    return re.compile(".*".join(re.escape(part) for part in rule.split("*")), re.DOTALL)


def collect_rules(files: ClaudeFiles, args: ClientArgs) -> list[Rule]:
    """Every deny / ask / allow rule of every settings source and flag, with whether it counts."""
    managed_only = any(s.file.data.get("allowManagedPermissionRulesOnly") is True for s in files.settings_in("managed"))
    rules: list[Rule] = []
    for source in files.settings:
        permissions = source.file.data.get("permissions")
        if not isinstance(permissions, dict):
            continue
        for kind in ("deny", "ask", "allow"):
            listed = permissions.get(kind)
            if not isinstance(listed, list):
                continue
            for i, text in enumerate(listed):
                if not isinstance(text, str):
                    continue
                why = ""
                if managed_only and source.scope != "managed":
                    why = "managed settings set allowManagedPermissionRulesOnly: true"
                elif kind == "allow" and source.scope == "project" and not files.trusted:
                    why = f'the project is not trusted (~/.claude.json: projects."{files.project_key}".hasTrustDialogAccepted)'
                rules.append(Rule(kind, text, f"{source.file.shown}: permissions.{kind}[{i}]", not why, why))
    for kind, listed, flag in (
        ("deny", args.disallowed, "--disallowedTools"),
        ("allow", args.allowed, "--allowedTools"),
    ):
        for text in listed:
            rules.append(Rule(kind, text, f"--client-args {flag}"))
    return rules


def effective_mode(files: ClaudeFiles, args: ClientArgs, asked: str | None) -> tuple[str, str]:
    """The permission mode and what set it: ``--mode``, ``--permission-mode``, defaultMode, or the default."""
    if asked:
        return asked, "--mode"
    if args.skip_permissions:
        return "bypassPermissions", "--client-args --dangerously-skip-permissions"
    if args.permission_mode:
        return args.permission_mode, "--client-args --permission-mode"
    # Settings precedence: managed > flag > local > project > user. A project's
    # defaultMode "bypassPermissions" is ignored (observed with 2.1.332, trusted or not).
    for scope in ("managed", "flag", "local", "project", "user"):
        for source in reversed(files.settings_in(scope)):
            permissions = source.file.data.get("permissions")
            mode = permissions.get("defaultMode") if isinstance(permissions, dict) else None
            if isinstance(mode, str) and not (scope == "project" and mode == "bypassPermissions"):
                return mode, f"{source.file.shown}: permissions.defaultMode"
    return "default", "Claude Code's default"


def bypass_disabled(files: ClaudeFiles) -> str | None:
    """Where managed settings disable bypassPermissions (it then silently falls back to default)."""
    for source in files.settings_in("managed"):
        permissions = source.file.data.get("permissions")
        if isinstance(permissions, dict) and permissions.get("disableBypassPermissionsMode") == "disable":
            return f"{source.file.shown}: permissions.disableBypassPermissionsMode"
    return None
