"""Class C: which permission-deny patterns remove which MCP tools in Claude Code (a deny removes the
tool from everything the model sees, so the first request decides). One user-scope server per name."""

from __future__ import annotations

import functools

from xlib import claude, emit, first_offer, new_root, parallel, raw, repeated, write

SERVERS = {"gh": raw("delete_repo", "delete_issue", "list_repos"), "ghx": raw("delete_repo"), "other": raw("y")}
PATTERNS = [
    "mcp__gh__delete_*",
    "mcp__*",
    "mcp__g*",
    "mcp__gh*",
    "mcp__*__delete_repo",
    "mcp__gh__delete_?epo",
    "mcp__gh__[d]elete_repo",
    "*",
]
ALL = ["mcp__gh__delete_repo", "mcp__gh__delete_issue", "mcp__gh__list_repos", "mcp__ghx__delete_repo", "mcp__other__y"]


def offered(pattern: str) -> list[str]:
    root = new_root("c")
    write(
        root,
        {
            "home/.claude.json": {"mcpServers": SERVERS},
            "proj/x": "",
            "home/.claude/settings.json": {"permissions": {"deny": [pattern]}},
        },
    )
    return first_offer(claude(root))


if __name__ == "__main__":
    jobs = {p: functools.partial(repeated, offered, p) for p in PATTERNS}
    results = parallel(jobs, workers=2)
    all_tools = set(ALL)
    emit(
        {
            "all": ALL,
            "removed_by_pattern": {
                p: {"removed": sorted(all_tools - set(r["observed"])), "stable": r["stable"]}
                for p, r in results.items()
            },
        }
    )
