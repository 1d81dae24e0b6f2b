"""The OpenCode capture matrix: configurations built like users' setups, one per fact of the reference.

``files`` are written under the case's root (``home/`` is HOME, ``proj/`` the cwd unless ``cwd``
says otherwise; ``$PY`` / ``$RAW`` / ``$D`` substituted); ``args`` go to ``opencode run`` and, as
``--client-args``, to toolscope; ``env`` to both. ``exit`` 1: the binary refuses the config (no
request); ``call``: the scripted model calls that tool after the title request.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from oc_runner import PROVIDER


def srv(*tools: str, **extra: Any) -> dict[str, Any]:
    """A local server entry running rawmcp.py with these tools."""
    return {"type": "local", "command": ["$PY", "$RAW", *tools], **extra}


def cfg(**keys: Any) -> str:
    """A config file's text."""
    return json.dumps(keys, ensure_ascii=False)


def mcp(**servers: Any) -> dict[str, Any]:
    return servers


GLOBAL = "home/.config/opencode/opencode.json"
PROJ = "proj/opencode.json"
ST = {"s": srv("alpha", "beta")}


@dataclass(frozen=True)
class Case:
    id: str
    files: dict[str, str]
    args: tuple[str, ...] = ()
    env: dict[str, str] = field(default_factory=dict)
    git: bool = True
    cwd: str = "proj"
    exit: int = 0
    call: str | None = None


CASES: tuple[Case, ...] = (
    # 1. layers and precedence
    Case("global_server", {GLOBAL: cfg(mcp={"g": srv("x")})}),
    Case("project_server", {PROJ: cfg(mcp=ST)}),
    Case("project_replaces_global_command", {GLOBAL: cfg(mcp={"s": srv("a", "b")}), PROJ: cfg(mcp={"s": srv("c")})}),
    Case("project_disables_global", {GLOBAL: cfg(mcp=ST), PROJ: cfg(mcp={"s": {"enabled": False}})}),
    Case(
        "project_reenables_global",
        {GLOBAL: cfg(mcp={"s": srv("a", enabled=False)}), PROJ: cfg(mcp={"s": {"enabled": True}})},
    ),
    Case(
        "jsonc_beats_json",
        {
            PROJ: cfg(mcp={"s": srv("a")}),
            "proj/opencode.jsonc": '// jsonc\n{"mcp": {"s": {"type": "local", "command": ["$PY", "$RAW", "b"],},},}\n',
        },
    ),
    Case(
        "dot_opencode_beats_project",
        {PROJ: cfg(mcp={"s": srv("a")}), "proj/.opencode/opencode.json": cfg(mcp={"s": srv("b")})},
    ),
    Case(
        "home_dot_opencode_beats_project",
        {
            "home/.opencode/opencode.json": cfg(mcp={"s": srv("c")}),
            "proj/.opencode/opencode.json": cfg(mcp={"s": srv("b")}),
        },
    ),
    Case(
        "monorepo_inner_file_wins",
        {PROJ: cfg(mcp={"s": srv("a"), "r": srv("root")}), "proj/packages/api/opencode.json": cfg(mcp={"s": srv("b")})},
        cwd="proj/packages/api",
    ),
    Case("above_git_root_ignored", {"opencode.json": cfg(mcp={"up": srv("x")}), PROJ: cfg(mcp={"s": srv("a")})}),
    Case(
        "outer_dot_opencode_wins",
        {
            "proj/.opencode/opencode.json": cfg(mcp={"s": srv("outer")}),
            "proj/packages/web/.opencode/opencode.json": cfg(mcp={"s": srv("inner"), "w": srv("web")}),
        },
        cwd="proj/packages/web",
    ),
    Case(
        "no_git_parent_file_loads",
        {"opencode.json": cfg(mcp={"up": srv("x")}), PROJ: cfg(mcp={"s": srv("a")})},
        git=False,
    ),
    Case(
        "opencode_config_beaten_by_project",
        {"custom.json": cfg(**PROVIDER, mcp={"s": srv("custom"), "c": srv("only")}), PROJ: cfg(mcp={"s": srv("proj")})},
        env={"OPENCODE_CONFIG": "$D/custom.json"},
    ),
    Case(
        "config_content_beats_dot_opencode",
        {"proj/.opencode/opencode.json": cfg(mcp=ST)},
        env={"OPENCODE_CONFIG_CONTENT": cfg(mcp={"s": {"enabled": False}})},
    ),
    Case(
        "config_dir_beats_dot_opencode",
        {"proj/.opencode/opencode.json": cfg(mcp={"s": srv("b")}), "cdir/opencode.json": cfg(mcp={"s": srv("c")})},
        env={"OPENCODE_CONFIG_DIR": "$D/cdir"},
    ),
    Case(
        "disable_project_config",
        {GLOBAL: cfg(mcp={"g": srv("x")}), PROJ: cfg(mcp=ST)},
        env={"OPENCODE_DISABLE_PROJECT_CONFIG": "1"},
    ),
    # 2. substitution and schema
    Case("env_in_command", {PROJ: cfg(mcp={"s": srv("{env:TOOL_A}", "fixed")})}, env={"TOOL_A": "from_env"}),
    Case("file_in_command", {PROJ: cfg(mcp={"s": srv("{file:tool.txt}")}), "proj/tool.txt": "from_file\n"}),
    Case("bad_file_reference_exit_1", {PROJ: cfg(mcp={"s": srv("{file:nope.txt}")})}, exit=1),
    Case(
        "claude_format_entry_exit_1",
        {GLOBAL: cfg(mcp={"g": srv("x")}), PROJ: cfg(mcp={"github": {"command": "$PY", "args": ["$RAW", "y"]}})},
        exit=1,
    ),
    # 3-4. enabled, connection, time-outs
    Case("enabled_false", {PROJ: cfg(mcp={"s": srv("a", enabled=False), "t": srv("b")})}),
    Case("failing_server_silent", {PROJ: cfg(mcp={"s": srv("--fail", "a"), "t": srv("b")})}),
    Case(
        "missing_binary_silent",
        {PROJ: cfg(mcp={"s": {"type": "local", "command": ["/nonexistent/mcp-server"]}, "t": srv("b")})},
    ),
    Case("slow_server_over_timeout", {PROJ: cfg(mcp={"s": srv("--delay", "12", "a", timeout=1500), "t": srv("b")})}),
    Case("slow_server_within_timeout", {PROJ: cfg(mcp={"s": srv("--delay", "2", "a", timeout=25000), "t": srv("b")})}),
    # 5. naming
    Case("naming_sanitised", {PROJ: cfg(mcp={"my.docs": srv("get-page", "search.v2", "café")})}),
    Case("naming_collision_keeps_one", {PROJ: cfg(mcp={"a.b": srv("c"), "a": srv("b_c", "d")})}),
    Case("name_over_64_sent", {PROJ: cfg(mcp={"server": srv("t" * 70, "short")})}),
    # 6. tools maps and permission
    Case("tools_glob_false", {PROJ: cfg(mcp=ST, tools={"s_*": False})}),
    Case("tools_exact_false", {PROJ: cfg(mcp=ST, tools={"s_alpha": False})}),
    Case("tools_glob_then_true", {PROJ: cfg(mcp=ST, tools={"s_*": False, "s_beta": True})}),
    Case("permission_deny", {PROJ: cfg(mcp=ST, permission={"s_alpha": "deny"})}),
    Case("permission_object_deny", {PROJ: cfg(mcp=ST, permission={"s_alpha": {"*": "deny"}})}),
    Case("permission_glob_deny", {PROJ: cfg(mcp=ST, permission={"s_*": "deny"})}),
    Case("opencode_permission_env", {PROJ: cfg(mcp=ST)}, env={"OPENCODE_PERMISSION": '{"s_b*": "deny"}'}),
    Case("ask_keeps_schema", {PROJ: cfg(mcp=ST, permission={"s_alpha": "ask"})}),
    Case("deny_then_allow", {PROJ: cfg(mcp=ST, permission={"s_*": "deny", "s_beta": "allow"})}),
    Case("allow_then_deny", {PROJ: cfg(mcp=ST, permission={"s_beta": "allow", "s_*": "deny"})}),
    Case("star_deny_one_allow", {PROJ: cfg(mcp=ST, permission={"*": "deny", "s_beta": "allow"})}),
    Case("tools_false_undone_by_allow", {PROJ: cfg(mcp=ST, tools={"s_alpha": False}, permission={"*": "allow"})}),
    Case("glob_case_sensitive", {PROJ: cfg(mcp=ST, permission={"S_*": "deny"})}),
    Case("bare_server_name_matches_nothing", {PROJ: cfg(mcp=ST, permission={"s": "deny"})}),
    Case("scoped_deny_keeps_schema", {PROJ: cfg(mcp=ST, permission={"s_alpha": {"*": "deny", "safe*": "allow"}})}),
    Case(
        "global_and_project_permission_merge",
        {GLOBAL: cfg(permission={"s_alpha": "deny"}), PROJ: cfg(mcp=ST, permission={"s_beta": "deny"})},
    ),
    # 7. agents
    Case("agent_build_tools", {PROJ: cfg(mcp=ST, agent={"build": {"tools": {"s_*": False}}})}),
    Case(
        "agent_md_file",
        {
            PROJ: cfg(mcp=ST),
            "proj/.opencode/agent/reviewer.md": "---\ndescription: reviews\nmode: primary\ntools:\n  s_alpha: false\n---\nReview.\n",
        },
        args=("--agent", "reviewer"),
    ),
    Case(
        "agents_dir_plural",
        {
            PROJ: cfg(mcp=ST),
            "proj/.opencode/agents/rev.md": "---\ndescription: rev\npermission:\n  s_beta: deny\n---\nRev.\n",
        },
        args=("--agent", "rev"),
    ),
    Case(
        "global_agent_md",
        {
            PROJ: cfg(mcp=ST),
            "home/.config/opencode/agent/rev.md": "---\ndescription: rev\ntools:\n  s_*: false\n---\nRev.\n",
        },
        args=("--agent", "rev"),
    ),
    Case(
        "legacy_mode_key", {PROJ: cfg(mcp=ST, mode={"quick": {"tools": {"s_alpha": False}}})}, args=("--agent", "quick")
    ),
    Case(
        "global_deny_agent_allow",
        {PROJ: cfg(mcp=ST, tools={"s_*": False}, agent={"x": {"tools": {"s_alpha": True}}})},
        args=("--agent", "x"),
    ),
    Case(
        "same_agent_two_layers_merge",
        {
            GLOBAL: cfg(agent={"rev": {"tools": {"s_alpha": False}}}),
            PROJ: cfg(mcp=ST, agent={"rev": {"tools": {"s_beta": False}}}),
        },
        args=("--agent", "rev"),
    ),
    Case("plan_agent_keeps_all", {PROJ: cfg(mcp=ST)}, args=("--agent", "plan")),
    Case(
        "subagent_falls_back",
        {PROJ: cfg(mcp=ST, agent={"build": {"tools": {"s_beta": False}}})},
        args=("--agent", "general"),
    ),
    Case(
        "unknown_agent_falls_back",
        {PROJ: cfg(mcp=ST, agent={"build": {"tools": {"s_beta": False}}})},
        args=("--agent", "nosuch"),
    ),
    Case(
        "default_agent_key",
        {PROJ: cfg(mcp=ST, default_agent="rev", agent={"rev": {"mode": "primary", "tools": {"s_alpha": False}}})},
    ),
    # 9. built-ins by model
    Case("gpt5_apply_patch", {PROJ: cfg(mcp=ST)}, args=("-m", "local/g5")),
    Case("gpt41_edit_write", {PROJ: cfg(mcp=ST)}, args=("-m", "local/g41")),
    Case("write_false_removes_edit", {PROJ: cfg(mcp=ST, tools={"write": False})}),
    Case(
        "edit_deny_removes_apply_patch",
        {PROJ: cfg(mcp=ST, permission={"edit": "deny", "bash": "deny"})},
        args=("-m", "local/g5"),
    ),
    # 10. calls
    Case("call_allowed_runs", {PROJ: cfg(mcp=ST)}, call="s_alpha"),
    Case(
        "call_scoped_deny_refused",
        {PROJ: cfg(mcp=ST, permission={"s_alpha": {"*": "deny", "safe*": "allow"}})},
        call="s_alpha",
    ),
)
