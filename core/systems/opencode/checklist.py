"""The ``explain`` checklist for one OpenCode tool, and the one change that fixes it (in OpenCode's own keys)."""

from __future__ import annotations

import json
import shlex
from typing import TYPE_CHECKING

from ...model.opt_in import DISCOVER_FLAG, NOT_STARTED_CODE, not_started_fix
from ...model.presentation import group_answer
from ...model.verdicts import Checklist, ChecklistStep, ToolVerdict
from ...text.suggest import did_you_mean
from ..coding_cli.common import typed_path
from .ids import OpenCodeStage as S

if TYPE_CHECKING:
    from .subject import OpenCodeSubject

_GROUPS = (
    (
        (S.CONFIG, S.ENABLED, S.CONNECTION),
        "Is the config valid, and does {namespace} (its server, or OpenCode) provide it?",
    ),
    ((S.NAMING,), "Under which name does the model see it?"),
    ((S.PERMISSION, S.IN_CONTEXT), "Do agent {mode}'s tools maps and permission rules keep its schema?"),
    ((S.CALLABLE,), "Would a call run in opencode run?"),
)


def _unknown_tool(subject: OpenCodeSubject, tool: str, mode: str, names: list[str]) -> Checklist:
    """No server or built-in offers it: the nearest names, else where servers are defined."""
    close = did_you_mean(tool, names, normalize=str.lower)
    read = "; ".join(la.shown for la in subject.layers.layers) or "no config file"
    step = ChecklistStep(f"Is {tool} a tool of any server or built-in OpenCode offers?", "no", False, (read,))
    fix = (
        f"did you mean {close[0]}?"
        if close
        else 'define its server under "mcp" in opencode.json ({"type": "local", "command": [...]})'
    )
    return Checklist(tool, mode, None, (step,), fix, close)


def _step(ids: tuple[S, ...], question: str, verdict: ToolVerdict, mode: str) -> ChecklistStep:
    stages = [s for s in verdict.stages if s.name in ids]
    passed, answer = group_answer(stages)
    evidence = tuple(s.rule for s in stages) or ("not reached",)
    return ChecklistStep(question.format(namespace=verdict.namespace, mode=mode), answer, passed, evidence)


def opencode_checklist(subject: OpenCodeSubject, tool: str, mode: str) -> Checklist:
    """The questions for one tool name (``server_tool``, or ``server_*`` for a server that listed nothing)."""
    tools = subject.evaluate(mode).tools
    exact = [t for t in tools if t.name == tool]
    matches = exact or [t for t in tools if t.name.endswith("_*") and tool.startswith(t.name[:-1])]
    if not matches:
        return _unknown_tool(subject, tool, mode, [t.name for t in tools])
    verdict = matches[0]
    steps = [_step(ids, question, verdict, mode) for ids, question in _GROUPS]
    test = check_command(subject, tool, mode)
    steps.append(ChecklistStep("Will a test catch it if it disappears again?", "add one", None, (test,)))
    return Checklist(tool, mode, verdict, tuple(steps), fix_for(subject, verdict))


def check_command(subject: OpenCodeSubject, tool: str, mode: str) -> str:
    """``toolscope check`` on the same folder and agent."""
    parts = ["toolscope", "check", f"opencode:{typed_path(subject.project)}"]
    if mode != "build":
        parts += ["--client-args", f"--agent {mode}"]
    if subject.discover:
        parts.append(DISCOVER_FLAG)
    return shlex.join([*parts, "--expect", f"visible:{tool}"])


def fix_for(subject: OpenCodeSubject, verdict: ToolVerdict) -> str | None:
    """The concrete change for the first failing stage."""
    failing = verdict.first_failing
    if failing is None:
        return None
    name, server, where = verdict.name, verdict.namespace, failing.source or "the config"
    agent = verdict.stages and subject.agent
    fixes = {
        "config.invalid": f'fix {where}: give every mcp entry "type": "local" with "command": [program, args…] (or "remote" with "url"); OpenCode refuses the whole config, so no tool reaches the model',
        "enabled.false": f'remove "enabled": false from mcp.{server} ({where}), or set it true in a later layer',
        "connection.timeout": f'raise mcp.{server}.timeout (ms) above the server\'s start-up time, e.g. "timeout": 60000, or make the server start faster',
        "mcp.outage": f"make mcp.{server} start: run its command by hand (`opencode mcp list` shows the error)",
        NOT_STARTED_CODE: not_started_fix(server),
        "naming.collision": f"rename one of the tools or servers: two tools sanitise to {name}",
        "permission.removed": f'add {json.dumps(name)}: "allow" AFTER {failing.entry} in agent {agent}\'s permission (the last matching rule wins), or remove {failing.entry} from {where}',
        "callable.ask": f'set {json.dumps(name)}: "allow" in permission (opencode run auto-rejects ask), or run with --auto',
        "callable.deny": f'remove {failing.entry} ({where}), or add {json.dumps(name)}: "allow" after it; to hide the tool instead use {json.dumps(name)}: "deny" (pattern *) as the last matching rule',
    }
    if (
        failing.code == "permission.removed"
        and name in ("edit", "write", "apply_patch")
        and '"tools"' in (failing.entry or "")
    ):
        return (
            f'edit, write and apply_patch share the "edit" permission, so a "write": false (or "edit": false) in a tools map '
            f'removes all three: remove it from {where}; to keep changes reviewable use "permission": {{"edit": "ask"}}, '
            'or deny by path ("edit": {"*": "allow", "secrets/*": "deny"})'
        )
    return fixes.get(failing.code, failing.rule)
