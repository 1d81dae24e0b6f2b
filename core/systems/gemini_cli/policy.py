"""Gemini CLI's policy engine for MCP tools (reference §2 stage 9, checked with 0.61.0).

Rules carry an effective priority (tier + priority/1000); the highest matching rule decides;
a DENY without ``argsPattern`` removes the declaration from what is sent. With no matching
rule a headless (``-p``) session denies, an interactive one asks (ASK_USER: sent).

| rule | effective | decision |
| admin TOML ``/etc/gemini-cli/policies/*.toml`` | 5.xxx | any |
| ``mcp.excluded`` → ``mcp_<s>_*`` | 4.9 | DENY |
| ``tools.exclude`` | 4.4 | DENY |
| ``tools.confirmationRequired`` | 4.35 | ASK_USER |
| ``tools.allowed`` / ``--allowed-tools`` | 4.3 | ALLOW |
| ``tools.core`` entries, then ``*`` | 4.25 / 4.24 | ALLOW / DENY (not plan) |
| ``mcpServers.<s>.trust: true`` → ``mcp_<s>_*`` | 4.2 | ALLOW (not plan) |
| ``mcp.allowed`` → ``mcp_<s>_*`` | 4.1 | ALLOW (not plan) |
| user TOML ``~/.gemini/policies/*.toml`` (``--policy`` replaces) | 4.xxx | any |
| extension ``policies/*.toml`` (ALLOW dropped) | 2.xxx | DENY / ASK_USER |
| yolo ``*`` / plan ``*`` | 1.998 / 1.04 | ALLOW / DENY |

Public API::

    Rule, PolicyFile, decide(rules, name, server, mode, headless, read_only) -> (decision, Rule | None)
    settings_rules(...), toml_rules(...), mode_rules(mode)
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...inputs.input_files import read_text

ALLOW, DENY, ASK = "allow", "deny", "ask_user"
DECISIONS = (ALLOW, DENY, ASK)
MAX_RULES = 5000
MAX_POLICY_FILES = 200


@dataclass(frozen=True)
class Rule:
    """One policy rule as the engine matches it against an MCP tool's sent name."""

    priority: float
    decision: str
    pattern: str
    """``*``, ``mcp_s_*`` (a prefix) or one exact name."""
    source: str
    """``~/.gemini/settings.json:4: mcpServers.t.trust`` / ``~/.gemini/policies/p.toml: rule[2]``."""
    modes: tuple[str, ...] | None = None
    args_pattern: bool = False
    interactive: bool | None = None
    read_only: bool | None = None
    """``toolAnnotations = { readOnlyHint = true }``: only tools with that annotation."""
    label: str = ""
    """What it is, in words: ``trust: true``, ``tools.core's wildcard``."""

    def matches(self, name: str, mode: str, headless: bool, read_only: bool) -> bool:
        if self.modes is not None and mode not in self.modes:
            return False
        if self.interactive is not None and self.interactive == headless:
            return False
        if self.read_only is not None and self.read_only != read_only:
            return False
        return pattern_matches(self.pattern, name)


def pattern_matches(pattern: str, name: str) -> bool:
    """``*``, a trailing-``*`` prefix, or the exact name."""
    if pattern == "*":
        return True
    if pattern.endswith("*"):
        return name.startswith(pattern[:-1])
    return name == pattern


def decide(rules: Sequence[Rule], name: str, mode: str, headless: bool, read_only: bool) -> tuple[str, Rule | None]:
    """The declaration's decision: the highest-priority matching rule without ``argsPattern``;
    no match → DENY headless, ASK_USER interactive (rule None)."""
    for rule in rules:
        if not rule.args_pattern and rule.matches(name, mode, headless, read_only):
            return rule.decision, rule
    return (DENY if headless else ASK), None


def server_pattern(server: str) -> str:
    """``mcp_<raw server>_*``: what trust, mcp.allowed and mcp.excluded match (raw, unsanitised)."""
    return f"mcp_{server}_*"


NOT_PLAN = ("default", "auto_edit", "yolo")


def mode_rules(mode: str) -> list[Rule]:
    """The built-in defaults that touch MCP tools: yolo allows everything, plan denies it."""
    if mode == "yolo":
        return [Rule(1.998, ALLOW, "*", "--approval-mode yolo (built-in default)", label="yolo allows every tool")]
    if mode == "plan":
        return [Rule(1.04, DENY, "*", "--approval-mode plan (built-in default)", label="plan mode denies other tools")]
    return []


@dataclass(frozen=True)
class PolicyFile:
    """A TOML policy file read (or skipped whole for a bad rule, as the CLI does)."""

    path: Path
    shown: str
    sha256: str
    rules: tuple[Rule, ...]
    error: str | None = None


def _names(rule: dict[str, Any]) -> list[str]:
    """The sent-name patterns of a TOML rule: ``mcpName`` + ``toolName`` → ``mcp_<s>_<t>``."""
    tools = rule.get("toolName")
    tool_list = tools if isinstance(tools, list) else [tools] if isinstance(tools, str) else []
    server = rule.get("mcpName")
    if isinstance(server, str):
        return [t if t.startswith(f"mcp_{server}_") else f"mcp_{server}_{t}" for t in tool_list if isinstance(t, str)]
    return [str(t) for t in tool_list] or ["*"]


def _rule_problem(rule: Any) -> str | None:
    if not isinstance(rule, dict):
        return "a [[rule]] that is not a table"
    if str(rule.get("decision", "")).lower() not in DECISIONS:
        return f"decision {rule.get('decision')!r}: expected allow, deny or ask_user"
    if "mcpName" in rule and not isinstance(rule.get("toolName"), (str, list)):
        return 'mcpName without toolName: "Field rule.N.toolName: Invalid input" (0.61.0 wants toolName = "*" for the whole server)'
    priority = rule.get("priority", 0)
    if not isinstance(priority, int) or isinstance(priority, bool) or not 0 <= priority <= 999:
        return f"priority {priority!r}: expected an integer 0-999"
    return None


def _rules_of(rule: dict[str, Any], tier: int, source: str, keep: Iterable[str]) -> list[Rule]:
    decision = str(rule["decision"]).lower()
    if decision not in keep:
        return []
    annotations = rule.get("toolAnnotations")
    read_only = annotations.get("readOnlyHint") if isinstance(annotations, dict) else None
    modes = rule.get("modes")
    interactive = rule.get("interactive")
    return [
        Rule(
            tier + int(rule.get("priority", 0)) / 1000,
            decision,
            pattern,
            source,
            tuple(str(m) for m in modes) if isinstance(modes, list) else None,
            "argsPattern" in rule,
            interactive if isinstance(interactive, bool) else None,
            read_only if isinstance(read_only, bool) else None,
            f"{decision} rule",
        )
        for pattern in _names(rule)
    ]


def read_policy_file(path: Path, shown: str, tier: int, keep: Iterable[str] = DECISIONS) -> PolicyFile:
    """One TOML file's rules; a syntax error or one bad rule skips the whole file (the CLI prints an error)."""
    text, digest = read_text(path, "Gemini CLI policy")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        return PolicyFile(path, shown, digest, (), f"not TOML ({exc}): the CLI skips the file")
    raw = data.get("rule")
    rules_in = raw if isinstance(raw, list) else []
    out: list[Rule] = []
    for i, rule in enumerate(rules_in[:MAX_RULES]):
        problem = _rule_problem(rule)
        if problem is not None:
            return PolicyFile(path, shown, digest, (), f"rule[{i}]: {problem}: the CLI skips the whole file")
        out += _rules_of(rule, tier, f"{shown}: rule[{i}]", keep)
    return PolicyFile(path, shown, digest, tuple(out))


def read_policy_folder(folder: Path, shown: str, tier: int, keep: Iterable[str] = DECISIONS) -> list[PolicyFile]:
    """Every ``*.toml`` of a folder, by name."""
    if not folder.is_dir():
        return []
    files = sorted(p for p in folder.iterdir() if p.suffix == ".toml" and p.is_file())[:MAX_POLICY_FILES]
    return [read_policy_file(p, f"{shown}/{p.name}", tier, keep) for p in files]
