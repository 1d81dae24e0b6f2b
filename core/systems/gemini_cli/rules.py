"""Every policy rule of a session, from settings, flags, TOML files and the mode, highest first.

Public API::

    collect_rules(files, servers, args, mode) -> (rules, policy_files)
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from .args import GeminiArgs
from .files import GeminiFiles
from .policy import (
    ALLOW,
    ASK,
    DENY,
    NOT_PLAN,
    PolicyFile,
    Rule,
    mode_rules,
    read_policy_file,
    read_policy_folder,
    server_pattern,
)
from .servers import ServerEntry


def _list_rules(
    files: GeminiFiles, key: str, priority: float, decision: str, label: str, modes: tuple[str, ...] | None = None
) -> list[Rule]:
    value, file = files.settings.last(key)
    if not isinstance(value, list) or file is None:
        return []
    return [
        Rule(priority, decision, str(v), file.at(key, i), modes, label=label)
        for i, v in enumerate(value[:1000])
        if isinstance(v, str)
    ]


def _core_rules(files: GeminiFiles) -> list[Rule]:
    value, file = files.settings.last("tools.core")
    if not isinstance(value, list) or file is None:
        return []
    out = _list_rules(files, "tools.core", 4.25, ALLOW, "a tools.core entry", NOT_PLAN)
    out.append(
        Rule(
            4.24,
            DENY,
            "*",
            file.at("tools.core"),
            NOT_PLAN,
            label="tools.core's wildcard deny (every tool it does not name)",
        )
    )
    return out


def _trust_rules(servers: Mapping[str, ServerEntry]) -> list[Rule]:
    """``trust: true`` of a settings server (an extension's is stripped)."""
    return [
        Rule(4.2, ALLOW, server_pattern(name), entry.at("trust"), NOT_PLAN, label=f'"{name}": trust: true')
        for name, entry in servers.items()
        if entry.extension is None and entry.entry.get("trust") is True
    ]


def _allowed_rules(files: GeminiFiles, args: GeminiArgs) -> list[Rule]:
    """``mcp.allowed`` (the highest file's list) or ``--allowed-mcp-server-names``."""
    if args.allowed_servers is not None:
        allowed, source = list(args.allowed_servers), "--allowed-mcp-server-names"
    else:
        value, file = files.settings.last("mcp.allowed")
        allowed, source = (value, file.at("mcp.allowed")) if isinstance(value, list) and file else ([], "")
    return [Rule(4.1, ALLOW, server_pattern(str(s)), source, NOT_PLAN, label=f'mcp.allowed "{s}"') for s in allowed]


def _auto_allow_rules(servers: Mapping[str, ServerEntry], files: GeminiFiles) -> list[Rule]:
    """``mcp.autoAllowInHeadless: true`` (not in the schema, observed to work): every settings server."""
    value, file = files.settings.last("mcp.autoAllowInHeadless")
    if value is not True or file is None:
        return []
    where = file.at("mcp.autoAllowInHeadless")
    names = [n for n, e in servers.items() if e.extension is None]
    return [Rule(4.1, ALLOW, server_pattern(n), where, NOT_PLAN, label="mcp.autoAllowInHeadless") for n in names]


def _server_rules(servers: Mapping[str, ServerEntry], files: GeminiFiles, args: GeminiArgs) -> list[Rule]:
    out = [*_trust_rules(servers), *_allowed_rules(files, args), *_auto_allow_rules(servers, files)]
    # Observed: --allowed-mcp-server-names lets an excluded server start, but the 4.9 DENY still removes its tools.
    excluded = files.settings.union("mcp.excluded")
    out += [Rule(4.9, DENY, server_pattern(s), where, label=f'mcp.excluded "{s}"') for s, where in excluded]
    return out


def _policy_files(files: GeminiFiles, args: GeminiArgs, system_dir: Path) -> list[PolicyFile]:
    admin = read_policy_folder(system_dir / "policies", f"{system_dir}/policies", 5)
    if args.policy:
        user = [read_policy_file(Path(p).expanduser(), p, 4) for p in args.policy if Path(p).expanduser().is_file()]
    else:
        paths, file = files.settings.last("policyPaths")
        if isinstance(paths, list) and file is not None:
            user = [
                read_policy_file(Path(str(p)).expanduser(), str(p), 4)
                for p in paths
                if Path(str(p)).expanduser().is_file()
            ]
        else:
            user = read_policy_folder(files.home / ".gemini" / "policies", "~/.gemini/policies", 4)
    extension = []
    for ext in files.extensions:
        if ext.active:
            folder = ext.path.parent / "policies"
            extension += read_policy_folder(
                folder, f"~/.gemini/extensions/{ext.path.parent.name}/policies", 2, (DENY, ASK)
            )
    return [*admin, *user, *extension]


def collect_rules(
    files: GeminiFiles, servers: Mapping[str, ServerEntry], args: GeminiArgs, mode: str, system_dir: Path
) -> tuple[list[Rule], list[PolicyFile]]:
    """Every rule that applies in ``mode``, highest priority first (stable: earlier sources first)."""
    rules: list[Rule] = []
    rules += _server_rules(servers, files, args)
    rules += [
        Rule(4.4, DENY, item, where, label="tools.exclude") for item, where in files.settings.union("tools.exclude")
    ]
    rules += _list_rules(files, "tools.confirmationRequired", 4.35, ASK, "tools.confirmationRequired")
    rules += _list_rules(files, "tools.allowed", 4.3, ALLOW, "tools.allowed")
    rules += [Rule(4.3, ALLOW, t, "--allowed-tools", label="--allowed-tools") for t in args.allowed_tools]
    rules += _core_rules(files)
    policy_files = _policy_files(files, args, system_dir)
    rules += [r for f in policy_files for r in f.rules]
    rules += mode_rules(mode)
    rules.sort(key=lambda r: -r.priority)
    return rules, policy_files
