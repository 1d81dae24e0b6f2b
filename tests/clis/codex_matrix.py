"""The Codex capture matrix: one configuration per row of the reference's stage table (§2).

``config`` is appended to ``$CODEX_HOME/config.toml`` (the test adds the model provider that
points at the capture); ``files`` are written under the root (``proj/``, ``etc/`` → /etc);
``$PY`` / ``$RAW`` / ``$D`` as in the Claude matrix. Used by ``test_codex_real.py`` and
``benchmarks/cli_drift.py``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any


def srv(name: str, *tools: str, extra: str = "") -> str:
    """A [mcp_servers.NAME] table starting rawmcp.py with these tools."""
    return (
        f'[mcp_servers."{name}"]\ncommand = "$PY"\nargs = {json.dumps(["$RAW", *tools], ensure_ascii=False)}\n{extra}\n'
    )


@dataclass(frozen=True)
class CodexCase:
    id: str
    config: str
    model: str = "gpt-4.1"
    files: dict[str, Any] = field(default_factory=dict)
    overrides: tuple[str, ...] = ()
    call: tuple[str, str] | None = None
    """(namespace, function) the scripted model calls."""
    cwd: str = "proj"
    """Where codex runs (and toolscope looks), under the root."""
    git: tuple[str, ...] = ()
    """Folders made git repositories (one commit) before the files are written."""
    worktrees: tuple[tuple[str, str], ...] = ()
    """(repository, worktree folder): ``git worktree add`` after ``git``."""
    args: tuple[str, ...] = ()
    """The session's own flags (``--profile p``): given to codex exec, and to toolscope as ``--client-args``."""
    env: dict[str, str] = field(default_factory=dict)
    """Extra environment of the session (and of toolscope, which starts servers as Codex would)."""
    run_ends: str | None = None
    """The finding kind that says the run ends: codex exits 1 with no request, ``check`` names it."""
    finding: str | None = None
    """A finding kind ``toolscope check --discover`` must report besides agreeing with the capture."""
    replies: tuple[dict[str, Any], ...] = ()
    """Scripted replies (instead of ``call``): several requests in one turn."""

    @property
    def managed(self) -> bool:
        """Needs /etc/codex (private mount namespace)."""
        return any(path.startswith("etc/") for path in self.files)


TRUST = '[projects."$D/proj"]\ntrust_level = "trusted"\n'

CASES: tuple[CodexCase, ...] = (
    CodexCase("user_server_full", srv("t", "x", "y")),
    CodexCase("catalog_model_deferred", srv("t", "x"), model="gpt-5.5"),
    CodexCase("other_model_full", srv("t", "x"), model="o3"),
    CodexCase("enabled_tools_typo_hides_server", srv("t", "x", "y", extra='enabled_tools = ["mcp__t__x"]')),
    CodexCase("enabled_tools_raw_name", srv("t", "x", "y", extra='enabled_tools = ["x"]')),
    CodexCase("disabled_beats_enabled", srv("t", "x", "y", extra='enabled_tools = ["x"]\ndisabled_tools = ["x"]')),
    CodexCase("enabled_false", srv("t", "x", extra="enabled = false") + srv("u", "y")),
    CodexCase("failing_server", srv("t", "--fail") + srv("u", "y")),
    CodexCase("naming_sanitised", srv("my.srv", "get-time", "a.b")),
    CodexCase("collision_servers", srv("a.b", "x") + srv("a_b", "x") + srv("u", "y")),
    CodexCase("collision_tools", srv("t", "a.b", "a_b", "c")),
    CodexCase("non_prefixed_names", "[features]\nnon_prefixed_mcp_tool_names = true\n" + srv("t", "x")),
    CodexCase("enabled_tools_empty", srv("t", "x", extra="enabled_tools = []") + srv("u", "y")),
    CodexCase("space_in_server_name", srv("my srv", "x") + srv("u", "y")),
    CodexCase("project_untrusted_ignored", "", files={"proj/.codex/config.toml": srv("p", "x")}),
    CodexCase(
        "project_parent_trust_does_not_count",
        '[projects."$D"]\ntrust_level = "trusted"\n',
        files={"proj/.codex/config.toml": srv("p", "x")},
    ),
    CodexCase("project_trusted", TRUST, files={"proj/.codex/config.toml": srv("p", "x")}),
    CodexCase("c_override_enabled_tools", srv("t", "x", "y"), overrides=('mcp_servers.t.enabled_tools=["y"]',)),
    CodexCase("system_config_adds", srv("u", "x"), files={"etc/codex/config.toml": srv("e", "y")}),
    CodexCase(
        "managed_config_overrides",
        srv("u", "x", extra="enabled = true"),
        files={"etc/codex/managed_config.toml": "[mcp_servers.u]\nenabled = false\n"},
    ),
    CodexCase(
        "requirements_allowlist",
        srv("a", "x") + srv("b", "y"),
        files={"etc/codex/requirements.toml": '[mcp_servers.a.identity]\ncommand = "$PY"\n'},
    ),
    CodexCase(
        "requirements_command_mismatch",
        srv("a", "x") + srv("b", "y"),
        files={"etc/codex/requirements.toml": '[mcp_servers.a.identity]\ncommand = "/bin/false"\n'},
    ),
    CodexCase("call_needs_approval", srv("t", "x"), call=("mcp__t", "x")),
    CodexCase(
        "call_flat_name_unsupported",
        srv("t", "x", extra='default_tools_approval_mode = "approve"'),
        call=("", "mcp__t__x"),
    ),
    CodexCase("call_read_only_runs", srv("t", "x:ro"), call=("mcp__t", "x")),
    CodexCase(
        "call_approve_mode_runs", srv("t", "x", extra='default_tools_approval_mode = "approve"'), call=("mcp__t", "x")
    ),
    # The key toolscope's fix names for a refused call: raw server and tool names, quoted.
    CodexCase(
        "call_tool_approval_quoted_raw_names",
        srv("my.srv", "get-time", extra='[mcp_servers."my.srv".tools."get-time"]\napproval_mode = "approve"'),
        call=("mcp__my_srv", "get_time"),
    ),
    CodexCase(
        "call_tool_approval_auto_refused",
        srv("t", "x", extra='[mcp_servers.t.tools.x]\napproval_mode = "auto"'),
        call=("mcp__t", "x"),
    ),
)


def trust(path: str) -> str:
    """A trust entry for ``$D/<path>``."""
    return f'[projects."$D/{path}"]\ntrust_level = "trusted"\n'


NEEDS_XNEED = (
    '[mcp_servers.needs]\ncommand = "/bin/sh"\n'
    'args = ["-c", "test -n \\"$XNEED\\" || exit 3; exec \\"$0\\" \\"$1\\" n", "$PY", "$RAW"]\n'
)
"""A server that exits 3 unless the shell variable XNEED reaches it (as a server needing a token would)."""

# Round 2 (#32): setups built like users' own, several layers at once, recorded from 0.171.0.
ROUND2: tuple[CodexCase, ...] = (
    # A. which folder is the project: git root, subdirectories, nested .codex/, worktrees
    CodexCase(
        "subdir_of_trusted_root",
        srv("u", "mine") + trust("proj"),
        files={"proj/.codex/config.toml": srv("p", "lint", "fmt")},
        git=("proj",),
        cwd="proj/src/app",
    ),
    CodexCase(
        "subdir_trust_on_cwd_does_not_count",
        srv("u", "mine") + trust("proj/src"),
        files={"proj/.codex/config.toml": srv("p", "lint")},
        git=("proj",),
        cwd="proj/src",
        finding="untrusted_ignored",
    ),
    CodexCase(
        "nested_codex_each_under_its_own_trust",
        srv("u", "mine") + trust("proj/pkg"),
        files={"proj/.codex/config.toml": srv("root", "a"), "proj/pkg/.codex/config.toml": srv("pkg", "b")},
        git=("proj",),
        cwd="proj/pkg/src",
    ),
    CodexCase(
        "nested_codex_nearest_wins_with_override",
        srv("u", "mine") + trust("proj"),
        files={
            "proj/.codex/config.toml": srv("s", "from_root") + srv("r", "x"),
            "proj/pkg/.codex/config.toml": srv("s", "from_pkg"),
        },
        overrides=("mcp_servers.r.enabled=false",),
        git=("proj",),
        cwd="proj/pkg",
    ),
    CodexCase(
        "worktree_trusted_by_main_repository",
        srv("u", "mine") + trust("proj"),
        files={"wt/.codex/config.toml": srv("w", "x"), "proj/.codex/config.toml": srv("main_only", "y")},
        git=("proj",),
        worktrees=(("proj", "wt"),),
        cwd="wt/sub",
    ),
    CodexCase(
        "worktree_trusted_itself",
        trust("wt"),
        files={"wt/.codex/config.toml": srv("w", "x")},
        git=("proj",),
        worktrees=(("proj", "wt"),),
        cwd="wt",
    ),
    CodexCase(
        "worktree_subdir_trust_ignored",
        srv("u", "mine") + trust("wt/sub"),
        files={"wt/.codex/config.toml": srv("w", "x")},
        git=("proj",),
        worktrees=(("proj", "wt"),),
        cwd="wt/sub",
        finding="untrusted_ignored",
    ),
    CodexCase(
        "trust_above_git_root_ignored",
        '[projects."$D"]\ntrust_level = "trusted"\n' + srv("u", "mine"),
        files={"proj/.codex/config.toml": srv("p", "x")},
        git=("proj",),
        cwd="proj/sub",
    ),
    CodexCase(
        "no_git_parent_codex_not_read",
        trust("proj") + srv("u", "mine"),
        files={"proj/.codex/config.toml": srv("p", "x"), "proj/sub/.codex/config.toml": srv("q", "y")},
        cwd="proj/sub",
    ),
    # G. server and tool names
    CodexCase(
        "server_names_slash_at_colon",
        srv("org/tools", "sl/ash", "emo\U0001f600ji") + srv("me@host", "at@t") + srv("ns:srv", "caf\u00e9"),
    ),
    CodexCase("server_names_collide_after_sanitising", srv("a/b", "x") + srv("a@b", "x") + srv("a:b", "x")),
    CodexCase("emoji_server_dropped_silently", srv("e\U0001f600", "x") + srv("ok", "y"), git=("proj",)),
    # H. required servers, profiles, -c
    CodexCase(
        "required_server_fails_run_ends",
        srv("bad", "--fail", extra="required = true") + srv("ok", "x"),
        run_ends="required_server_failed",
    ),
    CodexCase(
        "required_ok_beside_a_failing_one",
        srv("bad", "--fail") + srv("ok", "x", extra="required = true"),
        finding="mcp_outage",
    ),
    CodexCase(
        "required_but_disabled",
        srv("bad", "--fail", extra="required = true\nenabled = false") + srv("ok", "x"),
    ),
    CodexCase(
        "profile_file_over_config_under_project",
        srv("u", "x") + srv("v", "a") + trust("proj"),
        files={
            "codexhome/p.config.toml": srv("u", "x", extra="enabled = false") + srv("v", "b") + srv("w", "c"),
            "proj/.codex/config.toml": srv("w", "d"),
        },
        git=("proj",),
        args=("--profile", "p"),
        cwd="proj/src",
    ),
    CodexCase(
        "profile_model_defers",
        srv("u", "x"),
        files={"codexhome/work.config.toml": 'model = "gpt-5.5"\n'},
        args=("--profile", "work"),
    ),
    CodexCase(
        "profile_grants_trust",
        srv("u", "y"),
        files={"codexhome/p.config.toml": trust("proj"), "proj/.codex/config.toml": srv("pp", "x")},
        git=("proj",),
        args=("-p", "p"),
    ),
    CodexCase("profile_missing_file_ignored", srv("u", "x"), args=("--profile", "nope")),
    CodexCase(
        "profile_table_with_flag_refused",
        '[profiles.p]\nmodel = "o3"\n' + srv("u", "x"),
        args=("--profile", "p"),
        run_ends="config_refused",
    ),
    CodexCase("profile_table_without_flag_fine", '[profiles.p]\nmodel = "o3"\n' + srv("u", "x")),
    CodexCase("legacy_profile_key_refused", 'profile = "p"\n' + srv("u", "x"), run_ends="config_refused"),
    CodexCase(
        "c_quoted_dotted_server_refused",
        srv("my.srv", "x") + srv("u", "y"),
        overrides=('mcp_servers."my.srv".enabled=false',),
        run_ends="config_refused",
    ),
    CodexCase(
        "c_disables_a_trusted_project_server_from_a_subdir",
        srv("u", "x") + trust("proj"),
        files={"proj/.codex/config.toml": srv("p", "a", "b") + srv("q", "c")},
        overrides=("mcp_servers.p.enabled=false", 'mcp_servers.q.enabled_tools=["c"]'),
        git=("proj",),
        cwd="proj/lib",
    ),
    # I. environment and start-up
    CodexCase(
        "env_shell_variable_not_passed",
        NEEDS_XNEED + srv("ok", "y"),
        env={"XNEED": "1"},
        finding="env_not_passed",
    ),
    CodexCase("env_vars_names_it", NEEDS_XNEED + 'env_vars = ["XNEED"]\n' + srv("ok", "y"), env={"XNEED": "1"}),
    CodexCase("env_table_sets_it", NEEDS_XNEED + 'env = { XNEED = "1" }\n' + srv("ok", "y")),
    CodexCase(
        "slow_server_missing_from_first_request",
        srv("slow", "--delay", "8", "s", extra="startup_timeout_sec = 30") + srv("fast", "f"),
        finding="slow_server",
    ),
    CodexCase(
        "slow_server_joins_a_later_request",
        srv("slow", "--delay", "6", "s")
        + srv("fast", "--call-delay", "10", "f", extra='default_tools_approval_mode = "approve"'),
        replies=(
            {"tool_calls": [{"name": "f", "namespace": "mcp__fast"}]},
            {"tool_calls": [{"name": "f", "namespace": "mcp__fast"}]},
            {"text": "done"},
        ),
        finding="slow_server",
    ),
)

CASES = CASES + ROUND2
