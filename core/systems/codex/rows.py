"""The verdict rows under one approval policy: each server's stages up to its connection, then
one row per listed tool (filter, naming, deferral by model, approval), or one ``*`` row for a
server whose tools are never reached."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from ...mcp.results import ServerResult
from ...model.enums import ToolKind
from ...model.opt_in import NOT_STARTED_CODE
from ...model.verdicts import Stage, ToolVerdict
from ..coding_cli.common import stage
from .ids import CodexStage
from .layers import Layer, Merged
from .tools import (
    SERVER_NAME,
    approval_stage,
    context_stage,
    filter_stage,
    function_of,
    namespace_of,
    naming_stage,
    server_stages,
)

RawNames = dict[tuple[str, str], tuple[str, str]]
"""(namespace, function) → (server, raw tool name): the names Codex's keys take."""


@dataclass(frozen=True)
class Policy:
    """What every tool's last stages read: the approval policy, the model, and the naming switch."""

    mode: str
    source: str
    model: str
    model_source: str
    prefixed: bool
    run_end: str = ""
    """Why codex exec ends before any request (``fatal.py``), else empty."""
    late: Mapping[str, str] = field(default_factory=dict)
    """Servers slower than Codex's start-up grace → the sentence saying so."""


def connection_stage(name: str, result: ServerResult | None, where: str) -> Stage:
    """Does Codex start the server and get its listing: a bad name fails silently at startup."""
    if not SERVER_NAME.match(name):
        how = (
            "dropped silently (no message at all)"
            if not name.isascii()
            else "fails at startup (stderr: must match pattern)"
        )
        return stage(
            CodexStage.CONNECTION,
            False,
            "connection.bad_name",
            f"server name {name!r} must match ^[a-zA-Z0-9_:@/.-]+$: {how}",
            name,
        )
    if result is None:
        return stage(CodexStage.CONNECTION, None, "connection.not_listed", f"no listing of this server ({where})")
    if not result.started:
        return stage(CodexStage.CONNECTION, None, NOT_STARTED_CODE, f"unknown, {result.error}", name)
    if not result.ok:
        return stage(
            CodexStage.CONNECTION,
            None,
            "mcp.outage",
            f"startup failed: {result.error} (codex exec still exits 0; only a stderr WARN with RUST_LOG=warn says so)",
            name,
        )
    return stage(CodexStage.CONNECTION, True, "connection.ok", f"started: lists {len(result.tools)} tools ({where})")


def collides(name: str, tool: str, listed: list[tuple[str, ServerResult]], prefixed: bool) -> str | None:
    """Which of the tool's names clashes with another's after sanitising: "namespace", "function" or None."""
    namespace = namespace_of(name, prefixed)
    if any(n != name and namespace_of(n, prefixed) == namespace for n, _ in listed):
        return "namespace"
    same = [t for n, r in listed if n == name for t in r.tools if t != tool and function_of(t) == function_of(tool)]
    return "function" if same else None


ServerStages = list[tuple[str, list[Stage], ServerResult | None]]


def decide_servers(
    names: list[str], merged: Merged, requirements: Layer | None, results: dict[str, ServerResult], where: str
) -> tuple[ServerStages, list[tuple[str, ServerResult]]]:
    """Each server's stages (with its connection once the others pass), and the servers that listed tools."""
    listed: list[tuple[str, ServerResult]] = []
    decided: ServerStages = []
    required, required_shown = (requirements.data, requirements.shown) if requirements else (None, "")
    for name in names:
        stages = server_stages(name, merged, required, required_shown)
        result = results.get(name)
        if all(s.passed for s in stages):
            stages.append(connection_stage(name, result, where))
            if stages[-1].passed and result is not None:
                listed.append((name, result))
        decided.append((name, stages, result))
    return decided, listed


def tool_rows(
    merged: Merged,
    policy: Policy,
    results: dict[str, ServerResult],
    where: str,
    requirements: Layer | None,
    raw_names: RawNames,
) -> list[ToolVerdict]:
    """Every row under ``policy``; ``raw_names`` is filled with each row's server and raw tool name."""
    names = list(dict.fromkeys([*merged.servers, *merged.ignored_servers]))
    decided, listed = decide_servers(names, merged, requirements, results, where)
    prefixed = policy.prefixed
    rows: list[ToolVerdict] = []
    # Tools after every server: a collision with a server listed later counts too.
    for name, stages, result in decided:
        namespace = namespace_of(name, prefixed)
        if not (result and result.ok and result.tools) or not all(s.passed for s in stages):
            raw_names[(namespace, "*")] = (name, "*")
            rows.append(ToolVerdict("*", namespace, ToolKind.MCP, tuple(stages)))
            continue
        server = merged.servers[name]
        for tool in result.tools:
            raw_names[(namespace, function_of(tool))] = (name, tool)
            row = [*stages, filter_stage(tool, server, result.tools)]
            if row[-1].passed:
                row.append(naming_stage(name, tool, collides(name, tool, listed, prefixed), prefixed))
            if row[-1].passed:
                row.append(context_stage(policy.model, policy.model_source, policy.run_end, policy.late.get(name, "")))
                row.append(approval_stage(tool, server, result.hints.get(tool, ()), policy.mode, policy.source))
            rows.append(
                ToolVerdict(function_of(tool), namespace, ToolKind.MCP, tuple(row), result.descriptions.get(tool, ""))
            )
    return rows
