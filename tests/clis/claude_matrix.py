"""The Claude Code capture matrix: one configuration per row of the reference's stage table (§1).

Each case is files to write (paths under a fresh root: ``home/``, ``proj/``, ``etc/`` for the
managed folder), the session's flags, extra environment, and optionally a tool to call (the
scripted model calls it; the next request shows whether it ran). Used by the real-binary
tests (``test_claude_code_real.py``) and the drift check (``benchmarks/cli_drift.py``).
``$D`` is the root, ``$PY`` this Python, ``$RAW`` the stdlib MCP server ``rawmcp.py``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

U = "home/.claude.json"
US = "home/.claude/settings.json"
PS = "proj/.claude/settings.json"
LS = "proj/.claude/settings.local.json"
MS = "etc/claude-code/managed-settings.json"


def raw(*tools: str, **extra: Any) -> dict[str, Any]:
    """A server entry starting rawmcp.py with these tools."""
    return {"command": "$PY", "args": ["$RAW", *tools], **extra}


@dataclass(frozen=True)
class Case:
    id: str
    files: dict[str, Any]
    args: tuple[str, ...] = ()
    env: dict[str, str] = field(default_factory=dict)
    call: str | None = None
    """A tool the scripted model calls in its first reply."""
    cwd: str = "proj"
    """Where Claude Code runs (and toolscope's ``claude-code:`` folder), under the root."""
    git: tuple[str, ...] = ()
    """Folders made git repositories (``git init`` and an empty commit) before the files are written."""
    worktrees: tuple[tuple[str, str], ...] = ()
    """(repository, worktree): ``git worktree add`` after ``git``."""
    unset: tuple[str, ...] = ()
    """Variables of the lane's environment left out (``CLAUDE_CODE_MCP_STARTUP_WAIT_MS``: the default grace)."""
    read_before: bool = False
    """toolscope reads the files as they were before the run (Claude Code moves keys on its first run)."""

    @property
    def managed(self) -> bool:
        """Needs the managed folder /etc/claude-code (run in a private mount namespace)."""
        return any(path.startswith("etc/") for path in self.files)


TRUST = {"$D/proj": {"hasTrustDialogAccepted": True}}

CASES: tuple[Case, ...] = (
    # 1. sources and scopes
    Case(
        "real_time_server",
        {
            "proj/.mcp.json": {
                "mcpServers": {"time": {"command": "$PY", "args": ["-m", "mcp_server_time", "--local-timezone", "UTC"]}}
            }
        },
    ),
    Case("user_scope", {U: {"mcpServers": {"t": raw("x", "y")}}}),
    Case("local_scope", {U: {"projects": {"$D/proj": {"mcpServers": {"l": raw("x")}}}}}),
    Case("project_scope", {"proj/.mcp.json": {"mcpServers": {"p": raw("x")}}}),
    Case("project_scope_parent", {".mcp.json": {"mcpServers": {"p": raw("x")}}}),
    Case(
        "project_closest_mcp_json_wins",
        {".mcp.json": {"mcpServers": {"t": raw("far")}}, "proj/.mcp.json": {"mcpServers": {"t": raw("near")}}},
    ),
    Case("dynamic_scope", {"cfg.json": {"mcpServers": {"d": raw("x")}}}, ("--mcp-config", "$D/cfg.json")),
    Case(
        "strict_mcp_config",
        {U: {"mcpServers": {"u": raw("x")}}, "cfg.json": {"mcpServers": {"d": raw("y")}}},
        ("--strict-mcp-config", "--mcp-config", "$D/cfg.json"),
    ),
    Case(
        "settings_servers_unread",
        {
            US: {"mcpServers": {"s": raw("x")}},
            PS: {"mcpServers": {"s2": raw("x")}},
            "home/.mcp.json": {"mcpServers": {"s3": raw("x")}},
        },
    ),
    Case(
        "managed_mcp_exclusive",
        {
            U: {"mcpServers": {"u": raw("x")}},
            "proj/.mcp.json": {"mcpServers": {"p": raw("x")}},
            "etc/claude-code/managed-mcp.json": {"mcpServers": {"m": raw("x")}},
        },
    ),
    # 2. precedence
    Case(
        "local_beats_project_and_user",
        {
            U: {"mcpServers": {"t": raw("user")}, "projects": {"$D/proj": {"mcpServers": {"t": raw("local")}}}},
            "proj/.mcp.json": {"mcpServers": {"t": raw("project")}},
        },
    ),
    Case(
        "project_beats_user",
        {U: {"mcpServers": {"t": raw("user")}}, "proj/.mcp.json": {"mcpServers": {"t": raw("project")}}},
    ),
    Case(
        "dynamic_beats_project",
        {"proj/.mcp.json": {"mcpServers": {"t": raw("project")}}, "cfg.json": {"mcpServers": {"t": raw("dynamic")}}},
        ("--mcp-config", "$D/cfg.json"),
    ),
    # 3. approval
    Case(
        "disabled_mcpjson_local",
        {"proj/.mcp.json": {"mcpServers": {"p": raw("x"), "q": raw("y")}}, LS: {"disabledMcpjsonServers": ["p"]}},
    ),
    Case(
        "disabled_beats_enabled",
        {
            "proj/.mcp.json": {"mcpServers": {"p": raw("x")}},
            US: {"disabledMcpjsonServers": ["p"], "enabledMcpjsonServers": ["p"]},
        },
    ),
    # 4. server policy
    Case(
        "denied_server_user",
        {U: {"mcpServers": {"a": raw("x"), "b": raw("x")}}, US: {"deniedMcpServers": [{"serverName": "a"}]}},
    ),
    Case(
        "allowed_servers_project",
        {U: {"mcpServers": {"a": raw("x"), "b": raw("x")}}, PS: {"allowedMcpServers": [{"serverName": "a"}]}},
    ),
    Case("allowed_servers_empty", {U: {"mcpServers": {"a": raw("x")}}, US: {"allowedMcpServers": []}}),
    Case(
        "managed_allowed_servers_only",
        {
            U: {"mcpServers": {"a": raw("x"), "b": raw("y")}},
            US: {"allowedMcpServers": [{"serverName": "b"}]},
            MS: {"allowManagedMcpServersOnly": True, "allowedMcpServers": [{"serverName": "a"}]},
        },
    ),
    Case(
        "denied_server_command_managed",
        {
            U: {"mcpServers": {"a": raw("x"), "b": raw("y")}},
            MS: {"deniedMcpServers": [{"serverCommand": ["$PY", "$RAW", "x"]}]},
        },
    ),
    # 5. connection
    Case("failed_server", {U: {"mcpServers": {"f": raw("--fail"), "ok": raw("x")}}}),
    # 6. naming and collisions
    Case("naming_normalised", {U: {"mcpServers": {"my.srv": raw("get-time", "a.b", "café")}}}),
    Case("long_names_kept", {U: {"mcpServers": {"s" * 40: raw("t" * 70)}}}),
    Case("collision_servers", {U: {"mcpServers": {"a.b": raw("x"), "a_b": raw("x")}}}),
    Case("collision_tools", {U: {"mcpServers": {"s": raw("a.b", "a_b")}}}),
    # 7. deny
    Case(
        "deny_forms",
        {
            U: {
                "mcpServers": {
                    "a": raw("x"),
                    "b": raw("x"),
                    "c": raw("x"),
                    "d": raw("get-time"),
                    "e": raw("x"),
                    "f.g": raw("x"),
                }
            },
            US: {
                "permissions": {"deny": ["mcp__a", "mcp__b__*", "mcp__c__x(*)", "mcp__d__get-time", "x", "mcp__f.g__x"]}
            },
        },
    ),
    Case(
        "deny_settings_flag",
        {U: {"mcpServers": {"t": raw("x", "y")}}, "s.json": {"permissions": {"deny": ["mcp__t__y"]}}},
        ("--settings", "$D/s.json"),
    ),
    Case("deny_flag", {U: {"mcpServers": {"t": raw("x", "y")}}}, ("--disallowedTools", "mcp__t__x")),
    Case(
        "deny_untrusted_project",
        {U: {"mcpServers": {"t": raw("x", "y")}}, PS: {"permissions": {"deny": ["mcp__t__x"]}}},
    ),
    Case(
        "managed_rules_only",
        {
            U: {"mcpServers": {"t": raw("x", "y")}},
            US: {"permissions": {"deny": ["mcp__t__y"], "allow": ["mcp__t__x"]}},
            MS: {"allowManagedPermissionRulesOnly": True},
        },
        call="mcp__t__x",
    ),
    # 8. deferred or in full
    Case("tool_search_false_env", {U: {"mcpServers": {"t": raw("x")}}}, env={"ENABLE_TOOL_SEARCH": "false"}),
    Case(
        "tool_search_false_settings", {U: {"mcpServers": {"t": raw("x")}}, US: {"env": {"ENABLE_TOOL_SEARCH": "false"}}}
    ),
    Case("tool_search_true_env", {U: {"mcpServers": {"t": raw("x")}}}, env={"ENABLE_TOOL_SEARCH": "true"}),
    Case("tool_search_0_env", {U: {"mcpServers": {"t": raw("x")}}}, env={"ENABLE_TOOL_SEARCH": "0"}),
    Case("tool_search_auto_100", {U: {"mcpServers": {"t": raw("x")}}}, env={"ENABLE_TOOL_SEARCH": "auto:100"}),
    Case("tool_search_auto_0", {U: {"mcpServers": {"t": raw("x")}}}, env={"ENABLE_TOOL_SEARCH": "auto:0"}),
    Case("always_load_server", {U: {"mcpServers": {"t": raw("x", alwaysLoad=True), "u": raw("y")}}}),
    Case("always_load_tool_meta", {U: {"mcpServers": {"t": raw("x:always", "y")}}}),
    Case("tool_search_denied", {U: {"mcpServers": {"t": raw("x")}}, US: {"permissions": {"deny": ["ToolSearch"]}}}),
    Case("tools_flag_without_tool_search", {U: {"mcpServers": {"t": raw("x")}}}, ("--tools", "Bash")),
    Case("claude3_model_in_full", {U: {"mcpServers": {"t": raw("x")}}}, ("--model", "claude-3-5-haiku-20241022")),
    # 10. call time
    Case("call_default_refused", {U: {"mcpServers": {"t": raw("x")}}}, call="mcp__t__x"),
    Case(
        "call_allowed_user",
        {U: {"mcpServers": {"t": raw("x")}}, US: {"permissions": {"allow": ["mcp__t__x"]}}},
        call="mcp__t__x",
    ),
    Case(
        "call_allowed_flag_glob",
        {U: {"mcpServers": {"t": raw("x")}}},
        ("--allowedTools", "mcp__t__*"),
        call="mcp__t__x",
    ),
    Case(
        "call_ask_beats_allow",
        {U: {"mcpServers": {"t": raw("x")}}, US: {"permissions": {"ask": ["mcp__t__x"]}}},
        ("--allowedTools", "mcp__t__x"),
        call="mcp__t__x",
    ),
    Case(
        "call_allow_untrusted_project",
        {U: {"mcpServers": {"t": raw("x")}}, PS: {"permissions": {"allow": ["mcp__t__x"]}}},
        call="mcp__t__x",
    ),
    Case(
        "call_allow_trusted_project",
        {U: {"mcpServers": {"t": raw("x")}, "projects": TRUST}, PS: {"permissions": {"allow": ["mcp__t__x"]}}},
        call="mcp__t__x",
    ),
    Case(
        "call_allow_local_untrusted",
        {U: {"mcpServers": {"t": raw("x")}}, LS: {"permissions": {"allow": ["mcp__t__x"]}}},
        call="mcp__t__x",
    ),
    Case(
        "call_accept_edits",
        {U: {"mcpServers": {"t": raw("x")}}},
        ("--permission-mode", "acceptEdits"),
        call="mcp__t__x",
    ),
    Case("call_dont_ask", {U: {"mcpServers": {"t": raw("x")}}}, ("--permission-mode", "dontAsk"), call="mcp__t__x"),
    Case("call_plan", {U: {"mcpServers": {"t": raw("x")}}}, ("--permission-mode", "plan"), call="mcp__t__x"),
    Case(
        "call_bypass",
        {U: {"mcpServers": {"t": raw("x")}}},
        ("--permission-mode", "bypassPermissions"),
        {"IS_SANDBOX": "1"},
        call="mcp__t__x",
    ),
    Case(
        "call_bypass_disabled_managed",
        {U: {"mcpServers": {"t": raw("x")}}, MS: {"permissions": {"disableBypassPermissionsMode": "disable"}}},
        ("--permission-mode", "bypassPermissions"),
        {"IS_SANDBOX": "1"},
        call="mcp__t__x",
    ),
    Case(
        "call_project_default_mode_bypass_ignored",
        {U: {"mcpServers": {"t": raw("x")}}, PS: {"permissions": {"defaultMode": "bypassPermissions"}}},
        env={"IS_SANDBOX": "1"},
        call="mcp__t__x",
    ),
    Case(
        "call_user_default_mode_bypass",
        {U: {"mcpServers": {"t": raw("x")}}, US: {"permissions": {"defaultMode": "bypassPermissions"}}},
        env={"IS_SANDBOX": "1"},
        call="mcp__t__x",
    ),
    Case(
        "call_denied_even_bypass",
        {U: {"mcpServers": {"t": raw("x")}}, US: {"permissions": {"deny": ["mcp__t__x"]}}},
        ("--permission-mode", "bypassPermissions"),
        {"IS_SANDBOX": "1"},
        call="mcp__t__x",
    ),
    # 11. issue #32: setups built like users' (several scopes at once, git subfolders, worktrees,
    # glob rules, ${VAR}, slow servers), each recorded from the binary.
    Case(
        "git_subdir_root_local_settings_apply",
        {
            U: {"mcpServers": {"u": raw("a", "b", "c")}},
            LS: {"permissions": {"deny": ["mcp__u__a"]}},
            PS: {"permissions": {"deny": ["mcp__u__b"]}},
            "proj/sub/x": "",
        },
        cwd="proj/sub",
        git=("proj",),
    ),
    Case(
        "git_subdir_local_scope_keyed_by_root",
        {
            U: {
                "projects": {
                    "$D/proj": {"mcpServers": {"lroot": raw("x")}},
                    "$D/proj/sub": {"mcpServers": {"lsub": raw("x")}},
                }
            },
            "proj/.mcp.json": {"mcpServers": {"p": raw("y")}},
            "proj/sub/x": "",
        },
        cwd="proj/sub",
        git=("proj",),
    ),
    Case(
        "git_subdir_cwd_settings_beside_root_local",
        {
            U: {"mcpServers": {"u": raw("a", "b", "c", "d")}},
            LS: {"permissions": {"deny": ["mcp__u__a"]}},
            "proj/sub/.claude/settings.json": {"permissions": {"deny": ["mcp__u__b"]}},
            "proj/sub/.claude/settings.local.json": {"permissions": {"deny": ["mcp__u__c"]}},
        },
        cwd="proj/sub",
        git=("proj",),
    ),
    Case(
        "worktree_local_scope_main_repository",
        {
            U: {
                "projects": {
                    "$D/proj": {"mcpServers": {"lmain": raw("x", "y")}},
                    "$D/wt": {"mcpServers": {"lwt": raw("z")}},
                }
            },
            LS: {"permissions": {"deny": ["mcp__lmain__y"]}},
            US: {"permissions": {"deny": ["mcp__other__*"]}},
        },
        cwd="wt",
        git=("proj",),
        worktrees=(("proj", "wt"),),
    ),
    Case(
        "worktree_mcp_json_disabled_by_main_local",
        {
            U: {"mcpServers": {"t": raw("user_tool")}},
            "wt/.mcp.json": {"mcpServers": {"t": raw("proj_tool"), "q": raw("q1")}},
            LS: {"disabledMcpjsonServers": ["t"]},
        },
        cwd="wt",
        git=("proj",),
        worktrees=(("proj", "wt"),),
    ),
    Case(
        "git_subdir_old_layout_lists_in_claude_json",
        {
            U: {
                "mcpServers": {"u": raw("a")},
                "projects": {
                    "$D/proj": {
                        "mcpServers": {"l": raw("x")},
                        "enabledMcpjsonServers": ["p"],
                        "disabledMcpjsonServers": ["q"],
                        "allowedTools": [],
                    }
                },
            },
            "proj/.mcp.json": {"mcpServers": {"p": raw("y"), "q": raw("z")}},
            "proj/sub/x": "",
        },
        cwd="proj/sub",
        git=("proj",),
        read_before=True,
    ),
    Case(
        "git_subdir_new_layout_lists_in_root_local",
        {
            U: {"mcpServers": {"u": raw("a")}, "projects": {"$D/proj": {"mcpServers": {"l": raw("x")}}}},
            "proj/.mcp.json": {"mcpServers": {"p": raw("y"), "q": raw("z")}},
            LS: {"enabledMcpjsonServers": ["p"], "disabledMcpjsonServers": ["q"]},
            "proj/sub/x": "",
        },
        cwd="proj/sub",
        git=("proj",),
    ),
    Case(
        "disabled_project_user_same_name_comes_back",
        {
            U: {"mcpServers": {"t": raw("user_tool"), "v": raw("v1")}},
            "proj/.mcp.json": {"mcpServers": {"t": raw("proj_tool"), "w": raw("w1")}},
            LS: {"disabledMcpjsonServers": ["t"]},
        },
    ),
    Case(
        "disabled_project_in_git_subdir_user_comes_back",
        {
            U: {"mcpServers": {"t": raw("user_tool")}},
            "proj/sub/.mcp.json": {"mcpServers": {"t": raw("proj_tool")}},
            LS: {"disabledMcpjsonServers": ["t"]},
        },
        cwd="proj/sub",
        git=("proj",),
    ),
    Case(
        "deny_globs_several_scopes",
        {
            U: {
                "mcpServers": {
                    "gh": raw("delete_repo", "delete_issue", "list_repos"),
                    "ghx": raw("delete_repo"),
                    "other": raw("y", "z"),
                }
            },
            US: {"permissions": {"deny": ["mcp__gh__delete_*"]}},
            LS: {"permissions": {"deny": ["mcp__other__?", "mcp__other__[z]"]}},
        },
    ),
    Case(
        "deny_glob_crosses_separator_project",
        {
            U: {"mcpServers": {"gh": raw("a"), "ghx": raw("b"), "other": raw("c")}},
            PS: {"permissions": {"deny": ["mcp__gh*"]}},
        },
    ),
    Case("deny_lone_star", {U: {"mcpServers": {"a": raw("x"), "b": raw("y")}}, US: {"permissions": {"deny": ["*"]}}}),
    Case(
        "deny_glob_flag_server_part",
        {U: {"mcpServers": {"gh": raw("delete_repo", "list"), "gl": raw("delete_repo")}}},
        ("--disallowedTools", "mcp__*__delete_repo"),
    ),
    Case(
        "allow_glob_call_ran",
        {
            U: {"mcpServers": {"gh": raw("list_repos", "delete_repo")}},
            US: {"permissions": {"allow": ["mcp__gh__list_*"]}},
        },
        call="mcp__gh__list_repos",
    ),
    Case(
        "setting_sources_user_only",
        {
            U: {"mcpServers": {"u": raw("a", "b", "c")}, "projects": {"$D/proj": {"mcpServers": {"l": raw("x")}}}},
            "proj/.mcp.json": {"mcpServers": {"p": raw("x")}},
            "cfg.json": {"mcpServers": {"d": raw("x")}},
            US: {"permissions": {"deny": ["mcp__u__a"]}},
            PS: {"permissions": {"deny": ["mcp__u__b"]}},
            LS: {"permissions": {"deny": ["mcp__u__c"]}},
        },
        ("--setting-sources", "user", "--mcp-config", "$D/cfg.json"),
    ),
    Case(
        "setting_sources_project_local",
        {
            U: {"mcpServers": {"u": raw("a")}, "projects": {"$D/proj": {"mcpServers": {"l": raw("x", "y")}}}},
            "proj/.mcp.json": {"mcpServers": {"p": raw("x")}},
            LS: {"permissions": {"deny": ["mcp__l__y"]}},
        },
        ("--setting-sources", "project,local"),
    ),
    Case(
        "model_project_beats_user_deferred",
        {
            U: {"mcpServers": {"t": raw("x")}},
            US: {"model": "claude-3-5-haiku-20241022"},
            PS: {"model": "claude-sonnet-4-5"},
        },
    ),
    Case(
        "model_root_local_in_git_subdir_in_full",
        {
            U: {"mcpServers": {"t": raw("x")}},
            US: {"model": "claude-opus-5-5"},
            "proj/sub/.claude/settings.json": {"model": "claude-sonnet-4-5"},
            LS: {"model": "claude-3-5-haiku-20241022"},
        },
        cwd="proj/sub",
        git=("proj",),
    ),
    Case(
        "model_env_beats_settings",
        {
            U: {"mcpServers": {"t": raw("x")}},
            US: {"model": "claude-opus-5-5"},
            LS: {"model": "claude-3-5-haiku-20241022"},
        },
        env={"ANTHROPIC_MODEL": "claude-sonnet-4-5"},
    ),
    Case(
        "env_expansion_default_and_set",
        {
            "proj/.mcp.json": {
                "mcpServers": {
                    "s": {"command": "${XLANE_PY}", "args": ["$RAW", "${XLANE_UNSET:-deftool}", "${XLANE_TOOL}"]},
                    "n": {"command": "$PY", "args": ["$RAW", "$XLANE_TOOL"], "env": {"K": "${XLANE_SECRET}"}},
                }
            },
            U: {"mcpServers": {"u": raw("a")}},
        },
        env={"XLANE_PY": "$PY", "XLANE_TOOL": "named", "XLANE_SECRET": "s3cr3t-lane"},
    ),
    Case(
        "names_emoji_two_underscores",
        {U: {"mcpServers": {"e\U0001f600": raw("x"), "t": raw("emo\U0001f600ji", "caf\u00e9")}}},
    ),
    Case(
        "slow_server_missing_from_first_request",
        {U: {"mcpServers": {"slow": raw("--delay", "7", "s1"), "fast": raw("f1")}}},
        unset=("CLAUDE_CODE_MCP_STARTUP_WAIT_MS",),
    ),
    Case(
        "slow_server_mcp_timeout_does_not_wait",
        {U: {"mcpServers": {"slow": raw("--delay", "7", "s1"), "fast": raw("f1")}}},
        env={"MCP_TIMEOUT": "60000"},
        unset=("CLAUDE_CODE_MCP_STARTUP_WAIT_MS",),
    ),
    Case(
        "slow_server_wait_variable_in_settings",
        {
            U: {"mcpServers": {"slow": raw("--delay", "4", "s1"), "fast": raw("f1")}},
            US: {"env": {"CLAUDE_CODE_MCP_STARTUP_WAIT_MS": "30000"}},
        },
        unset=("CLAUDE_CODE_MCP_STARTUP_WAIT_MS",),
    ),
    Case(
        "home_mcp_json_is_project_scope_under_home",
        {"home/.mcp.json": {"mcpServers": {"h": raw("x")}}, U: {"mcpServers": {"u": raw("y")}}, "home/proj/x": ""},
        cwd="home/proj",
    ),
)
