"""The ``explain`` checklist for one Codex tool, and the one change that fixes it.

1. Does Codex start its server? (layer, requirements, enabled, connection)  2. Do
``enabled_tools`` / ``disabled_tools`` keep it, and under which name?  3. Does the model get it,
and would a call run under the approval policy?  4. Will a test catch it next time? The fix is
written in Codex's own keys: raw server and tool names, never ``mcp__…`` names.
"""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...model.opt_in import DISCOVER_FLAG, NOT_STARTED_CODE, not_started_fix
from ...model.presentation import group_answer
from ...model.verdicts import Checklist, ChecklistStep, ToolVerdict
from ...text.suggest import did_you_mean
from ..coding_cli.common import typed_path
from .findings import trust_fix
from .ids import CodexStage
from .tools import value

if TYPE_CHECKING:
    from .subject import CodexSubject

_GROUPS = (
    (
        (CodexStage.LAYER, CodexStage.REQUIREMENTS, CodexStage.ENABLED, CodexStage.CONNECTION),
        "Does Codex start the server of {namespace}?",
    ),
    ((CodexStage.TOOL_FILTER, CodexStage.NAMING), "Do enabled_tools / disabled_tools keep it, and under which name?"),
    (
        (CodexStage.IN_CONTEXT, CodexStage.APPROVAL_POLICY),
        "Does the model get it (in full or deferred), and would a call run under approval policy {mode}?",
    ),
)


def codex_checklist(subject: CodexSubject, tool: str, mode: str) -> Checklist:
    """The four questions for one tool (``namespace:function`` or ``mcp__server__function``)."""
    tools = subject.evaluate(mode).tools
    matches = [t for t in tools if tool in (f"{t.namespace}:{t.name}", f"{t.namespace}__{t.name}", t.name)]
    if not matches:  # a server that never listed its tools: its one row (namespace:*) explains them all
        matches = [t for t in tools if t.name == "*" and tool.startswith((f"{t.namespace}:", f"{t.namespace}__"))]
    if not matches:
        return _unknown_tool(subject, tool, mode, tools)
    verdict = max(matches, key=lambda v: len(v.stages))
    steps = []
    for ids, question in _GROUPS:
        stages = [s for s in verdict.stages if s.name in ids]
        passed, word = group_answer(stages)
        steps.append(
            ChecklistStep(
                question.format(namespace=verdict.namespace, mode=mode),
                word,
                passed,
                tuple(s.rule for s in stages) or ("not reached",),
            )
        )
    named = tool if verdict.name == "*" else f"{verdict.namespace}:{verdict.name}"
    steps.append(
        ChecklistStep("Will a test catch it if it disappears again?", "add one", None, (check_command(subject, named),))
    )
    return Checklist(tool, mode, verdict, tuple(steps), fix_for(subject, verdict))


def _unknown_tool(subject: CodexSubject, tool: str, mode: str, tools: Sequence[ToolVerdict]) -> Checklist:
    """No server lists it: the nearest names, else where servers are defined."""
    close = did_you_mean(tool, [f"{t.namespace}__{t.name}" for t in tools], normalize=str.lower)
    step = ChecklistStep(f"Is {tool} a tool of any server Codex would start?", "no", False, (subject.where,))
    fix = f"did you mean {close[0]}?" if close else "define its server under [mcp_servers] in $CODEX_HOME/config.toml"
    return Checklist(tool, mode, None, (step,), fix, close)


def check_command(subject: CodexSubject, tool: str) -> str:
    """``toolscope check`` on the same files (non-default folders and ``-c`` overrides kept)."""
    parts = ["toolscope", "check", f"codex:{typed_path(subject.project)}"]
    if subject.codex_home != subject.default_home:
        parts += ["--codex-home", typed_path(subject.codex_home)]
    if subject.system_dir != Path("/etc/codex"):
        parts += ["--codex-system-dir", typed_path(subject.system_dir)]
    for override in subject.overrides:
        parts += ["-c", override]
    if subject.profile:
        parts += ["--client-args", f"--profile {subject.profile}"]
    if subject.discover:
        parts.append(DISCOVER_FLAG)
    return shlex.join([*parts, "--expect", f"visible:{tool}"])


def fix_for(subject: CodexSubject, verdict: ToolVerdict) -> str | None:
    """The concrete change for the first failing stage, in Codex's own keys (raw server and tool names)."""
    server, raw = subject.raw_names.get((verdict.namespace, verdict.name), (verdict.namespace, verdict.name))
    command = value(subject.merged.servers.get(server, {}), "command")[0]
    failing = verdict.first_failing
    if failing is not None and failing.code == "context.run_ends" and subject.run_ends:
        return subject.run_ends[0].fix
    if failing is not None and failing.code == "context.slow_server":
        return next((v.fix() for v in subject.slow if v.server == server), failing.rule)
    return _fix(verdict, server, raw, trust_fix(subject), command)


def _key(name: str) -> str:
    """A TOML key as written in a table header (quoted unless bare)."""
    return name if re.fullmatch(r"[A-Za-z0-9_-]+", name) else json.dumps(name, ensure_ascii=False)


def _fix(verdict: ToolVerdict, server: str, raw: str, trust: str, command: Any) -> str | None:
    failing = verdict.first_failing
    if failing is None:
        return None
    table = f"mcp_servers.{_key(server)}"
    identity = f" command = {json.dumps(command)}" if isinstance(command, str) else ' command = "…"'
    fixes = {
        "layer.untrusted": f"trust the project: {trust}; or move [{table}] from {failing.source} to $CODEX_HOME/config.toml",
        "requirements.not_listed": f"add [{table}.identity]{identity} to {failing.source} (the organisation's allowlist)",
        "requirements.mismatch": f"make [{table}]'s command/url match {failing.source} exactly",
        "enabled.false": f"set enabled = true in [{table}] ({failing.source})",
        "filter.not_enabled": f'add the raw tool name "{raw}" to enabled_tools ({failing.source}): Codex matches the '
        "server's own names, not mcp__… names",
        "filter.disabled": f'remove "{raw}" from disabled_tools ({failing.source})',
        "approval.refused": f'add [{table}.tools.{_key(raw)}] approval_mode = "approve" (or default_tools_approval_mode = '
        f'"approve" in [{table}]) to $CODEX_HOME/config.toml, or run with another approval policy',
        NOT_STARTED_CODE: not_started_fix(server),
        "connection.bad_name": f"rename the server {json.dumps(server)} to match ^[a-zA-Z0-9_:@/.-]+$ (no spaces)",
    }
    return fixes.get(failing.code, failing.rule)
