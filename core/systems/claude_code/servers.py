"""Claude Code stages 1-5 for each server definition: source, precedence, approval, policy, connection.

Observed with 2.1.332 (reference §1 rows 1-5): ``managed-mcp.json`` is exclusive; same name:
--mcp-config > local > project > user; ``.mcp.json`` servers connect in ``-p`` without
approval but interactively need an enable key (user/managed settings, or project/local
ones of a trusted project), and ``disabledMcpjsonServers`` in any settings file beats
them; ``deniedMcpServers`` / ``allowedMcpServers`` (exact ``serverName`` or argv
``serverCommand``) in managed, user and project settings; deny wins.
"""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass, replace
from typing import Any

from ...mcp.results import ServerResult
from ...mcp.startup import StartupGrace, startup_verdicts
from ...model.opt_in import NOT_STARTED_CODE
from ...model.verdicts import Stage
from ..coding_cli.common import quoted, stage
from .args import ClientArgs
from .files import ClaudeFiles, ServerEntry, legacy_project_lists
from .ids import ClaudeStage

RANK = {"enterprise": 0, "dynamic": 1, "local": 2, "project": 3, "user": 4}
"""Same-name precedence, best first (enterprise servers never meet others: managed-mcp.json is exclusive)."""


@dataclass(frozen=True)
class ServerDecision:
    """One definition and its stages 1-4 (5 is added once its tools are listed)."""

    entry: ServerEntry
    stages: tuple[Stage, ...]

    @property
    def key(self) -> str:
        """Discovery key: unique per definition."""
        return f"{self.entry.scope}{self.entry.order}/{self.entry.name}"

    @property
    def blocked_by_policy(self) -> bool:
        """A policy deny: toolscope does not start a server the organisation blocks."""
        return any(
            s.name == ClaudeStage.POLICY and s.passed is False and s.code == "policy.denied" for s in self.stages
        )

    @property
    def passed(self) -> bool:
        """Stages so far all passed."""
        return all(s.passed for s in self.stages)


def _source(entry: ServerEntry, files: ClaudeFiles, args: ClientArgs) -> Stage:
    where = f"defined in {entry.source} (scope {entry.scope})"
    if entry.scope == "unread":
        return stage(
            ClaudeStage.SOURCE, False, "source.unread",
            f"Claude Code never reads mcpServers in {entry.source.partition(':')[0]}: the server is not defined at all "
            "(servers go in .mcp.json, ~/.claude.json via `claude mcp add`, or --mcp-config)",
            entry.name, entry.source,
        )  # fmt: skip
    dropped = (
        _fatal_flag(files, args, where) or _setting_source_skips(entry, args) or _flag_drops(entry, files, args, where)
    )
    if dropped is not None:
        return dropped
    return stage(ClaudeStage.SOURCE, True, f"source.{entry.scope}", where, entry.name, entry.source)


def _fatal_flag(files: ClaudeFiles, args: ClientArgs, where: str) -> Stage | None:
    """--mcp-config beside managed-mcp.json: Claude Code exits 1 before any request (observed, 2.1.332)."""
    if files.managed_mcp is None or not args.mcp_config:
        return None
    return stage(
        ClaudeStage.SOURCE, False, "source.mcp_config_fatal",
        f"{where}, but --mcp-config beside {files.managed_mcp.shown} makes Claude Code exit 1 before any request "
        '("You cannot dynamically configure MCP servers when an enterprise MCP config is present")',
        "--mcp-config", files.managed_mcp.shown,
    )  # fmt: skip


def _flag_drops(entry: ServerEntry, files: ClaudeFiles, args: ClientArgs, where: str) -> Stage | None:
    """--safe-mode, an exclusive managed-mcp.json, --strict-mcp-config / --bare: the server does not start."""
    if args.safe_mode:
        return stage(
            ClaudeStage.SOURCE,
            False,
            "source.safe_mode",
            f"{where}, but --safe-mode starts no MCP server",
            "--safe-mode",
            "--client-args",
        )
    if files.managed_mcp is not None and entry.scope != "enterprise":
        return stage(
            ClaudeStage.SOURCE, False, "source.managed_exclusive",
            f"{where}, but {files.managed_mcp.shown} exists: it is exclusive, only its servers start",
            entry.name, files.managed_mcp.shown,
        )  # fmt: skip
    if (args.strict_mcp_config or args.bare) and entry.scope != "dynamic":
        flag = "--strict-mcp-config" if args.strict_mcp_config else "--bare"
        return stage(
            ClaudeStage.SOURCE,
            False,
            "source.strict",
            f"{where}, but {flag} keeps only --mcp-config servers",
            flag,
            "--client-args",
        )
    return None


SCOPE_SOURCES = {"user": "user", "local": "local", "project": "project"}
"""The ``--setting-sources`` value that keeps each server scope (observed with 2.1.332: the flag
filters servers too; --mcp-config and managed-mcp.json servers survive every value)."""


def _setting_source_skips(entry: ServerEntry, args: ClientArgs) -> Stage | None:
    """The failing source stage of a server whose scope ``--setting-sources`` leaves out, else None."""
    needed = SCOPE_SOURCES.get(entry.scope)
    if args.setting_sources is None or needed is None or needed in args.setting_sources:
        return None
    given = ",".join(args.setting_sources)
    return stage(
        ClaudeStage.SOURCE, False, "source.setting_sources",
        f"defined in {entry.source} (scope {entry.scope}), but --setting-sources {given} leaves the {needed} "
        "scope out: its servers do not start",
        "--setting-sources", "--client-args",
    )  # fmt: skip


def _precedence(entry: ServerEntry, rivals: list[ServerEntry]) -> Stage:
    best = min([entry, *rivals], key=lambda e: (RANK.get(e.scope, 9), e.order))
    if best is entry:
        lost = ", ".join(f"{r.scope} ({r.source})" for r in rivals)
        rule = (
            f"wins over the same name in {lost} (--mcp-config > local > project > user)"
            if rivals
            else "the only definition of this name"
        )
        return stage(ClaudeStage.PRECEDENCE, True, "precedence.wins", rule, entry.name, entry.source)
    return stage(
        ClaudeStage.PRECEDENCE, False, "precedence.shadowed",
        f"shadowed by the {best.scope} definition in {best.source} (--mcp-config > local > project > user)",
        best.name, best.source,
    )  # fmt: skip


def _lists(files: ClaudeFiles, key: str, scopes: tuple[str, ...]) -> list[tuple[Any, str]]:
    out = []
    for source in files.settings_in(*scopes):
        value = source.file.data.get(key)
        if value is not None:
            out.append((value, f"{source.file.shown}: {key}"))
    return out


def _approval(entry: ServerEntry, files: ClaudeFiles, args: ClientArgs) -> Stage:
    if entry.scope != "project":
        return stage(ClaudeStage.APPROVAL, True, "approval.not_needed", "not a .mcp.json server: no approval step")
    name = entry.name
    disabled = _disabled_by(name, files)
    if disabled is not None:
        where, what = disabled
        return stage(
            ClaudeStage.APPROVAL,
            False,
            "approval.disabled",
            f"disabledMcpjsonServers lists it in {where} {what}",
            name,
            where,
        )
    approved_by = _approved_by(name, files)
    rule = f"-p: connects without approval; {_interactive_approval(approved_by, files)}"
    passed = True if args.print_mode else approved_by is not None
    code = "approval.headless" if args.print_mode else ("approval.approved" if approved_by else "approval.pending")
    return stage(ClaudeStage.APPROVAL, passed, code, rule, name, approved_by)


def _disabled_project(entry: ServerEntry, files: ClaudeFiles) -> bool:
    """A .mcp.json server that a disabledMcpjsonServers list names."""
    return entry.scope == "project" and _disabled_by(entry.name, files) is not None


def _disabled_by(name: str, files: ClaudeFiles) -> tuple[str, str] | None:
    """(where, what that means) of the disabledMcpjsonServers list naming the server, if one does."""
    for value, where in _lists(files, "disabledMcpjsonServers", ("managed", "flag", "user", "project", "local")):
        if isinstance(value, list) and name in value:
            return where, (
                "(what the approval dialog's default answer writes): "
                "hidden in -p and interactively, and it beats every enable key"
            )
    if name in legacy_project_lists(files).get("disabledMcpjsonServers", []):
        where = f'~/.claude.json: projects."{files.project_key}".disabledMcpjsonServers'
        return where, "(moved to .claude/settings.local.json at start)"
    return None


def _approved_by(name: str, files: ClaudeFiles) -> str | None:
    """The last setting that approves the server for the interactive app (project settings only when trusted)."""
    trusted_scopes = ("project", "local") if files.trusted else ()
    approved_by = None
    for scope_set in (("managed", "flag", "user"), trusted_scopes):
        for value, where in _lists(files, "enableAllProjectMcpServers", scope_set):
            if value is True:
                approved_by = where
        for value, where in _lists(files, "enabledMcpjsonServers", scope_set):
            if isinstance(value, list) and name in value:
                approved_by = where
    return approved_by


def _interactive_approval(approved_by: str | None, files: ClaudeFiles) -> str:
    """What the interactive app does with the server: approved, or pending (and why)."""
    if approved_by:
        return f"interactive: approved by {approved_by}"
    ignored = [
        w
        for k in ("enableAllProjectMcpServers", "enabledMcpjsonServers")
        for _, w in _lists(files, k, ("project", "local"))
    ]
    if ignored and not files.trusted:
        return (
            f"interactive: pending approval: {', '.join(ignored)} is ignored because the project is not trusted "
            f'(~/.claude.json: projects."{files.project_key}".hasTrustDialogAccepted)'
        )
    return "interactive: pending approval (no enableAllProjectMcpServers / enabledMcpjsonServers in user settings)"


def _policy_matches(item: Any, entry: ServerEntry) -> bool:
    if not isinstance(item, dict):
        return False
    if "serverName" in item:
        return item["serverName"] == entry.name
    if "serverCommand" in item:
        command = [entry.entry.get("command"), *(entry.entry.get("args") or [])]
        return item["serverCommand"] == command
    if "serverUrl" in item and isinstance(entry.entry.get("url"), str):
        return fnmatch.fnmatchcase(entry.entry["url"], str(item["serverUrl"]))
    return False


def _policy(entry: ServerEntry, files: ClaudeFiles) -> Stage:
    scopes = ("managed", "user", "project")
    for value, where in _lists(files, "deniedMcpServers", scopes):
        for i, item in enumerate(value if isinstance(value, list) else []):
            if _policy_matches(item, entry):
                return stage(
                    ClaudeStage.POLICY,
                    False,
                    "policy.denied",
                    f"blocked by deniedMcpServers[{i}] in {where} (deny wins; no trace in Claude Code)",
                    quoted([item])[1:-1],
                    where,
                )
    managed_only = any(s.file.data.get("allowManagedMcpServersOnly") is True for s in files.settings_in("managed"))
    allow_lists = _lists(files, "allowedMcpServers", ("managed",) if managed_only else scopes)
    if not allow_lists or entry.scope == "enterprise":
        return stage(
            ClaudeStage.POLICY,
            True,
            "policy.none",
            "no server policy applies"
            if not allow_lists
            else "an organisation server (managed-mcp.json): allowed without a listing",
        )
    for value, where in allow_lists:
        for item in value if isinstance(value, list) else []:
            if _policy_matches(item, entry):
                return stage(
                    ClaudeStage.POLICY,
                    True,
                    "policy.allowed",
                    f"allowed by allowedMcpServers in {where}",
                    quoted([item])[1:-1],
                    where,
                )
    wheres = ", ".join(w for _, w in allow_lists)
    return stage(
        ClaudeStage.POLICY,
        False,
        "policy.not_allowed",
        f"not in allowedMcpServers ({wheres}; the lists are unioned, [] allows none): blocked without a trace",
        entry.name,
        wheres,
    )


def decide_servers(files: ClaudeFiles, args: ClientArgs) -> list[ServerDecision]:
    """Stages 1-4 of every definition, in reading order."""
    sources = {id(e): _source(e, files, args) for e in files.servers}
    # A .mcp.json server that disabledMcpjsonServers names is no rival: the user's server of the same
    # name comes back (observed with 2.1.332, experiments/x_claude_scopes.py B_).
    alive = {id(e) for e in files.servers if sources[id(e)].passed and not _disabled_project(e, files)}
    out = []
    for entry in files.servers:
        stages = [sources[id(entry)]]
        if stages[0].passed:
            rivals = [e for e in files.servers if e is not entry and e.name == entry.name and id(e) in alive]
            stages.append(_precedence(entry, rivals))
        if all(s.passed for s in stages):
            stages.append(_approval(entry, files, args))
        if all(s.passed for s in stages):
            stages.append(_policy(entry, files))
        out.append(ServerDecision(entry, tuple(stages)))
    return out


def connection_stage(
    decision: ServerDecision, result: ServerResult | None, where: str, grace: StartupGrace | None = None
) -> Stage:
    """Stage 5 from the listing: connected with N tools, failed (tools unknown), or not listed."""
    if result is None:
        return stage(ClaudeStage.CONNECTION, None, "connection.not_listed", f"no listing of this server ({where})")
    if not result.started:
        return stage(
            ClaudeStage.CONNECTION, None, NOT_STARTED_CODE, f"unknown, {result.error}",
            decision.entry.name, decision.entry.source,
        )  # fmt: skip
    if not result.ok:
        return stage(
            ClaudeStage.CONNECTION, None, "mcp.outage",
            f"failed to connect: {result.error} (Claude Code still runs: -p exits 0, stream-json init shows it "
            "'failed' and the model gets a system message naming it); its tools are unknown",
            decision.entry.name, decision.entry.source,
        )  # fmt: skip
    late = startup_verdicts([replace(result, name=decision.entry.name)], grace) if grace is not None else ()
    if late and late[0].late:
        return stage(
            ClaudeStage.CONNECTION, False, "connection.late",
            f"connected, but {late[0].sentence()} (later requests may carry them)",
            decision.entry.name, decision.entry.source,
        )  # fmt: skip
    return stage(ClaudeStage.CONNECTION, True, "connection.ok", f"connected: lists {len(result.tools)} tools ({where})")
