"""Claude Code stages 6-9 per tool: naming, permission deny, in context (deferred or in full), callable.

Observed with 2.1.332 (reference §1 rows 6-10, tests/clis): names are
``mcp__<server>__<tool>`` with every character outside ``A-Za-z0-9_-`` replaced by ``_``; a
collision keeps the first tool silently. A deny rule removes the tool from everything the
model sees. By default MCP tools are deferred: their names are listed in a system message
behind ToolSearch; ``ENABLE_TOOL_SEARCH`` (env or a settings ``env`` block), ``alwaysLoad``,
claude-3 models, and ToolSearch being unavailable put them in full. Allow / ask rules and the
mode decide a call and never change the list.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ...mcp.results import ServerResult
from ...model.verdicts import Stage
from ..coding_cli.common import claude_name_part, stage
from .args import ClientArgs
from .files import ClaudeFiles
from .ids import ClaudeStage
from .permissions import Rule, bypass_disabled, rule_matches

DEFAULT_MODEL = "claude-opus-5-5"


@dataclass(frozen=True)
class Context:
    """What decides stages 7-9 for every tool: rules, deferral setting, model, mode, -p or not."""

    rules: tuple[Rule, ...]
    tool_search: str | None
    tool_search_source: str
    model: str
    mode: str
    mode_source: str
    print_mode: bool
    tools_flag: tuple[str, ...] | None
    bypass_disabled: str | None


def settings_env(files: ClaudeFiles, environ: Mapping[str, str], key: str) -> tuple[str | None, str]:
    """A variable from the settings ``env`` blocks (managed > flag > local > project > user), else the environment."""
    for scope in ("managed", "flag", "local", "project", "user"):
        for source in reversed(files.settings_in(scope)):
            env = source.file.data.get("env")
            if isinstance(env, dict) and isinstance(env.get(key), str):
                return env[key], f"{source.file.shown}: env.{key}"
    if key in environ:
        return environ[key], f"the environment ({key})"
    return None, f"{key} unset"


def build_context(
    files: ClaudeFiles, args: ClientArgs, rules: list[Rule], mode: tuple[str, str], environ: Mapping[str, str]
) -> Context:
    """Everything the per-tool stages need, read once."""
    value, where = settings_env(files, environ, "ENABLE_TOOL_SEARCH")
    return Context(
        rules=tuple(rules),
        tool_search=value,
        tool_search_source=where,
        model=session_model(files, args, environ),
        mode=mode[0],
        mode_source=mode[1],
        print_mode=args.print_mode,
        tools_flag=args.tools,
        bypass_disabled=bypass_disabled(files),
    )


def session_model(files: ClaudeFiles, args: ClientArgs, environ: Mapping[str, str]) -> str:
    """The model of the session: ``--model``, then ``ANTHROPIC_MODEL``, then the settings' ``model``
    (managed > --settings > local > project > user), then the default. Observed with 2.1.332
    (``experiments/x_claude_scopes.py D_model``): local beats project beats user, and the
    environment beats every settings scope."""
    if args.model:
        return args.model
    if environ.get("ANTHROPIC_MODEL"):
        return environ["ANTHROPIC_MODEL"]
    for scope in ("managed", "flag", "local", "project", "user"):
        for source in reversed(files.settings_in(scope)):
            if isinstance(source.file.data.get("model"), str):
                return str(source.file.data["model"])
    return DEFAULT_MODEL


def final_name(server: str, tool: str) -> str:
    """The name the model sees: ``mcp__<server>__<tool>``, both normalised."""
    return f"mcp__{claude_name_part(server)}__{claude_name_part(tool)}"


def naming_stage(server: str, tool: str, kept_by: str | None) -> Stage:
    """Stage 6: the final name, and whether a collision dropped this tool."""
    name = final_name(server, tool)
    how = f'server "{server}", tool "{tool}" → {name}'
    if name != f"mcp__{server}__{tool}":
        how += " (every character outside A-Za-z0-9_- becomes _)"
    if kept_by is not None:
        return stage(
            ClaudeStage.NAMING,
            False,
            "naming.collision",
            f'{how}: collides with the tool of server "{kept_by}" listed first; Claude Code keeps that one silently',
            name,
        )
    return stage(ClaudeStage.NAMING, True, "naming.ok", how, name)


def _matching(ctx: Context, kind: str, server: str, name: str) -> list[Rule]:
    return [r for r in ctx.rules if r.kind == kind and rule_matches(r.text, claude_name_part(server), name)]


def deny_stage(ctx: Context, server: str, name: str) -> Stage:
    """Stage 7: a counted deny rule removes the tool from everything the model sees."""
    found = _matching(ctx, "deny", server, name)
    counted = [r for r in found if r.counts]
    if counted:
        rule = counted[0]
        return stage(
            ClaudeStage.DENY,
            False,
            "permission.deny",
            f'denied by "{rule.text}" ({rule.source}): removed from the tool list, the deferred list and ToolSearch',
            rule.text,
            rule.source,
        )
    ignored = "; ".join(f'"{r.text}" ({r.source}) is ignored: {r.ignored_because}' for r in found)
    return stage(ClaudeStage.DENY, True, "permission.no_deny", ignored or "no deny rule matches it")


def _tool_search_setting(value: str | None) -> bool | None:
    """True: deferred; False: in full; None: auto (depends on the count_tokens answer)."""
    if value is None:
        return True
    text = value.strip().lower()
    if text in ("true", "1", "auto:0"):
        return True
    if text in ("false", "0", "auto:100"):
        return False
    if text.startswith("auto"):
        return None
    return True


def context_stage(ctx: Context, server_entry: dict, hints: tuple[str, ...], tool_search_denied: bool) -> Stage:
    """Stage 8: in full in ``tools``, or deferred (name in the system message, schema via ToolSearch)."""
    full = None
    if ctx.model.startswith("claude-3"):
        full = f"the model {ctx.model} has no tool_reference support"
    elif tool_search_denied:
        full = "ToolSearch is denied"
    elif ctx.tools_flag is not None and "ToolSearch" not in ctx.tools_flag:
        full = "--tools leaves ToolSearch out"
    elif server_entry.get("alwaysLoad") is True:
        full = 'the server sets "alwaysLoad": true'
    elif "anthropic/alwaysLoad" in hints:
        full = 'the tool sets _meta {"anthropic/alwaysLoad": true}'
    setting = _tool_search_setting(ctx.tool_search)
    if full is None and setting is False:
        full = f"ENABLE_TOOL_SEARCH={ctx.tool_search} ({ctx.tool_search_source})"
    if full is not None:
        return stage(ClaudeStage.IN_CONTEXT, True, "context.full", f"in full in the request's tools: {full}")
    if setting is None:
        return stage(
            ClaudeStage.IN_CONTEXT, True, "context.auto",
            f"ENABLE_TOOL_SEARCH={ctx.tool_search} ({ctx.tool_search_source}): deferred only if the count_tokens answer for "
            "the deferrable tools minus 500 reaches N% of the model's context window; else in full",
        )  # fmt: skip
    return stage(
        ClaudeStage.IN_CONTEXT, True, "context.deferred",
        f"deferred behind ToolSearch: only its name is in the system message listing deferred tools; the schema "
        f"loads after ToolSearch select:NAME ({ctx.tool_search_source})",
    )  # fmt: skip


def callable_stage(ctx: Context, server: str, name: str) -> Stage:
    """Stage 9: under the ask / allow rules and the permission mode (-p refuses what would ask)."""
    ask = [r for r in _matching(ctx, "ask", server, name) if r.counts]
    allow = [r for r in _matching(ctx, "allow", server, name) if r.counts]
    ignored = [r for r in _matching(ctx, "allow", server, name) if not r.counts]
    note = "".join(f'; "{r.text}" ({r.source}) is ignored: {r.ignored_because}' for r in ignored)
    session = "-p" if ctx.print_mode else "interactively"
    if ask:
        r = ask[0]
        if ctx.print_mode:
            return stage(
                ClaudeStage.CALLABLE,
                False,
                "permission.ask",
                f'ask rule "{r.text}" ({r.source}) beats allow; -p refuses a call that would ask',
                r.text,
                r.source,
            )
        return stage(
            ClaudeStage.CALLABLE,
            True,
            "permission.ask",
            f'ask rule "{r.text}" ({r.source}): asks at each call',
            r.text,
            r.source,
        )
    if allow:
        r = allow[0]
        return stage(
            ClaudeStage.CALLABLE, True, "permission.allow", f'allowed by "{r.text}" ({r.source})', r.text, r.source
        )
    mode, where = ctx.mode, ctx.mode_source
    if mode == "bypassPermissions" and ctx.bypass_disabled:
        mode, where = "default", f"bypassPermissions disabled by {ctx.bypass_disabled} (silently)"
    if mode == "bypassPermissions":
        return stage(
            ClaudeStage.CALLABLE,
            True,
            "permission.mode",
            f"mode bypassPermissions ({where}) runs every call not denied (as root it needs IS_SANDBOX=1)",
        )
    if mode == "dontAsk":
        return stage(
            ClaudeStage.CALLABLE,
            False,
            "permission.mode",
            f"mode dontAsk ({where}) refuses every call no allow rule approves{note}",
            mode,
            where,
        )
    if mode == "plan":
        return stage(
            ClaudeStage.CALLABLE,
            False,
            "permission.mode",
            f'mode plan ({where}): "Cannot call {name} while in plan mode."{note}',
            mode,
            where,
        )
    if mode == "auto" and ctx.print_mode:
        return stage(
            ClaudeStage.CALLABLE,
            False,
            "permission.mode",
            f'mode auto ({where}) refuses MCP calls in -p ("Auto mode is unavailable…"){note}',
            mode,
            where,
        )
    if ctx.print_mode:
        return stage(
            ClaudeStage.CALLABLE, False, "permission.not_allowed",
            f"mode {mode} ({where}) with no allow rule: -p refuses (\"Claude requested permissions to use {name}, but you haven't granted it yet.\"){note}",
            mode, where,
        )  # fmt: skip
    return stage(
        ClaudeStage.CALLABLE,
        True,
        "permission.prompt",
        f"mode {mode} ({where}) with no allow rule: asks at each call ({session}){note}",
        mode,
        where,
    )


def collisions(listed: list[tuple[str, ServerResult]]) -> dict[tuple[str, str], str]:
    """(server, tool) → the server whose same-named tool Claude keeps (first listed wins)."""
    owner: dict[str, str] = {}
    lost: dict[tuple[str, str], str] = {}
    for server, result in listed:
        for tool in result.tools:
            name = final_name(server, tool)
            if name in owner:
                lost[(server, tool)] = owner[name]
            else:
                owner[name] = server
    return lost
