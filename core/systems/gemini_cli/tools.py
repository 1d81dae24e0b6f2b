"""Gemini CLI's stages per MCP tool, after its server connected (reference §2 stages 6-11).

``includeTools`` / ``excludeTools`` on raw names (exclude wins), the sent name (sanitised,
truncated; two tools with one name keep one declaration), ``tools.exclude`` and extensions'
``excludeTools`` (literal: the sent name, ``mcp_<s>_*``, the bare tool name on every server, or
``DiscoveredMCPTool``), the policy engine's decision, and whether a call would run.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ...mcp.results import ServerResult
from ...model.opt_in import NOT_STARTED_CODE
from ...model.verdicts import Stage
from ..coding_cli.common import quoted, stage
from .files import GeminiFiles
from .ids import GeminiStage
from .naming import sent_name, wildcard_misses
from .policy import ALLOW, ASK, DENY, Rule, decide, server_pattern
from .servers import ServerEntry


@dataclass(frozen=True)
class Session:
    """What every tool's last stages read: the mode, headless or not, and the rules."""

    mode: str
    mode_source: str
    headless: bool
    rules: Sequence[Rule]
    excludes: Sequence[tuple[str, str]]
    """``tools.exclude`` and active extensions' ``excludeTools``: (item, where)."""


def connection_stage(server: ServerEntry, result: ServerResult | None, where: str) -> Stage:
    """Did the server start and list tools? A failure is silent in the CLI (exit 0)."""
    if result is None:
        return stage(GeminiStage.CONNECTION, None, "connection.not_listed", f"no listing of this server ({where})")
    if not result.started:
        return stage(GeminiStage.CONNECTION, None, NOT_STARTED_CODE, f"unknown, {result.error}", server.name)
    if not result.ok:
        return stage(
            GeminiStage.CONNECTION,
            None,
            "mcp.outage",
            f'startup failed: {result.error} (gemini -p still exits 0; stderr says only "MCP issues detected")',
            server.name,
        )
    if not result.tools:
        return stage(
            GeminiStage.CONNECTION,
            False,
            "connection.no_tools",
            "started but lists no tools: the CLI leaves the server out",
            server.name,
        )
    return stage(GeminiStage.CONNECTION, True, "connection.ok", f"started: lists {len(result.tools)} tools ({where})")


def filter_stage(server: ServerEntry, tool: str) -> Stage:
    """``includeTools`` then ``excludeTools`` on raw names; exclude wins."""
    include, exclude = server.entry.get("includeTools"), server.entry.get("excludeTools")
    if isinstance(exclude, list) and tool in exclude:
        return stage(
            GeminiStage.SERVER_FILTER,
            False,
            "filter.excluded",
            f'"{tool}" is in excludeTools ({server.at("excludeTools")}; exclude wins)',
            tool,
            server.at("excludeTools"),
        )
    if isinstance(include, list) and tool not in include:
        return stage(
            GeminiStage.SERVER_FILTER,
            False,
            "filter.not_included",
            f'includeTools = {quoted(include)} ({server.at("includeTools")}) leaves "{tool}" out (raw tool names, not mcp_… names)',
            quoted(include),
            server.at("includeTools"),
        )
    kept = (
        "no includeTools / excludeTools"
        if include is None and exclude is None
        else "kept by includeTools / excludeTools"
    )
    return stage(GeminiStage.SERVER_FILTER, True, "filter.kept", kept)


def naming_stage(server: str, tool: str, shared_with: str | None) -> Stage:
    """The sent name; a collision keeps one declaration (the later-discovered server's)."""
    name = sent_name(server, tool)
    notes = []
    if name != f"mcp_{server}_{tool}":
        notes.append("sanitised/truncated")
    if wildcard_misses(server, tool):
        notes.append(f"{server_pattern(server)} (trust, mcp.allowed, mcp.excluded) does not match it")
    extra = f" ({'; '.join(notes)})" if notes else ""
    if shared_with:
        return stage(
            GeminiStage.NAMING,
            True,
            "naming.collision",
            f'sent as {name}, the name of {shared_with} too: one declaration is sent ("already registered. Overwriting."), the later-discovered server\'s{extra}',
            name,
        )
    return stage(GeminiStage.NAMING, True, "naming.ok", f'server "{server}", tool "{tool}" → {name}{extra}', name)


def exclude_stage(session: Session, server: str, tool: str) -> Stage:
    """``tools.exclude`` / extensions' ``excludeTools``: literal names, whatever the policy says."""
    name = sent_name(server, tool)
    for item, where in session.excludes:
        if item in (name, tool, "DiscoveredMCPTool") or (item.endswith("*") and name.startswith(item[:-1])):
            return stage(
                GeminiStage.TOOLS_EXCLUDE, False, "exclude.listed", f'"{item}" in {where} removes {name}', item, where
            )
    return stage(GeminiStage.TOOLS_EXCLUDE, True, "exclude.none", "no tools.exclude / excludeTools entry names it")


def _rule_words(rule: Rule) -> str:
    return f'{rule.label or rule.decision} "{rule.pattern}" ({rule.source}; priority {rule.priority:.3f})'


def policy_stage(session: Session, server: str, tool: str, read_only: bool) -> Stage:
    """The engine's decision for the declaration: DENY removes it."""
    name = sent_name(server, tool)
    decision, rule = decide(session.rules, name, session.mode, session.headless, read_only)
    mode = f"mode {session.mode} ({session.mode_source})"
    if rule is None:
        if decision == DENY:
            return stage(
                GeminiStage.POLICY,
                False,
                "policy.headless_default",
                f"no rule allows {name}: a -p session denies unmatched tools, so it is not sent ({mode}); `gemini mcp list` still says Connected",
                name,
            )
        return stage(
            GeminiStage.POLICY,
            True,
            "policy.ask_default",
            f"no rule matches {name}: interactive sessions ask (ASK_USER), so it is sent ({mode})",
            name,
        )
    if rule.label.startswith("tools.core's"):
        text = (
            f"DENY: tools.core ({rule.source}) names neither {name} nor {server_pattern(server)}, and its wildcard deny "
            f"(priority {rule.priority:.3f}) outranks trust: true, mcp.allowed and yolo: not sent ({mode})"
        )
        return stage(GeminiStage.POLICY, False, "policy.core_wildcard", text, "*", rule.source)
    code = f"policy.{decision}"
    passed = decision != DENY
    verb = "removes it from the request" if not passed else "sends it"
    return stage(
        GeminiStage.POLICY,
        passed,
        code,
        f"{decision.upper()} by {_rule_words(rule)}: {verb} ({mode})",
        rule.pattern,
        rule.source,
    )


def callable_stage(session: Session, server: str, tool: str, read_only: bool) -> Stage:
    """Would a call run? ALLOW runs; ASK_USER asks (refused in -p); a call's args may meet argsPattern rules."""
    name = sent_name(server, tool)
    decision, rule = decide(session.rules, name, session.mode, session.headless, read_only)
    where = rule.source if rule else None
    if decision == ALLOW:
        return stage(GeminiStage.CALLABLE, True, "callable.allow", f"ALLOW: a call runs ({where})", name, where)
    if decision == ASK and session.headless:
        return stage(
            GeminiStage.CALLABLE,
            False,
            "callable.needs_confirmation",
            f'ASK_USER ({where}): in -p a call is refused ("requires user confirmation, which is not supported in non-interactive mode")',
            name,
            where,
        )
    return stage(
        GeminiStage.CALLABLE,
        True,
        "callable.ask",
        f"ASK_USER ({where or 'no rule'}): the CLI asks before each call",
        name,
        where,
    )


def tool_stages(
    session: Session, server: ServerEntry, result: ServerResult, tool: str, shared_with: str | None
) -> list[Stage]:
    """A listed tool's own stages, each only when the one before passed."""
    read_only = "readOnlyHint" in result.hints.get(tool, ())
    row = [filter_stage(server, tool)]
    if row[-1].passed:
        row.append(naming_stage(server.name, tool, shared_with))
        row.append(exclude_stage(session, server.name, tool))
    if row[-1].passed:
        row.append(policy_stage(session, server.name, tool, read_only))
    if row[-1].passed:
        row.append(callable_stage(session, server.name, tool, read_only))
    return row


def excludes(files: GeminiFiles) -> list[tuple[str, str]]:
    """``tools.exclude`` (union) and every active extension's ``excludeTools``."""
    out = files.settings.union("tools.exclude")
    for ext in files.extensions:
        items = ext.data.get("excludeTools")
        if ext.active and isinstance(items, list):
            out += [
                (str(v), f"{ext.shown}: excludeTools[{i}]") for i, v in enumerate(items[:1000]) if isinstance(v, str)
            ]
    return out
