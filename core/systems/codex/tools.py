"""Codex stages per server and tool (reference §2, observed with 0.171.0; tests/clis).

Server: layer (and project trust), requirements (``/etc/codex/requirements.toml`` identity
allowlist), ``enabled``, startup. Tool: ``enabled_tools`` then ``disabled_tools`` on the
server's RAW names (disabled wins; names that match nothing are ignored silently, so only
wrong names hide the whole server), naming (namespace ``mcp__<server>`` with ``-``/``.``/``/``/``@``/``:`` → ``_``,
the function name sanitised), deferral by model (catalog models with ``supports_search_tool``
get namespaces deferred behind tool_search), approval under the policy.
"""

from __future__ import annotations

import json
import re
from importlib import resources
from typing import Any

from ...model.verdicts import Stage
from ..coding_cli.common import quoted, stage
from .ids import CodexStage
from .layers import Merged

SERVER_NAME = re.compile(r"^[a-zA-Z0-9_:@/.-]+$")
_NOT_FUNCTION = re.compile(r"[^A-Za-z0-9_]")


def catalog() -> dict[str, bool]:
    """Bundled model slug → supports_search_tool (recorded with ``codex debug models``, 0.171.0)."""
    text = resources.files(__package__).joinpath("catalog.json").read_text(encoding="utf-8")
    return dict(json.loads(text)["models"])


def value(server: dict[str, tuple[Any, str]], key: str) -> tuple[Any, str | None]:
    """A merged server key's value and the place that set it."""
    found = server.get(key)
    return (found[0], found[1]) if found else (None, None)


def namespace_of(name: str, prefixed: bool = True) -> str:
    """The model-facing namespace of a server: every character outside A-Za-z0-9_ (``-``, ``.``, ``/``, ``@``,
    ``:``) becomes ``_`` (observed with 0.171.0: ``a/b``, ``a@b``, ``a:b`` all → ``mcp__a_b``)."""
    base = _NOT_FUNCTION.sub("_", name)
    return f"mcp__{base}" if prefixed else base


def function_of(tool: str) -> str:
    """The model-facing function name of a tool (every char outside A-Za-z0-9_ → _)."""
    return _NOT_FUNCTION.sub("_", tool)


def server_stages(name: str, merged: Merged, requirements: dict[str, Any] | None, req_shown: str) -> list[Stage]:
    """Stages 1-3 of one server (4, startup, comes from the listing)."""
    server = merged.servers.get(name)
    if server is None:
        where = merged.ignored_servers.get(name, "")
        return [stage(CodexStage.LAYER, False, "layer.untrusted", f"defined only in {where}, which Codex ignores: the project is not trusted "
                      "(stderr: \"Untrusted project-local configuration is disabled\")", name, where)]  # fmt: skip
    first = next(iter(server.values()))[1].split(": ")[0]
    out = [stage(CodexStage.LAYER, True, "layer.read", f"defined in {first}: mcp_servers.{name}", name, first)]
    listed = (requirements or {}).get("mcp_servers") if requirements else None
    if isinstance(listed, dict) and listed:
        identity = (listed.get(name) or {}).get("identity") if isinstance(listed.get(name), dict) else None
        if identity is None:
            out.append(
                stage(
                    CodexStage.REQUIREMENTS,
                    False,
                    "requirements.not_listed",
                    f'{req_shown} lists only {quoted(listed)}: "disabled: requirements"',
                    name,
                    req_shown,
                )
            )
            return out
        for key in ("command", "url"):
            if key in identity and identity[key] != value(server, key)[0]:
                out.append(
                    stage(
                        CodexStage.REQUIREMENTS,
                        False,
                        "requirements.mismatch",
                        f"{req_shown}: mcp_servers.{name}.identity.{key} is {identity[key]!r}, the server's is {value(server, key)[0]!r}",
                        name,
                        req_shown,
                    )
                )
                return out
        out.append(
            stage(
                CodexStage.REQUIREMENTS,
                True,
                "requirements.listed",
                f"admitted by {req_shown}: mcp_servers.{name}.identity",
                name,
                req_shown,
            )
        )
    else:
        out.append(stage(CodexStage.REQUIREMENTS, True, "requirements.none", "no requirements.toml allowlist"))
    enabled, set_at = value(server, "enabled")
    if enabled is False:
        out.append(
            stage(
                CodexStage.ENABLED,
                False,
                "enabled.false",
                f"enabled = false ({set_at}): not started",
                "enabled = false",
                set_at,
            )
        )
    else:
        out.append(
            stage(
                CodexStage.ENABLED, True, "enabled.true", f"enabled ({set_at})" if set_at else "enabled (the default)"
            )
        )
    return out


def filter_stage(tool: str, server: dict[str, tuple[Any, str]], tools: tuple[str, ...]) -> Stage:
    """enabled_tools then disabled_tools, on raw names; disabled wins."""
    enabled, e_where = value(server, "enabled_tools")
    disabled, d_where = value(server, "disabled_tools")
    if isinstance(disabled, list) and tool in disabled:
        return stage(
            CodexStage.TOOL_FILTER,
            False,
            "filter.disabled",
            f'"{tool}" is in disabled_tools ({d_where}; disabled wins over enabled_tools)',
            tool,
            d_where,
        )
    if isinstance(enabled, list) and tool not in enabled:
        matching = [t for t in enabled if t in tools]
        whole = (
            "" if matching else ": none of its names is a raw tool name of the server, so the whole server is hidden"
        )
        return stage(
            CodexStage.TOOL_FILTER,
            False,
            "filter.not_enabled",
            f'enabled_tools = {quoted(enabled)} ({e_where}) leaves "{tool}" out{whole} (raw names, not mcp__… names)',
            quoted(enabled),
            e_where,
        )
    return stage(
        CodexStage.TOOL_FILTER,
        True,
        "filter.kept",
        "no enabled_tools / disabled_tools"
        if enabled is None and disabled is None
        else "kept by enabled_tools / disabled_tools",
    )


def hashed(name: str, raw: str) -> str:
    """A colliding model-facing name: Codex appends ``_<12 hex>`` (written ``<hash RAW>``, unpredictable here)."""
    return f"{name}_<hash {raw}>"


def naming_stage(server_name: str, tool: str, collides: str | None, prefixed: bool) -> Stage:
    """The namespace and function the model sees (``collides``: "namespace" or "function", which one clashes).

    Every colliding name gets a ``_<12 hex>`` suffix (observed with 0.171.0): the namespace when
    two servers sanitise alike, the function when two tools of one server do. The tool is still
    offered; the entry carries the name with a ``<hash …>`` placeholder the capture comparison matches.
    """
    namespace, function = namespace_of(server_name, prefixed), function_of(tool)
    if collides:
        seen = (
            f"{hashed(namespace, server_name)}:{function}"
            if collides == "namespace"
            else f"{namespace}:{hashed(function, tool)}"
        )
        return stage(
            CodexStage.NAMING,
            True,
            "naming.collision",
            f"{namespace}:{function} collides with another {'server' if collides == 'namespace' else 'tool'}'s name: "
            f"Codex renames ALL of them with a _<12 hex> suffix, so the model sees {seen} (the hash is not predictable "
            "here); a filter or approval key still takes the raw name",
            seen,
        )
    return stage(
        CodexStage.NAMING,
        True,
        "naming.ok",
        f'server "{server_name}", tool "{tool}" → namespace {namespace}, function {function}; a call needs both',
        f"{namespace}:{function}",
    )


def context_stage(model: str, model_source: str, run_end: str = "", late: str = "") -> Stage:
    """Deferred behind tool_search for catalog models with supports_search_tool; else in full; never when the run
    ends, nor when the server is slower than Codex's start-up grace (``late``: the sentence saying so)."""
    if run_end:
        return stage(CodexStage.IN_CONTEXT, False, "context.run_ends", f"{run_end}: no model request is sent")
    if late:
        return stage(CodexStage.IN_CONTEXT, False, "context.slow_server", late)
    if catalog().get(model):
        return stage(
            CodexStage.IN_CONTEXT,
            True,
            "context.deferred",
            f'model {model} ({model_source}) is a catalog model with supports_search_tool: MCP namespaces are deferred behind tool_search; the model sees only "Deferred tool namespaces: - <namespace>"',
        )
    return stage(
        CodexStage.IN_CONTEXT,
        True,
        "context.full",
        f"model {model} ({model_source}) is not a catalog search-tool model: the namespace is in the request's tools in full",
    )


def approval_stage(
    tool: str, server: dict[str, tuple[Any, str]], hints: tuple[str, ...], policy: str, policy_source: str
) -> Stage:
    """Would a call run under the approval policy (exec: never)?"""
    tools_table, t_where = value(server, "tools")
    mode = None
    where: str | None = None
    if isinstance(tools_table, dict) and isinstance(tools_table.get(tool), dict):
        mode = tools_table[tool].get("approval_mode")
        where = f"{t_where}.{tool}.approval_mode"
    if mode is None:
        mode, where = value(server, "default_tools_approval_mode")
    if mode == "approve":
        return stage(
            CodexStage.APPROVAL_POLICY,
            True,
            "approval.approve",
            f'approval_mode = "approve" ({where}): runs without asking',
            "approve",
            where,
        )
    if mode in (None, "auto") and "readOnlyHint" in hints:
        return stage(
            CodexStage.APPROVAL_POLICY, True, "approval.read_only", "the tool sets readOnlyHint: runs without asking"
        )
    if policy == "never":
        return stage(
            CodexStage.APPROVAL_POLICY,
            False,
            "approval.refused",
            f'needs approval and the policy is never ({policy_source}): "MCP tool call requires approval, but approval policy is never"',
            policy,
            policy_source,
        )
    return stage(
        CodexStage.APPROVAL_POLICY,
        True,
        "approval.prompt",
        f"approval policy {policy} ({policy_source}): asks at each call",
    )
