"""The ``explain`` checklist for one Claude Code tool: the seed's four questions, adapted.

1. Does Claude Code start its server? (stages 1-5)  2. Does the tool keep its name and escape
every deny rule? (6-7)  3. Does the model get it, and would a call run? (8-9)  4. Will a test
catch it next time? Then the one change that fixes the first failing stage.
"""

from __future__ import annotations

import shlex
from collections.abc import Collection, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from ...model.opt_in import DISCOVER_FLAG, NOT_STARTED_CODE, not_started_fix
from ...model.presentation import group_answer
from ...model.verdicts import Checklist, ChecklistStep, ToolVerdict
from ...text.suggest import did_you_mean
from ..coding_cli.common import claude_name_part, typed_path
from .ids import ClaudeStage

if TYPE_CHECKING:
    from .subject import ClaudeCodeSubject

_GROUPS = (
    (
        (ClaudeStage.SOURCE, ClaudeStage.PRECEDENCE, ClaudeStage.APPROVAL, ClaudeStage.POLICY, ClaudeStage.CONNECTION),
        "Does Claude Code start the server '{server}'?",
    ),
    ((ClaudeStage.NAMING, ClaudeStage.DENY), "Does the tool keep the name {name} and escape every deny rule?"),
    (
        (ClaudeStage.IN_CONTEXT, ClaudeStage.CALLABLE),
        "Does the model get it (in full or deferred behind ToolSearch), and would a call run in mode {mode}?",
    ),
)


def _command(subject: ClaudeCodeSubject, name: str) -> str:
    parts = ["toolscope", "check", f"claude-code:{typed_path(subject.files.project)}"]
    # The files this answer read, so the command checks the same ones (defaults left out).
    if subject.files.home != Path(subject.environ.get("HOME") or Path.home()).expanduser().resolve():
        parts += ["--home", typed_path(subject.files.home)]
    if subject.files.managed_dir != Path("/etc/claude-code"):
        parts += ["--managed-dir", typed_path(subject.files.managed_dir)]
    if subject.args.text:
        parts += ["--client-args", subject.args.text]
    if subject.discover:
        parts.append(DISCOVER_FLAG)
    return shlex.join([*parts, "--expect", f"visible:{name}"])


def fix_for(subject: ClaudeCodeSubject, verdict: ToolVerdict) -> str | None:
    """The concrete change for the first failing (or unknown) stage, naming file, key and entry."""
    failing = verdict.first_failing
    if failing is None:
        return None
    server, name, code, where, entry = verdict.namespace, verdict.name, failing.code, failing.source, failing.entry
    fixes = {
        "source.unread": f'move "{server}" out of {where} into .mcp.json (project scope) or ~/.claude.json '
        f"(`claude mcp add {server} -- COMMAND…`); Claude Code never reads mcpServers in a settings file",
        "source.managed_exclusive": f'managed-mcp.json ({where}) is exclusive: add "{server}" there (the organisation\'s file) or remove that file',
        "source.strict": f'pass "{server}" with --mcp-config, or start Claude Code without --strict-mcp-config / --bare',
        "source.safe_mode": "start Claude Code without --safe-mode",
        "connection.late": f"{subject.grace.extend}, or make the server start faster",
        "source.mcp_config_fatal": f"drop --mcp-config (Claude Code exits 1 with it beside {where}), or add its servers "
        "to that managed-mcp.json (the organisation's file)",
        "source.setting_sources": f'add the scope of "{server}" to --setting-sources, or drop the flag',
        "precedence.shadowed": f'rename one of the two "{server}" servers, or remove the definition that wins ({where})',
        "approval.disabled": f'remove "{server}" from disabledMcpjsonServers in {where}',
        "approval.pending": f'add "enabledMcpjsonServers": ["{server}"] to ~/.claude/settings.json, or approve it in Claude Code\'s '
        'dialog (choose "Use this MCP server", not the default answer)',
        "policy.denied": f"remove the deniedMcpServers entry {entry} from {where} (organisation policy: ask the admin)",
        "policy.not_allowed": f'add {{"serverName": "{server}"}} to allowedMcpServers in {where}',
        "mcp.outage": f'make the server "{server}" start (run its command by hand; {failing.rule.split(" (")[0]})',
        "connection.not_listed": "list the server live (drop --snapshot) or take a new snapshot",
        NOT_STARTED_CODE: not_started_fix(server),
        "naming.collision": f"rename one of the servers or tools so that their normalised names differ ({name} is taken)",
        "permission.deny": f'remove "{entry}" from {where}',
        "permission.ask": f'remove the ask rule "{entry}" from {where} (ask beats allow, and -p refuses it)',
        "permission.not_allowed": f'add "{name}" to permissions.allow in ~/.claude/settings.json or .claude/settings.local.json '
        f"(or start with --allowedTools {name})",
    }
    if code == "permission.mode":
        return (
            f'add "{name}" to permissions.allow (mode {entry} refuses it otherwise), or use another --permission-mode'
        )
    return fixes.get(code, failing.rule)


def claude_checklist(subject: ClaudeCodeSubject, tool: str, mode: str) -> Checklist:
    """Why ``tool`` passes or fails each stage, grouped into four questions, and the fix."""
    evaluation = subject.evaluate(mode)
    wanted = _wanted_name(tool)
    matches = _matching_rows(evaluation.tools, wanted)
    if not matches:
        return _not_found(subject, evaluation.tools, tool, wanted, mode)
    # A name defined in several scopes: the definition that gets furthest explains it.
    verdict = max(matches, key=lambda v: (len(v.stages), v.first_failing is None))
    shown = wanted if verdict.name.endswith("__*") else verdict.name
    steps = [_group_step(verdict, ids, question, shown, mode) for ids, question in _GROUPS]
    steps.append(
        ChecklistStep("Will a test catch it if it disappears again?", "add one", None, (_command(subject, shown),))
    )
    return Checklist(tool=tool, mode=mode, verdict=verdict, steps=tuple(steps), fix=fix_for(subject, verdict))


def _wanted_name(tool: str) -> str:
    """The name Claude Code gives the tool: ``server:tool`` becomes ``mcp__server__tool``."""
    if ":" in tool and not tool.startswith("mcp__"):
        server, _, raw = tool.partition(":")
        return f"mcp__{claude_name_part(server)}__{claude_name_part(raw)}"
    return tool


def _matching_rows(tools: Sequence[ToolVerdict], wanted: str) -> list[ToolVerdict]:
    """The rows named ``wanted``; else the row of a server that never listed its tools
    (blocked, failed, not approved): mcp__<server>__*, whose stages explain every tool of it."""
    matches = [t for t in tools if t.name == wanted]
    return matches or [t for t in tools if t.name.endswith("__*") and wanted.startswith(t.name[:-1])]


def _not_found(
    subject: ClaudeCodeSubject, tools: Sequence[ToolVerdict], tool: str, wanted: str, mode: str
) -> Checklist:
    """No server Claude Code would start has the tool: the servers there are, and the likely name."""
    close = did_you_mean(wanted, [t.name for t in tools], normalize=lambda n: claude_name_part(n).lower())
    servers = sorted({t.namespace for t in tools})
    evidence: tuple[str, ...] = (f"servers defined: {', '.join(servers) or '(none)'}", subject.where)
    step = ChecklistStep(f"Is {tool} a tool of any server Claude Code would start?", "no", False, evidence)
    fix = (
        f"did you mean {close[0]}?"
        if close
        else "define its server in .mcp.json, ~/.claude.json (`claude mcp add`) or --mcp-config"
    )
    return Checklist(tool=tool, mode=mode, verdict=None, steps=(step,), fix=fix, did_you_mean=close)


def _group_step(verdict: ToolVerdict, ids: Collection[str], question: str, shown: str, mode: str) -> ChecklistStep:
    """One of the four questions, answered from its stages (n/a when none was reached)."""
    stages = [s for s in verdict.stages if s.name in ids]
    passed, word = group_answer(stages)
    evidence = tuple(s.rule + (f" ({s.source})" if s.source and s.source not in s.rule else "") for s in stages) or (
        "not reached: an earlier question failed",
    )
    return ChecklistStep(
        question.format(server=verdict.namespace, name=shown, mode=mode),
        word,
        passed,
        evidence,
    )
