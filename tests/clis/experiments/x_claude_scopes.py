"""Classes A, B, D, E and the ~/.claude.json rewrite, for Claude Code: which MCP tools the first request
offers (full or deferred), the model it names, the exit code, and the files Claude rewrote."""

from __future__ import annotations

import functools
import json

from xlib import (
    claude,
    claude_env,
    first_offer,
    git,
    git_repo,
    messages_requests,
    new_root,
    raw,
    repeated,
    run_jobs,
    write,
)

U = "home/.claude.json"


def a_subdir() -> dict:
    """A: from repo/sub, does the git root's settings.local.json / settings.json apply (deny rules)?"""
    root = new_root("a-sub")
    git_repo(root / "repo")
    write(
        root,
        {
            U: {"mcpServers": {"u": raw("a", "b", "c")}},
            "repo/.claude/settings.local.json": {"permissions": {"deny": ["mcp__u__a"]}},
            "repo/.claude/settings.json": {"permissions": {"deny": ["mcp__u__b"]}},
            "repo/sub/x": "",
        },
    )
    return {"offered": first_offer(claude(root, cwd="repo/sub"))}


def a_subdir_local_scope() -> dict:
    """A: local-scope servers keyed by the git root, the cwd, run from repo/sub; .mcp.json at the root."""
    root = new_root("a-subl")
    git_repo(root / "repo")
    write(
        root,
        {
            U: {
                "projects": {
                    "$D/repo": {"mcpServers": {"lroot": raw("x")}},
                    "$D/repo/sub": {"mcpServers": {"lsub": raw("x")}},
                }
            },
            "repo/.mcp.json": {"mcpServers": {"p": raw("x")}},
            "repo/sub/x": "",
        },
    )
    return {"offered": first_offer(claude(root, cwd="repo/sub"))}


def a_worktree() -> dict:
    """A: in a linked worktree: local scope keyed by the main repo vs the worktree; settings.local of each."""
    root = new_root("a-wt")
    git_repo(root / "repo")
    git(root / "repo", "worktree", "add", "-q", str(root / "wt"), "-b", "w")
    write(
        root,
        {
            U: {
                "projects": {
                    "$D/repo": {"mcpServers": {"lmain": raw("x", "y")}},
                    "$D/wt": {"mcpServers": {"lwt": raw("x")}},
                }
            },
            "repo/.claude/settings.local.json": {"permissions": {"deny": ["mcp__lmain__y"]}},
        },
    )
    return {"offered": first_offer(claude(root, cwd="wt"))}


def b_same_name() -> dict:
    """B: .mcp.json 't' disabled by disabledMcpjsonServers, user 't' of the same name."""
    root = new_root("b")
    write(
        root,
        {
            U: {"mcpServers": {"t": raw("user_tool")}},
            "proj/.mcp.json": {"mcpServers": {"t": raw("proj_tool")}},
            "proj/.claude/settings.local.json": {"disabledMcpjsonServers": ["t"]},
        },
    )
    return {"offered": first_offer(claude(root))}


def d_setting_sources(sources: str) -> dict:
    root = new_root("d-ss")
    write(
        root,
        {
            U: {"mcpServers": {"u": raw("a", "b", "c")}},
            "home/.claude/settings.json": {"permissions": {"deny": ["mcp__u__a"]}},
            "proj/.claude/settings.json": {"permissions": {"deny": ["mcp__u__b"]}},
            "proj/.claude/settings.local.json": {"permissions": {"deny": ["mcp__u__c"]}},
        },
    )
    args = ("--setting-sources", sources) if sources else ()
    return {"offered": first_offer(claude(root, args=args))}


def d_sources_servers(sources: str) -> dict:
    """D: which server scopes survive --setting-sources (no rules at all): user, local, .mcp.json, --mcp-config."""
    root = new_root("d-srv")
    write(
        root,
        {
            U: {"mcpServers": {"user": raw("x")}, "projects": {"$D/proj": {"mcpServers": {"local": raw("x")}}}},
            "proj/.mcp.json": {"mcpServers": {"proj": raw("x")}},
            "cfg.json": {"mcpServers": {"dyn": raw("x")}},
        },
    )
    args = ("--mcp-config", "$D/cfg.json") + (("--setting-sources", sources) if sources else ())
    return {"offered": first_offer(claude(root, args=args))}


def d_mcp_config_with_managed() -> dict:
    root = new_root("d-mm")
    write(
        root,
        {
            "etc/claude-code/managed-mcp.json": {"mcpServers": {"m": raw("x")}},
            "cfg.json": {"mcpServers": {"d": raw("y")}},
            "proj/x": "",
        },
    )
    r = claude(root, args=("--mcp-config", "$D/cfg.json"))
    return {
        "exit": r["exit"],
        "requests": len(messages_requests(r)),
        "stderr": r["stderr"][-200:],
        "stdout": r["stdout"][-200:],
    }


def d_model(env_model: str | None) -> dict:
    """D: model by scope (user opus-5-5, project sonnet-4-5, local haiku-4-5) and ANTHROPIC_MODEL."""
    root = new_root("d-model")
    write(
        root,
        {
            "home/.claude/settings.json": {"model": "claude-opus-5-5"},
            "proj/.claude/settings.json": {"model": "claude-sonnet-4-5"},
            "proj/.claude/settings.local.json": {"model": "claude-3-5-haiku-20241022"},
            U: {"mcpServers": {"u": raw("a")}},
        },
    )
    extra = {"ANTHROPIC_MODEL": env_model} if env_model else {}
    r = claude(root, env=claude_env(root, extra))
    reqs = messages_requests(r)
    return {"model": reqs[0]["model"] if reqs else None, "mcp_full": reqs[0]["mcp_full"] if reqs else None}


def d_model_two_scopes() -> dict:
    """D: user + project only (no local)."""
    root = new_root("d-model2")
    write(
        root,
        {
            "home/.claude/settings.json": {"model": "claude-3-5-haiku-20241022"},
            "proj/.claude/settings.json": {"model": "claude-sonnet-4-5"},
            U: {"mcpServers": {"u": raw("a")}},
        },
    )
    reqs = messages_requests(claude(root))
    return {"model": reqs[0]["model"] if reqs else None, "mcp_full": reqs[0]["mcp_full"] if reqs else None}


def e_vars() -> dict:
    """E: ${VAR} and ${VAR:-default} in .mcp.json command args and env: what the server receives."""
    root = new_root("e")
    out = root / "env.json"
    write(
        root,
        {
            "proj/.mcp.json": {
                "mcpServers": {
                    "s": {
                        "command": "$PY",
                        "args": ["$SDK", "${XPROBE_OUT}", "0", "${XPROBE_TOOL:-deftool}"],
                        "env": {
                            "XPROBE_A": "${XPROBE_SECRET}",
                            "XPROBE_B": "${XPROBE_UNSET:-fallback}",
                            "XPROBE_C": "pre-${XPROBE_SECRET}-post",
                            "XPROBE_D": "$XPROBE_SECRET",
                        },
                    }
                }
            }
        },
    )
    r = claude(root, env=claude_env(root, {"XPROBE_OUT": str(out), "XPROBE_SECRET": "s3cr3t"}))
    got = json.loads(out.read_text()) if out.exists() else None
    return {
        "offered": first_offer(r),
        "server_argv": got and got["argv"][1:],
        "server_env": got and got["env_values_of"],
    }


def rewrite() -> dict:
    """~/.claude.json projects[root] enabled/disabled keys, first run from repo/sub: what moves where."""
    root = new_root("rw")
    git_repo(root / "repo")
    before = {
        "projects": {
            "$D/repo": {
                "enabledMcpjsonServers": ["p"],
                "disabledMcpjsonServers": ["q"],
                "mcpServers": {"l": raw("x")},
                "allowedTools": ["mcp__l__x"],
            }
        }
    }
    write(root, {U: before, "repo/.mcp.json": {"mcpServers": {"p": raw("x"), "q": raw("y")}}, "repo/sub/x": ""})
    r = claude(root, cwd="repo/sub")
    after = json.loads((root / U).read_text())
    local = root / "repo/.claude/settings.local.json"
    sublocal = root / "repo/sub/.claude/settings.local.json"
    return {
        "offered": first_offer(r),
        "projects_after": {k.replace(str(root), "$D"): sorted(v) for k, v in after.get("projects", {}).items()},
        "root_settings_local": json.loads(local.read_text()) if local.exists() else None,
        "sub_settings_local": json.loads(sublocal.read_text()) if sublocal.exists() else None,
        "top_keys_after": sorted(after),
    }


if __name__ == "__main__":
    jobs = {
        "A_subdir_root_settings": functools.partial(repeated, a_subdir),
        "A_subdir_local_scope_and_mcp_json": functools.partial(repeated, a_subdir_local_scope),
        "A_worktree": functools.partial(repeated, a_worktree),
        "B_disabled_project_same_name_user": functools.partial(repeated, b_same_name),
        "D_setting_sources_none": functools.partial(repeated, d_setting_sources, ""),
        "D_setting_sources_user": functools.partial(repeated, d_setting_sources, "user"),
        "D_setting_sources_project": functools.partial(repeated, d_setting_sources, "project"),
        "D_setting_sources_local": functools.partial(repeated, d_setting_sources, "local"),
        "D_sources_servers_all": functools.partial(repeated, d_sources_servers, ""),
        "D_sources_servers_user": functools.partial(repeated, d_sources_servers, "user"),
        "D_sources_servers_project": functools.partial(repeated, d_sources_servers, "project"),
        "D_sources_servers_local": functools.partial(repeated, d_sources_servers, "local"),
        "D_sources_servers_project_local": functools.partial(repeated, d_sources_servers, "project,local"),
        "D_mcp_config_with_managed_mcp": functools.partial(repeated, d_mcp_config_with_managed),
        "D_model_three_scopes": functools.partial(repeated, d_model, None),
        "D_model_env_ANTHROPIC_MODEL": functools.partial(repeated, d_model, "claude-sonnet-4-5"),
        "D_model_user_and_project": functools.partial(repeated, d_model_two_scopes),
        "E_vars": functools.partial(repeated, e_vars),
        "rewrite_claude_json": functools.partial(repeated, rewrite),
    }
    run_jobs(jobs)
