"""Classes F, G, I for Claude Code 2.1.332: where deferred tools are listed per model; how names are
sanitised; the environment a stdio server gets; the first request's timing against a slow server
(default settings: no CLAUDE_CODE_MCP_STARTUP_WAIT_MS), with and without MCP_TIMEOUT."""

from __future__ import annotations

import functools
import json

from x_codex import raw_timing, timing
from xlib import (
    CLAUDE,
    captured,
    claude,
    claude_env,
    first_offer,
    messages_requests,
    new_root,
    raw,
    repeated,
    run_jobs,
    server,
    write,
)

U = "home/.claude.json"


def f_model(model: str) -> dict:
    root = new_root("f")
    write(root, {U: {"mcpServers": {"u": raw("a", "b")}}, "proj/x": ""})
    reqs = messages_requests(claude(root, args=("--model", model)))
    if not reqs:
        return {"requests": 0}
    r = reqs[0]
    return {
        "model": r["model"],
        "mcp_full": r["mcp_full"],
        "listed_in": [
            (m["index"], m["role"]) for m in r["listed_in_messages"] if any("mcp__" in n for n in m["names"])
        ],
        "capture_deferred_names": r["capture_deferred_names"],
    }


def g_names() -> dict:
    servers = {
        "e\U0001f600": raw("x"),
        "a/b": raw("x"),
        "a@b": raw("x"),
        "a:b": raw("x"),
        "caf\u00e9": raw("x"),
        "t": raw("emo\U0001f600ji", "sl/ash", "at@t", "n" * 70),
        "s" * 60: raw("t" * 60),
    }
    root = new_root("g")
    write(root, {U: {"mcpServers": servers}, "proj/x": ""})
    return {"offered": first_offer(claude(root))}


def g_colon_tool() -> dict:
    """Tool names with ':' (rawmcp.py reads ':' as its flag separator, so the SDK server serves these)."""
    root = new_root("g2")
    write(
        root,
        {
            U: {
                "mcpServers": {
                    "s": {"command": "$PY", "args": ["$SDK", str(root / "o.json"), "0", "co:lon", "p.q", "sp ace"]}
                }
            },
            "proj/x": "",
        },
    )
    return {"offered": first_offer(claude(root))}


def i_env() -> dict:
    root = new_root("cl-env")
    out = root / "env.json"
    write(
        root,
        {
            U: {
                "mcpServers": {
                    "s": {"command": "$PY", "args": ["$SDK", str(out), "0", "x"], "env": {"XPROBE_CFG": "cfg"}}
                }
            },
            "proj/x": "",
        },
    )
    r = claude(root, env=claude_env(root, {"XPROBE_SHELL": "from-shell", "LANG": "C.UTF-8"}))
    got = json.loads(out.read_text()) if out.exists() else None
    return {"offered": first_offer(r), "env_keys": got and got["env_keys"], "xprobe": got and got["env_values_of"]}


def i_timing(delay: float, extra: dict[str, str]) -> dict:
    root = new_root("cl-t")
    out = root / "srv.json"
    write(
        root, {U: {"mcpServers": {"s": {"command": "$PY", "args": ["$SDK", str(out), str(delay), "x"]}}}, "proj/x": ""}
    )
    r = claude(root, env=claude_env(root, extra, wait_ms=None))
    return timing(r, out)


def i_raw_timing(delay: float, extra: dict[str, str]) -> dict:
    root = new_root("cl-rt")
    write(root, {U: {"mcpServers": {"s": raw("--delay", str(delay), "x")}}, "proj/x": ""})
    return raw_timing(claude(root, env=claude_env(root, extra, wait_ms=None)))


def user_agent(extra: dict[str, str]) -> dict:
    """The user agent of ``claude -p`` (optionally with CLAUDE_CODE_ENTRYPOINT set by the caller)."""
    root = new_root("ua")
    r = claude(root, env=claude_env(root, extra))
    return {"user_agents": sorted({q["user_agent"] for q in messages_requests(r)})}


def user_agent_interactive() -> dict:
    """An interactive session in a pseudo-terminal (``script``), onboarding and trust pre-accepted,
    typing "hi" + Enter after 20 s; the session ends when its input closes (~70 s)."""
    root = new_root("uai")
    write(
        root,
        {
            U: {
                "hasCompletedOnboarding": True,
                "theme": "dark",
                "projects": {"$D/proj": {"hasTrustDialogAccepted": True}},
            },
            "proj/x": "",
        },
    )
    typed = f"(sleep 20; printf hi; sleep 2; printf '\\r'; sleep 45) | script -qfec {CLAUDE} /dev/null"
    r = captured(["sh", "-c", typed], root, root / "proj", claude_env(root), server())
    return {
        "user_agents": sorted({q["user_agent"] for q in messages_requests(r)}),
        "requests": len(messages_requests(r)),
    }


if __name__ == "__main__":
    jobs = {
        f"F_model_{m}": functools.partial(repeated, f_model, m)
        for m in (
            "claude-opus-5-5",
            "claude-sonnet-4-5",
            "claude-opus-4-1",
            "claude-haiku-4-5",
            "claude-sonnet-4-6",
            "claude-opus-4-7",
            "claude-fable-5",
        )
    }
    jobs |= {
        "G_names": functools.partial(repeated, g_names),
        "G_colon_tool": functools.partial(repeated, g_colon_tool),
        "UA_p": functools.partial(repeated, user_agent, {}),
        "UA_interactive": functools.partial(repeated, user_agent_interactive),
        "UA_p_entrypoint_cli": functools.partial(repeated, user_agent, {"CLAUDE_CODE_ENTRYPOINT": "cli"}),
        "I_env": functools.partial(repeated, i_env),
        "I_raw_delay_0": functools.partial(repeated, i_raw_timing, 0, {}),
        "I_raw_delay_1": functools.partial(repeated, i_raw_timing, 1, {}),
        "I_raw_delay_1.5": functools.partial(repeated, i_raw_timing, 1.5, {}),
        "I_raw_delay_2.0": functools.partial(repeated, i_raw_timing, 2.0, {}),
        "I_raw_delay_2.5": functools.partial(repeated, i_raw_timing, 2.5, {}),
        "I_raw_delay_2.5_MCP_TIMEOUT_10000": functools.partial(repeated, i_raw_timing, 2.5, {"MCP_TIMEOUT": "10000"}),
        "I_raw_delay_2.5_WAIT_MS_5000": functools.partial(
            repeated, i_raw_timing, 2.5, {"CLAUDE_CODE_MCP_STARTUP_WAIT_MS": "5000"}
        ),
        "I_timing_0s_default": functools.partial(repeated, i_timing, 0, {}),
        "I_timing_2.5s_default": functools.partial(repeated, i_timing, 2.5, {}),
        "I_timing_6s_default": functools.partial(repeated, i_timing, 6, {}),
        "I_timing_2.5s_MCP_TIMEOUT_1000": functools.partial(repeated, i_timing, 2.5, {"MCP_TIMEOUT": "1000"}),
        "I_timing_2.5s_WAIT_MS_5000": functools.partial(
            repeated, i_timing, 2.5, {"CLAUDE_CODE_MCP_STARTUP_WAIT_MS": "5000"}
        ),
    }
    run_jobs(jobs)
