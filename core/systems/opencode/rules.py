"""OpenCode's one ordered rule list per agent, and what it does to a tool (1.18.33).

The list: OpenCode's defaults (``*: allow``, ``question``/``plan_*: deny``…), the agent's
built-in rules (plan: ``edit {"*": deny, ".opencode/plans/*.md": allow}``; explore: ``*: deny``
then its read-only tools), the config's top-level ``tools`` map (as ``permission`` keys) then
``permission`` (``OPENCODE_PERMISSION`` merged in), then the agent's ``tools`` then ``permission``.
A key whose value is an action is one rule with pattern ``*``; an object is one rule per pattern.

- **Schema removed** iff the LAST rule whose key (a glob over the tool's name: ``*``, ``?``,
  case-sensitive) matches is a ``deny`` with pattern ``*``. ``edit``/``write``/``apply_patch``
  are checked as ``edit``; the MCP resource tools as ``read``.
- **A call** of an MCP tool is checked with pattern ``*``: the last rule whose key matches and
  whose pattern matches ``*``; ``deny`` refuses, ``ask`` auto-rejects in ``opencode run``.

Public API::

    Rule, ruleset(agent, merged, where, environ) -> [Rule]
    removing(name, rules) -> (removed, Rule | None)
    call_rule(name, rules) -> Rule | None
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from .agents import agent_permission, tools_rules

EDIT_TOOLS = ("edit", "write", "apply_patch")
RESOURCE_TOOLS = ("list_mcp_resources", "list_mcp_resource_templates", "read_mcp_resource")
MAX_RULES = 2000

_DEFAULTS: dict[str, Any] = {
    "*": "allow",
    "doom_loop": "ask",
    "external_directory": {"*": "ask"},
    "question": "deny",
    "plan_enter": "deny",
    "plan_exit": "deny",
    "read": {"*": "allow", "*.env": "ask", "*.env.*": "ask", "*.env.example": "allow"},
}
_AGENT_DEFAULTS: dict[str, dict[str, Any]] = {
    "build": {"question": "allow", "plan_enter": "allow"},
    "plan": {
        "question": "allow",
        "plan_exit": "allow",
        "task": {"general": "deny"},
        "edit": {"*": "deny", ".opencode/plans/*.md": "allow"},
    },
    "general": {"todowrite": "deny"},
    "explore": {
        "*": "deny",
        "grep": "allow",
        "glob": "allow",
        "list": "allow",
        "bash": "allow",
        "webfetch": "allow",
        "websearch": "allow",
        "read": "allow",
    },
}


@dataclass(frozen=True)
class Rule:
    """One rule: ``permission`` (a glob over tool names), ``pattern`` (over a call's argument), action, where."""

    permission: str
    pattern: str
    action: str
    source: str
    written: str = ""
    """How the user's file wrote it when it differs (a ``tools`` map entry: ``"tools": {"write": false}``)."""

    def text(self) -> str:
        """How the config writes it."""
        if self.written:
            return self.written
        if self.pattern == "*" and not self.source.startswith("OpenCode"):
            return f"{json.dumps(self.permission)}: {json.dumps(self.action)}"
        return f"{json.dumps(self.permission)}: {{{json.dumps(self.pattern)}: {json.dumps(self.action)}}}"


@lru_cache(maxsize=4096)
def _glob(pattern: str) -> re.Pattern[str]:
    parts = [(".*" if c == "*" else "." if c == "?" else re.escape(c)) for c in pattern]
    return re.compile("".join(parts), re.DOTALL)


def matches(name: str, glob: str) -> bool:
    """OpenCode's wildcard match: the whole name, ``*`` any run, ``?`` one character, case-sensitive."""
    return _glob(glob).fullmatch(name) is not None


def tools_written(tools: Any, permission: Any) -> dict[str, str]:
    """Permission key → the ``tools`` map entry that made it (keys the permission also sets are its own)."""
    out: dict[str, str] = {}
    if not isinstance(tools, dict):
        return out
    for key, value in tools.items():
        name = "edit" if key in ("write", "edit", "patch") else str(key)
        if not (isinstance(permission, dict) and name in permission):
            out[name] = f'"tools": {{{json.dumps(str(key))}: {json.dumps(value)}}}'
    return out


def from_config(permission: Any, source: Any, written: Mapping[str, str] | None = None) -> list[Rule]:
    """A ``permission`` object as rules, in key order (``source``: a str, or key → place)."""
    out: list[Rule] = []
    if not isinstance(permission, dict):
        return out
    for key, value in permission.items():
        where = source(key) if callable(source) else source
        if isinstance(value, str):
            out.append(Rule(str(key), "*", value, where, (written or {}).get(str(key), "")))
        elif isinstance(value, dict):
            out += [Rule(str(key), str(p), str(a), where) for p, a in value.items() if isinstance(a, str)]
    return out[:MAX_RULES]


def _lay_over(base: dict[str, Any], extra: Any) -> dict[str, Any]:
    """``extra``'s keys over ``base`` (an object merges one level; a key keeps its first position)."""
    out = dict(base)
    for key, value in extra.items() if isinstance(extra, dict) else ():
        old = out.get(key)
        out[key] = {**old, **value} if isinstance(old, dict) and isinstance(value, dict) else value
    return out


def _env_permission(environ: Mapping[str, str]) -> Any:
    try:
        return json.loads(environ.get("OPENCODE_PERMISSION") or "{}")
    except ValueError:
        return {}  # the binary logs "OPENCODE_PERMISSION contains invalid JSON, skipping"


def top_permission(merged: dict[str, Any], environ: Mapping[str, str]) -> dict[str, Any]:
    """The top level: ``permission`` with ``OPENCODE_PERMISSION`` merged in, laid over the ``tools`` map."""
    found = merged.get("permission")
    permission = _lay_over(found if isinstance(found, dict) else {}, _env_permission(environ))
    return _lay_over(tools_rules(merged.get("tools")), permission)


def ruleset(
    agent: str, merged: dict[str, Any], where: Mapping[tuple[str, ...], str], environ: Mapping[str, str]
) -> list[Rule]:
    """The agent's whole ordered rule list."""
    rules = from_config(_DEFAULTS, "OpenCode's defaults")
    rules += from_config(_AGENT_DEFAULTS.get(agent, {}), f"OpenCode's {agent} agent")

    def top(key: str) -> str:
        keys = [("permission", key), ("tools", key)]
        keys += [("tools", k) for k in ("write", "patch")] if key == "edit" else []
        found = next((where[k] for k in keys if k in where), None)
        return found or ("OPENCODE_PERMISSION" if key in (environ.get("OPENCODE_PERMISSION") or "") else "config")

    rules += from_config(
        top_permission(merged, environ), top, tools_written(merged.get("tools"), merged.get("permission"))
    )
    entry = (merged.get("agent") or {}).get(agent) if isinstance(merged.get("agent"), dict) else None
    if isinstance(entry, dict):

        def own(key: str) -> str:
            return (
                where.get(("agent", agent, "permission", key))
                or where.get(("agent", agent, "tools", key))
                or where.get(("agent", agent))
                or f"agent {agent}"
            )

        rules += from_config(agent_permission(entry), own, tools_written(entry.get("tools"), entry.get("permission")))
    return rules[:MAX_RULES]


def checked_as(name: str) -> str:
    """The permission a tool is checked under."""
    return "edit" if name in EDIT_TOOLS else "read" if name in RESOURCE_TOOLS else name


def removing(name: str, rules: list[Rule]) -> tuple[bool, Rule | None]:
    """Whether the schema is removed, and the rule that decided (the last whose key matches)."""
    key = checked_as(name)
    last = next((r for r in reversed(rules) if matches(key, r.permission)), None)
    return (last is not None and last.pattern == "*" and last.action == "deny"), last


def call_rule(name: str, rules: list[Rule]) -> Rule | None:
    """The rule that decides a call checked with pattern ``*`` (MCP tools)."""
    key = checked_as(name)
    return next((r for r in reversed(rules) if matches(key, r.permission) and matches("*", r.pattern)), None)
