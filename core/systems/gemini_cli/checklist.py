"""The ``explain`` checklist for one Gemini CLI tool, and the one change that fixes it.

1. Does the CLI start its server? (settings, folder trust, mcp.allowed / mcp.excluded,
connection)  2. Do includeTools / excludeTools and tools.exclude keep it, under which name?
3. Does the policy engine send it, and would a call run?  4. Will a test catch it next time?
The fix names Gemini CLI's own keys and files.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ...model.opt_in import DISCOVER_FLAG, NOT_STARTED_CODE, not_started_fix
from ...model.presentation import group_answer
from ...model.verdicts import Checklist, ChecklistStep, Stage, ToolVerdict
from ...text.suggest import did_you_mean
from ..coding_cli.common import typed_path
from .ids import GeminiStage
from .policy import server_pattern

if TYPE_CHECKING:
    from .subject import GeminiSubject

_GROUPS = (
    (
        (GeminiStage.SETTINGS, GeminiStage.FOLDER_TRUST, GeminiStage.SERVER_GATE, GeminiStage.CONNECTION),
        "Does Gemini CLI start the server {server}?",
    ),
    (
        (GeminiStage.SERVER_FILTER, GeminiStage.NAMING, GeminiStage.TOOLS_EXCLUDE),
        "Do includeTools / excludeTools and tools.exclude keep it, and under which name?",
    ),
    (
        (GeminiStage.POLICY, GeminiStage.CALLABLE),
        "Does the policy engine send it in mode {mode}, and would a call run?",
    ),
)


def _matches(subject: GeminiSubject, tool: str, tools: Sequence[ToolVerdict]) -> list[ToolVerdict]:
    """The rows named ``tool`` (sent name, or ``server:raw tool``); else a server's ``mcp_<s>_*`` row."""
    named = [t for t in tools if tool in (t.name, f"{t.namespace}:{subject.raw_names.get(t.name, ('', ''))[1]}")]
    return named or [t for t in tools if t.name.endswith("_*") and tool.startswith(t.name[:-1])]


def _step(verdict: ToolVerdict, ids: tuple[str, ...], question: str, mode: str) -> ChecklistStep:
    stages = [s for s in verdict.stages if s.name in ids]
    answer, word = group_answer(stages)
    return ChecklistStep(
        question.format(server=verdict.namespace, mode=mode),
        word,
        answer,
        tuple(s.rule for s in stages) or ("not reached",),
    )


def gemini_checklist(subject: GeminiSubject, tool: str, mode: str) -> Checklist:
    """The four questions for one tool (its sent name ``mcp_<server>_<tool>``, or ``server:tool``)."""
    tools = subject.evaluate(mode).tools
    matches = _matches(subject, tool, tools)
    if not matches:
        return _unknown_tool(subject, tool, mode, tools)
    verdict = max(matches, key=lambda v: len(v.stages))
    steps = [_step(verdict, ids, question, mode) for ids, question in _GROUPS]
    test = check_command(subject, verdict.name)
    steps.append(ChecklistStep("Will a test catch it if it disappears again?", "add one", None, (test,)))
    return Checklist(tool, mode, verdict, tuple(steps), fix_for(subject, verdict))


def _unknown_tool(subject: GeminiSubject, tool: str, mode: str, tools: Sequence[ToolVerdict]) -> Checklist:
    close = did_you_mean(tool, [t.name for t in tools], normalize=str.lower)
    step = ChecklistStep(f"Is {tool} a tool of any server Gemini CLI would start?", "no", False, (subject.where,))
    fix = f"did you mean {close[0]}?" if close else "define its server under mcpServers in ~/.gemini/settings.json"
    return Checklist(tool, mode, None, (step,), fix, close)


def check_command(subject: GeminiSubject, tool: str) -> str:
    """``toolscope check`` on the same files and flags."""
    parts = ["toolscope", "check", f"gemini-cli:{typed_path(subject.files.project)}"]
    if subject.files.home != subject.default_home:
        parts += ["--home", typed_path(subject.files.home)]
    if subject.args.text:
        parts += ["--client-args", subject.args.text]
    if subject.discover:
        parts.append(DISCOVER_FLAG)
    return shlex.join([*parts, "--expect", f"visible:{tool}"])


def fix_for(subject: GeminiSubject, verdict: ToolVerdict) -> str | None:
    """The concrete change for the first failing stage, in Gemini CLI's keys."""
    failing = verdict.first_failing
    if failing is None:
        return None
    server, raw = subject.raw_names.get(verdict.name, (verdict.namespace or "", verdict.name))
    return _fixes(subject, verdict.name, server, raw, failing).get(failing.code, failing.rule)


def _allow_fix(name: str, server: str) -> str:
    pattern = server_pattern(server)
    if not name.startswith(pattern[:-1]):
        return f'add "{name}" to tools.allowed in ~/.gemini/settings.json (the server\'s name is sanitised or cut in the sent name, so trust: true and mcp.allowed "{server}" do not match it)'
    return f'set "trust": true on mcpServers.{json.dumps(server)}, or add "{pattern}" to tools.allowed in ~/.gemini/settings.json'


def _fixes(subject: GeminiSubject, name: str, server: str, raw: str, failing: Stage) -> dict[str, str]:
    project = str(subject.files.project)
    return {
        "settings.workspace_ignored": f'trust the folder (add "{project}": "TRUST_FOLDER" to ~/.gemini/trustedFolders.json, or run with GEMINI_CLI_TRUST_WORKSPACE=true); --skip-trust does not read the workspace settings',
        "settings.extension_off": "add the extension to -e, or drop -e (every enabled extension loads)",
        "trust.untrusted_headless": f'trust the folder: add "{project}": "TRUST_FOLDER" to ~/.gemini/trustedFolders.json, or set GEMINI_CLI_TRUST_WORKSPACE=true (--skip-trust keeps user servers but drops the workspace settings)',
        "trust.untrusted": f'trust the folder: add "{project}": "TRUST_FOLDER" to ~/.gemini/trustedFolders.json',
        "gate.excluded": f'remove "{server}" from mcp.excluded ({failing.source})',
        "gate.not_allowed": f'add "{server}" (exact case) to mcp.allowed in {failing.source}: every file\'s list must name it',
        "filter.excluded": f'remove "{raw}" from excludeTools ({failing.source})',
        "filter.not_included": f'add the raw tool name "{raw}" to includeTools ({failing.source})',
        "exclude.listed": f'remove "{failing.entry}" from {failing.source}',
        "policy.core_wildcard": f'add "{server_pattern(server)}" (or "{name}") to tools.core ({failing.source}): any tools.core, even [], denies every tool it does not name, above trust, mcp.allowed and yolo',
        "policy.headless_default": _allow_fix(name, server),
        "policy.deny": f'remove or lower the DENY rule ({failing.source}), or add a higher-priority ALLOW for "{name}"',
        "callable.needs_confirmation": f'allow it for -p: add "{name}" to tools.allowed (or set "trust": true on the server), or drop its ask_user rule ({failing.source})',
        NOT_STARTED_CODE: not_started_fix(server),
        "connection.no_tools": f"check the server {server}: it listed no tools",
    }
