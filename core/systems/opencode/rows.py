"""One verdict row per tool an OpenCode agent could get: each MCP server's tools, and the built-ins.

Server stages: config (the merged config is valid: an ``mcp`` entry without ``type`` — Claude's
format — or a missing ``{file:…}`` makes ``opencode run`` exit 1 before any request), enabled,
connection (within ``timeout``). Tool stages: naming (``<server>_<tool>``, every character outside
``A-Za-z0-9_-`` → ``_``; two tools with one name keep the later), permission (the agent's rules:
only a last-matching ``deny`` with pattern ``*`` removes the schema), in context (in full; with
code mode only inside ``execute``), callable (the rule a call with pattern ``*`` meets).
Built-ins: ``apply_patch`` replaces ``edit`` and ``write`` when the model's API id contains
``gpt-`` but neither ``oss`` nor ``gpt-4``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ...mcp.results import ServerResult
from ...model.enums import ToolKind
from ...model.opt_in import NOT_STARTED_CODE
from ...model.verdicts import Stage, ToolVerdict
from ..coding_cli.common import stage
from .ids import OpenCodeStage as S
from .layers import Layers
from .rules import Rule, call_rule, removing

_NOT_NAME = re.compile(r"[^A-Za-z0-9_-]")
NAME_LIMIT = 64
BUILTINS = ("bash", "edit", "glob", "grep", "read", "skill", "task", "todowrite", "webfetch", "write")
"""The built-in tools ``opencode run`` offers (1.18.33, no experimental flag), before the rules."""


def sanitise(text: str) -> str:
    """OpenCode's name part: every character outside ``A-Za-z0-9_-`` → ``_`` (case kept)."""
    return _NOT_NAME.sub("_", text)


def tool_name(server: str, tool: str) -> str:
    """The name the model sees."""
    return f"{sanitise(server)}_{sanitise(tool)}"


@dataclass(frozen=True)
class Context:
    """What every row of one evaluation reads."""

    agent: str
    rules: list[Rule]
    model: str
    model_source: str
    code_mode: bool
    invalid: tuple[str, ...]
    """Why the binary refuses the config (each a ``file: problem``); empty when valid."""


def uses_apply_patch(api_id: str) -> bool:
    """OpenCode's rule for the edit tools (fact 9)."""
    return "gpt-" in api_id and "oss" not in api_id and "gpt-4" not in api_id


def config_problems(layers: Layers) -> tuple[str, ...]:
    """What makes ``opencode run`` exit 1: a bad ``{file:…}``, an ``mcp`` entry of no known type."""
    out = [f"{la.shown}: {bad}" for la in layers.layers for bad in la.bad_references]
    for layer in layers.layers:
        mcp = layer.data.get("mcp")
        for name, entry in mcp.items() if isinstance(mcp, dict) else []:
            out += [f"{layer.place('mcp', name)}: {p}" for p in _entry_problems(name, entry)]
    return tuple(out)


def _untyped(name: str, entry: dict[str, Any]) -> list[str]:
    """An entry without ``type``: an override of ``enabled`` alone, or Claude's format (refused)."""
    if [k for k in entry if k != "enabled"]:
        return [
            f'mcp.{name} has no "type" (Claude\'s format?): expected {{ type: local }} | {{ type: remote }}; '
            f"↳ Missing key mcp.{name}.enabled"
        ]
    return []


def _local_ok(entry: dict[str, Any]) -> bool:
    command = entry.get("command")
    return isinstance(command, list) and bool(command) and all(isinstance(c, str) for c in command)


def _entry_problems(name: str, entry: Any) -> list[str]:
    if not isinstance(entry, dict):
        return [f"mcp.{name} must be an object"]
    kind = entry.get("type")
    if kind is None:
        return _untyped(name, entry)
    if kind == "local":
        return [] if _local_ok(entry) else [f'mcp.{name}.command must be an array of strings (["program", "arg", …])']
    if kind == "remote":
        return [] if isinstance(entry.get("url"), str) else [f"mcp.{name}.url must be a string"]
    return [f'mcp.{name}.type is {kind!r}: expected "local" or "remote"']


def server_stages(name: str, layers: Layers, ctx: Context, result: ServerResult | None, where: str) -> list[Stage]:
    """Config, enabled, connection."""
    defined = layers.at("mcp", name, "type") or layers.at("mcp", name) or "config"
    if ctx.invalid:
        return [
            stage(
                S.CONFIG,
                False,
                "config.invalid",
                f"opencode run exits 1 before any request: {ctx.invalid[0]}",
                ctx.invalid[0],
                ctx.invalid[0].split(": ")[0],
            )
        ]
    out = [stage(S.CONFIG, True, "config.read", f"defined in {defined}: mcp.{name}", name, defined)]
    enabled = layers.merged["mcp"][name].get("enabled")
    if enabled is False:
        at = layers.at("mcp", name, "enabled")
        out.append(
            stage(S.ENABLED, False, "enabled.false", f'"enabled": false ({at}): not started', "enabled: false", at)
        )
        return out
    out.append(
        stage(
            S.ENABLED,
            True,
            "enabled.true",
            "enabled" if enabled is None else f"enabled ({layers.at('mcp', name, 'enabled')})",
        )
    )
    out.append(connection_stage(name, layers, result, where))
    return out


def connection_stage(name: str, layers: Layers, result: ServerResult | None, where: str) -> Stage:
    """Did it start and list its tools within its time-out (a failure is silent: exit 0, a log WARN)."""
    from .launch import server_entries, timeout_s

    seconds = timeout_s(server_entries(layers.merged)[name])
    if result is None:
        return stage(S.CONNECTION, None, "connection.not_listed", f"no listing of this server ({where})")
    if not result.started:
        return stage(S.CONNECTION, None, NOT_STARTED_CODE, f"unknown, {result.error}", name)
    if not result.ok:
        slow = "timed out" in (result.error or "")
        code = "connection.timeout" if slow else "mcp.outage"
        at = layers.at("mcp", name, "timeout") or "the default 30000 ms"
        why = f"slower than its timeout {seconds:g} s ({at})" if slow else f"failed: {result.error}"
        return stage(
            S.CONNECTION,
            False,
            code,
            f"{why}; OpenCode drops it silently (exit 0, only a log WARN)",
            name,
            at if slow else None,
        )
    return stage(
        S.CONNECTION, True, "connection.ok", f"started: lists {len(result.tools)} tools within {seconds:g} s ({where})"
    )


def naming_stage(name: str, owner: str | None, server: str, tool: str) -> Stage:
    """The model-facing name; a collision keeps the later tool; over 64 characters still sent."""
    if owner is not None and owner != f"{server}/{tool}":
        return stage(
            S.NAMING,
            False,
            "naming.collision",
            f"{name} is also the name of {owner}, listed later: OpenCode keeps that one",
            name,
        )
    if len(name) > NAME_LIMIT:
        return stage(
            S.NAMING,
            True,
            "naming.too_long",
            f"{name} has {len(name)} characters: OpenCode sends it, and a provider with OpenAI's 64-character limit rejects the WHOLE request (every tool lost)",
            name,
        )
    return stage(S.NAMING, True, "naming.ok", f'server "{server}", tool "{tool}" → {name}', name)


def permission_stage(name: str, ctx: Context) -> Stage:
    """Removed iff the last matching rule is deny with pattern ``*``."""
    removed, rule = removing(name, ctx.rules)
    if rule is None:
        return stage(S.PERMISSION, True, "permission.none", f"no rule of agent {ctx.agent} matches {name}")
    said = f"agent {ctx.agent}: the last rule matching {name} is {rule.text()} ({rule.source})"
    if removed:
        return stage(
            S.PERMISSION, False, "permission.removed", f"{said}: the schema is removed", rule.text(), rule.source
        )
    return stage(S.PERMISSION, True, "permission.kept", f"{said}: the schema is sent", rule.text(), rule.source)


def context_stage(ctx: Context, mcp: bool) -> Stage:
    """In the request's tools in full, or only inside code mode's ``execute``."""
    if mcp and ctx.code_mode:
        return stage(
            S.IN_CONTEXT,
            True,
            "context.code_mode",
            "code mode (OPENCODE_EXPERIMENTAL_CODE_MODE / OPENCODE_EXPERIMENTAL): not in tools; only callable inside an execute script",
        )
    return stage(
        S.IN_CONTEXT, True, "context.full", "in the request's tools in full (no deferral, no count or size threshold)"
    )


def callable_stage(name: str, ctx: Context, mcp: bool = True) -> Stage:
    """The rule a call with pattern ``*`` meets in ``opencode run`` (an MCP call is always checked with ``*``;
    a built-in's with its argument, so a built-in with scoped rules depends on the call)."""
    last = removing(name, ctx.rules)[1]
    if not mcp and last is not None and last.pattern != "*":
        said = f"{last.text()} ({last.source})"
        return stage(
            S.CALLABLE,
            True,
            "callable.by_argument",
            f"depends on the call's argument: the last matching rule is {said}",
        )
    rule = call_rule(name, ctx.rules)
    if rule is None or rule.action == "allow":
        return stage(
            S.CALLABLE,
            True,
            "callable.allow",
            f"a call runs: {f'{rule.text()} ({rule.source})' if rule else 'no rule'}",
        )
    said = f"{rule.text()} ({rule.source})"
    if rule.action == "ask":
        why = f"{said}: opencode run auto-rejects the call and stops (--auto approves it)"
        return stage(S.CALLABLE, False, "callable.ask", why, rule.text(), rule.source)
    why = f"{said}: the schema is sent but the call is refused"
    return stage(S.CALLABLE, False, "callable.deny", why, rule.text(), rule.source)


def tool_row(
    name: str, server_rows: list[Stage], naming: Stage, ctx: Context, kind: ToolKind, namespace: str, description: str
) -> ToolVerdict:
    """One tool's row: the stages until one fails."""
    row = [*server_rows, naming]
    for build in (
        lambda: permission_stage(name, ctx),
        lambda: context_stage(ctx, kind == ToolKind.MCP),
        lambda: callable_stage(name, ctx, kind == ToolKind.MCP),
    ):
        if not row[-1].passed:
            break
        row.append(build())
    return ToolVerdict(name, namespace, kind, tuple(row), description)


def builtin_rows(ctx: Context) -> list[ToolVerdict]:
    """The built-in tools for this model and agent."""
    patch = uses_apply_patch(ctx.model)
    names = sorted(
        {*(n for n in BUILTINS if not (patch and n in ("edit", "write"))), *(("apply_patch",) if patch else ())}
    )
    rows = []
    for name in names:
        if ctx.invalid:
            first = stage(
                S.CONFIG,
                False,
                "config.invalid",
                f"opencode run exits 1 before any request: {ctx.invalid[0]}",
                ctx.invalid[0],
            )
            rows.append(ToolVerdict(name, "opencode", ToolKind.TOOL, (first,)))
            continue
        why = f"model {ctx.model} ({ctx.model_source}): " + (
            "apply_patch replaces edit and write"
            if patch
            else "edit and write (apply_patch only for gpt- ids without oss / gpt-4)"
        )
        first = stage(
            S.CONFIG,
            True,
            "config.builtin",
            f"built in; {why}" if name in ("edit", "write", "apply_patch") else "built in",
        )
        rows.append(
            tool_row(
                name, [first], stage(S.NAMING, True, "naming.builtin", name, name), ctx, ToolKind.TOOL, "opencode", ""
            )
        )
    return rows
