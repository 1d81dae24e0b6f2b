"""The Gemini CLI capture matrix: configurations built like users' setups (reference §2-§4).

``files`` are written under a fresh root (``home/`` is HOME, ``proj/`` the cwd; ``$D``, ``$PY``,
``$RAW`` substituted as in the Claude/Codex matrices); the user settings always get the offline
keys (``OFFLINE``) and, unless ``trusted`` is False, ``proj`` is trusted in
``~/.gemini/trustedFolders.json``. ``args`` follow ``gemini``; ``-p hi -m m1`` is prepended
(a fixed model: no router request). Used by ``test_gemini_real.py`` and the experiments.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

OFFLINE = {
    "security": {"auth": {"selectedType": "gemini-api-key"}},
    "privacy": {"usageStatisticsEnabled": False},
    "general": {"enableAutoUpdate": False, "enableAutoUpdateNotification": False},
}
"""What keeps 0.61.0 offline against a local endpoint (no DNS lookup, no update check)."""
USER = "home/.gemini/settings.json"
WS = "proj/.gemini/settings.json"
POL = "home/.gemini/policies/p.toml"


def srv(*tools: str, **extra: Any) -> dict[str, Any]:
    """A stdio server entry running rawmcp.py with these tools."""
    return {"command": "$PY", "args": ["$RAW", *tools], **extra}


def servers(**named: dict[str, Any]) -> dict[str, Any]:
    return {"mcpServers": named}


def rule(decision: str, priority: int, tool: str = "", mcp: str = "", extra: str = "") -> str:
    out = "[[rule]]\n"
    out += f'toolName = "{tool}"\n' if tool else ""
    out += f'mcpName = "{mcp}"\n' if mcp else ""
    return out + f'decision = "{decision}"\npriority = {priority}\n{extra}\n'


def ext(name: str, **data: Any) -> tuple[str, dict[str, Any]]:
    return f"home/.gemini/extensions/{name}/gemini-extension.json", {"name": name, "version": "1.0.0", **data}


@dataclass(frozen=True)
class GeminiCase:
    id: str
    files: dict[str, Any]
    args: tuple[str, ...] = ()
    trusted: bool = True
    env: dict[str, str] = field(default_factory=dict)
    exit_code: int = 0
    """55: an untrusted folder, no request at all."""
    call: str | None = None
    """A tool the scripted model calls in its first reply (the next request carries the CLI's answer)."""


T = True
CASES: tuple[GeminiCase, ...] = (
    GeminiCase("trusted_server_sent", {USER: servers(t=srv("x", "y", trust=T), u=srv("z"))}),
    GeminiCase("headless_default_sends_nothing", {USER: servers(s=srv("x"), u=srv("y"))}),
    GeminiCase("yolo_sends_all", {USER: servers(s=srv("x"), u=srv("y"))}, ("--approval-mode", "yolo")),
    GeminiCase("yolo_short_flag", {USER: servers(s=srv("x"))}, ("-y",)),
    GeminiCase("auto_edit_sends_nothing", {USER: servers(s=srv("x"))}, ("--approval-mode", "auto_edit")),
    GeminiCase("plan_ignores_trust", {USER: servers(t=srv("x", trust=T))}, ("--approval-mode", "plan")),
    GeminiCase(
        "plan_tools_allowed_applies",
        {USER: {**servers(t=srv("x")), "tools": {"allowed": ["mcp_t_*"]}}},
        ("--approval-mode", "plan"),
    ),
    GeminiCase("tools_core_empty_hides_mcp", {USER: {**servers(t=srv("x", trust=T)), "tools": {"core": []}}}),
    GeminiCase(
        "tools_core_server_wildcard",
        {USER: {**servers(t=srv("x", trust=T), u=srv("y", trust=T)), "tools": {"core": ["read_file", "mcp_t_*"]}}},
    ),
    GeminiCase("tools_core_beats_yolo", {USER: {**servers(t=srv("x")), "tools": {"core": ["glob"]}}}, ("--yolo",)),
    GeminiCase(
        "tools_core_in_workspace_beats_user_trust",
        {USER: servers(t=srv("x", trust=T)), WS: {"tools": {"core": ["read_file"]}}},
    ),
    GeminiCase("mcp_allowed_allows", {USER: {**servers(a=srv("x"), b=srv("y")), "mcp": {"allowed": ["a"]}}}),
    GeminiCase(
        "mcp_allowed_intersection",
        {
            USER: {**servers(a=srv("x"), b=srv("y"), c=srv("z")), "mcp": {"allowed": ["a", "b"]}},
            WS: {"mcp": {"allowed": ["b", "c"]}},
        },
    ),
    GeminiCase("mcp_allowed_star_starts_nothing", {USER: {**servers(a=srv("x", trust=T)), "mcp": {"allowed": ["*"]}}}),
    GeminiCase("mcp_allowed_exact_case", {USER: {**servers(github=srv("x", trust=T)), "mcp": {"allowed": ["GitHub"]}}}),
    GeminiCase(
        "mcp_excluded_beats_trust",
        {USER: {**servers(a=srv("x", trust=T), b=srv("y", trust=T)), "mcp": {"excluded": ["a"]}}},
    ),
    GeminiCase(
        "mcp_excluded_union",
        {
            USER: {
                **servers(a=srv("x", trust=T), b=srv("y", trust=T), c=srv("z", trust=T)),
                "mcp": {"excluded": ["a"]},
            },
            WS: {"mcp": {"excluded": ["b"]}},
        },
    ),
    GeminiCase(
        "allowed_server_names_flag_replaces_allowed",
        {USER: {**servers(a=srv("x", trust=T), b=srv("y", trust=T)), "mcp": {"allowed": ["b"]}}},
        ("--allowed-mcp-server-names", "a"),
    ),
    GeminiCase(
        "allowed_server_names_flag_keeps_excluded_deny",
        {USER: {**servers(a=srv("x", trust=T), b=srv("y", trust=T)), "mcp": {"excluded": ["a"], "allowed": ["b"]}}},
        ("--allowed-mcp-server-names", "a"),
    ),
    GeminiCase("include_tools", {USER: servers(t=srv("x", "y", "z", trust=T, includeTools=["x", "z"]))}),
    GeminiCase(
        "exclude_beats_include", {USER: servers(t=srv("x", "y", trust=T, includeTools=["x", "y"], excludeTools=["x"]))}
    ),
    GeminiCase("include_tools_empty", {USER: servers(t=srv("x", trust=T, includeTools=[]), u=srv("y", trust=T))}),
    GeminiCase("include_tools_sent_name_typo", {USER: servers(t=srv("x", "y", trust=T, includeTools=["mcp_t_x"]))}),
    GeminiCase(
        "tools_exclude_sent_name", {USER: {**servers(t=srv("x", "y", trust=T)), "tools": {"exclude": ["mcp_t_x"]}}}
    ),
    GeminiCase(
        "tools_exclude_bare_name_every_server",
        {USER: {**servers(a=srv("x", "y", trust=T), b=srv("x", "z", trust=T)), "tools": {"exclude": ["x"]}}},
    ),
    GeminiCase(
        "tools_exclude_union_scopes",
        {
            USER: {**servers(t=srv("x", "y", "z", trust=T)), "tools": {"exclude": ["mcp_t_x"]}},
            WS: {"tools": {"exclude": ["mcp_t_y"]}},
        },
    ),
    GeminiCase(
        "tools_exclude_beats_toml_allow_999",
        {
            USER: {**servers(t=srv("x", "y")), "tools": {"exclude": ["mcp_t_x"]}},
            POL: rule("allow", 999, mcp="t", tool="*"),
        },
    ),
    GeminiCase("tools_allowed_sent_name", {USER: {**servers(t=srv("x", "y")), "tools": {"allowed": ["mcp_t_x"]}}}),
    GeminiCase("tools_allowed_bare_name_no_effect", {USER: {**servers(t=srv("x")), "tools": {"allowed": ["x"]}}}),
    GeminiCase("tools_allowed_claude_style_no_effect", {USER: {**servers(t=srv("x")), "tools": {"allowed": ["t__x"]}}}),
    GeminiCase(
        "toml_allow_mcp_name", {USER: servers(t=srv("x", "y"), u=srv("z")), POL: rule("allow", 100, mcp="t", tool="*")}
    ),
    GeminiCase(
        "toml_deny_100_loses_to_trust",
        {USER: servers(t=srv("x", "y", trust=T)), POL: rule("deny", 100, tool="mcp_t_x")},
    ),
    GeminiCase(
        "toml_deny_201_beats_trust",
        {USER: servers(t=srv("x", "y", trust=T)), POL: rule("deny", 201, mcp="t", tool="x")},
    ),
    GeminiCase(
        "toml_deny_vs_tools_allowed",
        {
            USER: {**servers(t=srv("x", "y")), "tools": {"allowed": ["mcp_t_*"]}},
            POL: rule("deny", 299, tool="mcp_t_x") + rule("deny", 301, tool="mcp_t_y"),
        },
    ),
    GeminiCase(
        "toml_bad_rule_skips_file",
        {USER: servers(t=srv("x", "y", trust=T)), POL: rule("deny", 500, tool="mcp_t_x") + rule("maybe", 1, tool="y")},
    ),
    GeminiCase("toml_ask_user_still_sent", {USER: servers(t=srv("x")), POL: rule("ask_user", 100, mcp="t", tool="*")}),
    GeminiCase("toml_mcp_name_without_tool_skips_file", {USER: servers(t=srv("x")), POL: rule("allow", 100, mcp="t")}),
    GeminiCase(
        "policy_flag_replaces_user_dir",
        {
            USER: servers(t=srv("x", "y")),
            POL: rule("allow", 100, mcp="t", tool="*"),
            "pol/only.toml": rule("allow", 100, tool="mcp_t_y"),
        },
        ("--policy", "$D/pol/only.toml"),
    ),
    GeminiCase(
        "confirmation_required_still_sent",
        {USER: {**servers(t=srv("x", "y", trust=T)), "tools": {"confirmationRequired": ["mcp_t_x"]}}},
    ),
    GeminiCase(
        "sanitised_server_name_trust_misses",
        {USER: servers(**{"my server": srv("x", trust=T), "ok_srv": srv("y", trust=T)})},
    ),
    GeminiCase(
        "sanitised_name_allowed_by_sent_name",
        {USER: {**servers(**{"Jira Cloud": srv("x", "y")}), "tools": {"allowed": ["mcp_Jira_Cloud_x"]}}},
    ),
    GeminiCase(
        "mcp_prefixed_server_name", {USER: servers(mcp_gh=srv("x", trust=T), gh=srv("y", trust=T))}, ("--yolo",)
    ),
    GeminiCase(
        "long_name_truncated",
        {
            USER: servers(
                **{"a-very-long-server-name-for-truncation": srv("some_rather_long_tool_name_here", "x", trust=T)}
            )
        },
        ("--yolo",),
    ),
    GeminiCase("collision_keeps_one", {USER: servers(a_b=srv("c", "d"), a=srv("b_c"))}, ("--yolo",)),
    GeminiCase(
        "workspace_server_trusted_folder", {USER: servers(u=srv("x", trust=T)), WS: servers(w=srv("y", trust=T))}
    ),
    GeminiCase(
        "workspace_replaces_user_entry",
        {USER: servers(s=srv("x", trust=T)), WS: servers(s=srv("y", "z"))},
    ),
    GeminiCase("untrusted_folder_exits_55", {USER: servers(u=srv("x", trust=T))}, trusted=False, exit_code=55),
    GeminiCase(
        "skip_trust_drops_workspace",
        {USER: servers(u=srv("x", trust=T)), WS: servers(w=srv("y", trust=T))},
        ("--skip-trust",),
        trusted=False,
    ),
    GeminiCase(
        "trust_workspace_env",
        {USER: servers(u=srv("x", trust=T)), WS: servers(w=srv("y", trust=T))},
        trusted=False,
        env={"GEMINI_CLI_TRUST_WORKSPACE": "true"},
    ),
    GeminiCase(
        "trust_parent",
        {
            USER: servers(u=srv("x", trust=T)),
            WS: servers(w=srv("y", trust=T)),
            "home/.gemini/trustedFolders.json": {"$D/proj/sub": "TRUST_PARENT"},
        },
    ),
    GeminiCase(
        "do_not_trust_deeper_entry_wins",
        {
            USER: servers(u=srv("x", trust=T)),
            "home/.gemini/trustedFolders.json": {"$D": "TRUST_FOLDER", "$D/proj": "DO_NOT_TRUST"},
        },
        exit_code=55,
    ),
    GeminiCase(
        "folder_trust_disabled",
        {
            USER: {**servers(u=srv("x", trust=T)), "security": {"folderTrust": {"enabled": False}}},
            WS: servers(w=srv("y", trust=T)),
        },
        trusted=False,
    ),
    GeminiCase(
        "extension_trust_stripped",
        dict([ext("ex", mcpServers={"e": srv("x", trust=T)})], **{USER: servers(u=srv("y", trust=T))}),
    ),
    GeminiCase(
        "extension_server_allowed",
        dict(
            [ext("ex", mcpServers={"e": srv("x")})],
            **{USER: {**servers(u=srv("y", trust=T)), "mcp": {"allowed": ["e", "u"]}}},
        ),
    ),
    GeminiCase(
        "extension_exclude_tools_hide_others",
        dict([ext("ex", excludeTools=["mcp_u_y"])], **{USER: servers(u=srv("y", "z", trust=T))}),
    ),
    GeminiCase(
        "extensions_none",
        dict([ext("ex", mcpServers={"e": srv("x")})], **{USER: servers(u=srv("y"))}),
        ("-e", "none", "--yolo"),
    ),
    GeminiCase(
        "settings_server_beats_extension",
        dict([ext("ex", mcpServers={"s": srv("x")})], **{USER: servers(s=srv("y", trust=T))}),
    ),
    GeminiCase("failing_server_left_out", {USER: servers(bad=srv("--fail", trust=T), ok=srv("x", trust=T))}),
    GeminiCase(
        "missing_command_left_out",
        {USER: servers(gone={"command": "/nonexistent/mcp", "trust": T}, ok=srv("x", trust=T))},
    ),
    GeminiCase("slow_server_included", {USER: servers(slow=srv("--delay", "6", "x", trust=T), ok=srv("y", trust=T))}),
    GeminiCase(
        "slow_server_past_timeout",
        {USER: servers(slow=srv("--delay", "9", "x", trust=T, timeout=1500), ok=srv("y", trust=T))},
    ),
    GeminiCase("server_without_tools", {USER: servers(empty=srv(trust=T), ok=srv("x", trust=T))}),
    GeminiCase(
        "env_expansion_in_args",
        {USER: servers(t={"command": "$PY", "args": ["$RAW", "${TOOL_NAME}", "${MISSING:-dflt}"], "trust": T})},
        env={"TOOL_NAME": "fromenv"},
    ),
    GeminiCase(
        "system_settings_tools_core_beats_user",
        {USER: servers(t=srv("x", trust=T)), "$SYS/settings.json": {"tools": {"core": ["read_file"]}}},
        env={"GEMINI_CLI_SYSTEM_SETTINGS_PATH": "$SYS/settings.json"},
    ),
    GeminiCase(
        "system_settings_under_tmp_skipped",
        {USER: servers(t=srv("x", trust=T)), "sys/settings.json": {"tools": {"core": ["read_file"]}}},
        env={"GEMINI_CLI_SYSTEM_SETTINGS_PATH": "$D/sys/settings.json"},
    ),
    GeminiCase("call_trusted_runs", {USER: servers(t=srv("x", trust=T))}, call="mcp_t_x"),
    GeminiCase(
        "call_ask_user_refused_headless",
        {USER: servers(t=srv("x")), POL: rule("ask_user", 100, mcp="t", tool="*")},
        call="mcp_t_x",
    ),
    GeminiCase("call_unsent_tool_not_found", {USER: servers(s=srv("x"))}, call="mcp_s_x"),
    GeminiCase("auto_allow_in_headless", {USER: {**servers(s=srv("x")), "mcp": {"autoAllowInHeadless": True}}}),
)
