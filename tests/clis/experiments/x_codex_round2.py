"""Open Codex 0.171.0 questions of the second #32 round: profile layering and its errors, a server without a
transport, ``-c`` on a plain dotted key, trust entries above the git root, and a server needing a shell variable."""

from __future__ import annotations

import functools

from x_codex import trust
from xlib import codex, first_offer, git, git_repo, messages_requests, new_root, repeated, run_jobs, srv, write


def result(r: dict) -> dict:
    reqs = messages_requests(r)
    return {
        "exit": r["exit"],
        "requests": len(reqs),
        "model": reqs[0]["model"] if reqs else None,
        "offered": first_offer(r),
        "stderr": r["stderr"][-300:] if r["exit"] else "",
    }


def profile_layering() -> dict:
    """config.toml: u enabled, v (tool a); p.config.toml: u disabled, v's tools replaced, w; trusted project overrides w."""
    root = new_root("cx2-pl")
    git_repo(root / "proj")
    write(
        root,
        {
            "codexhome/p.config.toml": srv("u", "x", extra="enabled = false") + srv("v", "b") + srv("w", "c"),
            "proj/.codex/config.toml": srv("w", "d"),
        },
    )
    return result(codex(root, srv("u", "x") + srv("v", "a") + trust("$D/proj"), args=("--profile", "p")))


def profile_missing() -> dict:
    return result(codex(new_root("cx2-pm"), srv("u", "x"), args=("--profile", "nope")))


def profile_table_unused() -> dict:
    return result(codex(new_root("cx2-pt"), '[profiles.p]\nmodel = "o3"\n' + srv("u", "x")))


def profile_trust_in_profile() -> dict:
    """The trust entry only in p.config.toml: does the profile file grant trust?"""
    root = new_root("cx2-ptr")
    git_repo(root / "proj")
    write(root, {"codexhome/p.config.toml": trust("$D/proj"), "proj/.codex/config.toml": srv("pp", "x")})
    return result(codex(root, srv("u", "y"), args=("--profile", "p")))


def no_transport(where: str) -> dict:
    root = new_root("cx2-nt")
    if where == "config":
        return result(codex(root, "[mcp_servers.empty]\nenabled = true\n" + srv("u", "x")))
    return result(codex(root, srv("u", "x"), args=("-c", "mcp_servers.ghost.enabled=false")))


def c_plain(override: str) -> dict:
    return result(codex(new_root("cx2-c"), srv("u", "x") + srv("v", "y"), args=("-c", override)))


def trust_above_root() -> dict:
    root = new_root("cx2-ta")
    git_repo(root / "repo")
    write(root, {"repo/.codex/config.toml": srv("atroot", "x"), "repo/sub/x": ""})
    r = codex(root, trust("$D"), cwd="repo/sub")
    return result(r) | {"untrusted_warning": "Untrusted" in r["stderr"]}


def nogit_parent_codex() -> dict:
    """No git: cwd proj/sub, .codex at proj and proj/sub, trust on proj."""
    root = new_root("cx2-ng")
    write(root, {"proj/.codex/config.toml": srv("atproj", "x"), "proj/sub/.codex/config.toml": srv("atsub", "x")})
    r = codex(root, trust("$D/proj"), cwd="proj/sub")
    return result(r) | {"untrusted_warning": "Untrusted" in r["stderr"]}


def worktree_main_codex() -> dict:
    """Worktree wt of repo; .codex in repo (not committed) and in wt; trust on repo; cwd wt/sub."""
    root = new_root("cx2-wm")
    git_repo(root / "repo")
    git(root / "repo", "worktree", "add", "-q", str(root / "wt"), "-b", "w")
    write(
        root, {"repo/.codex/config.toml": srv("inmain", "x"), "wt/.codex/config.toml": srv("inwt", "x"), "wt/sub/x": ""}
    )
    r = codex(root, trust("$D/repo"), cwd="wt/sub")
    return result(r) | {"untrusted_warning": "Untrusted" in r["stderr"]}


def same_server_depths() -> dict:
    """The same server at root and sub .codex: which wins (sub nearer the cwd?)."""
    root = new_root("cx2-sd")
    git_repo(root / "repo")
    write(root, {"repo/.codex/config.toml": srv("s", "rootool"), "repo/sub/.codex/config.toml": srv("s", "subtool")})
    return result(codex(root, trust("$D/repo"), cwd="repo/sub"))


def required_ok_other_fails() -> dict:
    root = new_root("cx2-rq")
    return result(codex(root, srv("bad", "--fail") + srv("ok", "x", extra="required = true")))


def required_disabled() -> dict:
    root = new_root("cx2-rd")
    return result(codex(root, srv("bad", "--fail", extra="required = true\nenabled = false") + srv("ok", "x")))


def env_needed(named: bool) -> dict:
    """A server that exits unless XNEED is set; the shell sets it; env_vars names it or not."""
    root = new_root("cx2-en")
    extra = 'env_vars = ["XNEED"]\n' if named else ""
    cfg = (
        '[mcp_servers.needs]\ncommand = "/bin/sh"\n'
        'args = ["-c", "test -n \\"$XNEED\\" || exit 3; exec \\"$0\\" \\"$1\\" x", "$PY", "$RAW"]\n'
        + extra
        + srv("ok", "y")
    )
    return result(codex(root, cfg, env={"XNEED": "1"}))


if __name__ == "__main__":
    jobs = {
        "P_layering": functools.partial(repeated, profile_layering),
        "P_missing": functools.partial(repeated, profile_missing),
        "P_table_unused": functools.partial(repeated, profile_table_unused),
        "P_trust_in_profile": functools.partial(repeated, profile_trust_in_profile),
        "T_no_transport_config": functools.partial(repeated, no_transport, "config"),
        "T_no_transport_c": functools.partial(repeated, no_transport, "c"),
        "C_plain_enabled_false": functools.partial(repeated, c_plain, "mcp_servers.u.enabled=false"),
        "C_quoted_plain_name": functools.partial(repeated, c_plain, 'mcp_servers."u".enabled=false'),
        "A_trust_above_root": functools.partial(repeated, trust_above_root),
        "A_nogit_parent_codex": functools.partial(repeated, nogit_parent_codex),
        "A_worktree_main_codex": functools.partial(repeated, worktree_main_codex),
        "A_same_server_depths": functools.partial(repeated, same_server_depths),
        "R_required_ok_other_fails": functools.partial(repeated, required_ok_other_fails),
        "R_required_disabled": functools.partial(repeated, required_disabled),
        "E_env_needed_unnamed": functools.partial(repeated, env_needed, False),
        "E_env_needed_named": functools.partial(repeated, env_needed, True),
    }
    run_jobs(jobs)
