"""Classes A, G, H, I for Codex 0.171.0: trust and .codex/ folders by git root, subdirectory and worktree;
name sanitising; required servers, profiles, ``-c`` key splitting; the environment a stdio server gets
and the first request's timing against a server that sleeps before serving."""

from __future__ import annotations

import functools
import json
from datetime import datetime

from xlib import RAW, codex, first_offer, git, git_repo, messages_requests, new_root, repeated, run_jobs, srv, write


def trust(path: str) -> str:
    return f'[projects."{path}"]\ntrust_level = "trusted"\n'


def a_subdir(trusted: str) -> dict:
    """repo (git) with .codex at root and at sub; cwd repo/sub; trust on `trusted`."""
    root = new_root("cx-a")
    git_repo(root / "repo")
    write(
        root,
        {
            "repo/.codex/config.toml": srv("atroot", "x"),
            "repo/sub/.codex/config.toml": srv("atsub", "x"),
            "repo/sub/deeper/x": "",
        },
    )
    r = codex(root, trust(f"$D/{trusted}") if trusted else "", cwd="repo/sub/deeper")
    return {"offered": first_offer(r), "exit": r["exit"], "untrusted_warning": "Untrusted" in r["stderr"]}


def a_worktree(trusted: str) -> dict:
    root = new_root("cx-wt")
    git_repo(root / "repo")
    git(root / "repo", "worktree", "add", "-q", str(root / "wt"), "-b", "w")
    write(root, {"wt/.codex/config.toml": srv("inwt", "x")})
    r = codex(root, trust(f"$D/{trusted}"), cwd="wt")
    return {"offered": first_offer(r), "exit": r["exit"], "untrusted_warning": "Untrusted" in r["stderr"]}


def g_names() -> dict:
    config = "".join(
        [
            srv("a/b", "x"),
            srv("a@b", "x"),
            srv("a:b", "x"),
            srv("e\U0001f600", "x"),
            srv("t", "sl/ash", "at@t", "emo\U0001f600ji", "caf\u00e9", "n" * 70),
        ]
    )
    r = codex(new_root("cx-g"), config)
    return {
        "offered": first_offer(r),
        "stderr_lines": [ln[:200] for ln in r["stderr"].splitlines() if "must match" in ln or "invalid" in ln.lower()][
            :5
        ],
    }


def g_colon_tool() -> dict:
    root = new_root("cx-g2")
    names = json.dumps([str(RAW), "--verbatim", "co:lon", "p.q", "sp ace", "x@y", "a/b"])
    config = f'[mcp_servers.s]\ncommand = "$PY"\nargs = {names}\n'
    return {"offered": first_offer(codex(root, config))}


def h_required() -> dict:
    root = new_root("cx-req")
    r = codex(root, srv("bad", "--fail", extra="required = true") + srv("ok", "x"))
    return {"exit": r["exit"], "requests": len(messages_requests(r)), "stderr": r["stderr"][-300:]}


def h_profile(style: str) -> dict:
    """--profile p with $CODEX_HOME/p.config.toml, or [profiles.p] in config.toml, or a top-level profile key."""
    root = new_root("cx-prof")
    files = {"codexhome/p.config.toml": 'model = "o3"\n' + srv("fromfile", "x")}
    config, args = "", ("--profile", "p")
    if style == "table":
        files = {}
        config = '[profiles.p]\nmodel = "o3"\n'
    elif style == "legacy_key":
        config, args = 'profile = "p"\n', ()
    write(root, files)
    if style == "legacy_key":  # the key must be top level: before the model line the harness writes
        r = codex(root, "", args=args, env={}, model='gpt-4.1"\nprofile = "p')
    else:
        r = codex(root, config, args=args)
    reqs = messages_requests(r)
    return {
        "exit": r["exit"],
        "model": reqs[0]["model"] if reqs else None,
        "offered": first_offer(r),
        "stderr": r["stderr"][-250:] if r["exit"] else "",
    }


def h_c_dots(override: str) -> dict:
    root = new_root("cx-c")
    r = codex(root, srv("a.b", "x") + srv("u", "y"), args=("-c", override))
    return {"exit": r["exit"], "offered": first_offer(r), "stderr": r["stderr"][-250:] if r["exit"] else ""}


def i_env(env_vars: str) -> dict:
    root = new_root("cx-env")
    out = root / "env.json"
    extra = f"env_vars = {env_vars}\n" if env_vars else ""
    config = f'[mcp_servers.s]\ncommand = "$PY"\nargs = ["$SDK", "{out}", "0", "x"]\n{extra}'
    r = codex(
        root, config, env={"XPROBE_SHELL": "from-shell", "XPROBE_NAMED": "named", "LANG": "C.UTF-8", "TERM": "dumb"}
    )
    got = json.loads(out.read_text()) if out.exists() else None
    return {"offered": first_offer(r), "env_keys": got and got["env_keys"], "xprobe": got and got["env_values_of"]}


PROBE_ENV = {
    "XPROBE_SHELL": "from-shell",
    "USER": "u",
    "LOGNAME": "u",
    "SHELL": "/bin/sh",
    "TMPDIR": "/tmp",
    "TZ": "UTC",
    "LC_ALL": "C.UTF-8",
    "LC_CTYPE": "C.UTF-8",
    "LANG": "C.UTF-8",
    "TERM": "dumb",
    "VIRTUAL_ENV": "/v",
    "PYTHONPATH": "/p",
    "XDG_CONFIG_HOME": "/x",
    "XDG_RUNTIME_DIR": "/r",
    "SSL_CERT_FILE": "/c",
    "HTTPS_PROXY": "http://127.0.0.1:9",
    "NO_PROXY": "*",
    "NODE_OPTIONS": "",
    "DISPLAY": ":0",
    "SYSTEMROOT": "x",
    "__CF_USER_TEXT_ENCODING": "x",
    "NVM_DIR": "/n",
    "COLORTERM": "x",
    "EDITOR": "vi",
}


def i_env_whitelist() -> dict:
    root = new_root("cx-envw")
    out = root / "env.json"
    config = f'[mcp_servers.s]\ncommand = "$PY"\nargs = ["$SDK", "{out}", "0", "x"]\nenv = {{ XPROBE_CFG = "cfg" }}\n'
    r = codex(root, config, env=PROBE_ENV)
    got = json.loads(out.read_text()) if out.exists() else None
    given = sorted(
        set(PROBE_ENV) | {"PATH", "HOME", "CODEX_HOME", "CAPTURE_KEY", "ANTHROPIC_BASE_URL", "OPENAI_BASE_URL"}
    )
    return {"offered": first_offer(r), "given": given, "server_got": got and got["env_keys"]}


def i_timing(delay: float, startup_timeout: float | None) -> dict:
    root = new_root("cx-t")
    out = root / "srv.json"
    extra = f"startup_timeout_sec = {startup_timeout}\n" if startup_timeout is not None else ""
    config = f'[mcp_servers.s]\ncommand = "$PY"\nargs = ["$SDK", "{out}", "{delay}", "x"]\n{extra}'
    r = codex(root, config)
    return timing(r, out)


def i_raw_timing(delay: float, startup_timeout: float | None) -> dict:
    """The same with the stdlib server rawmcp.py --delay (no SDK import cost): the grace itself."""
    root = new_root("cx-rt")
    extra = f"startup_timeout_sec = {startup_timeout}\n" if startup_timeout is not None else ""
    r = codex(root, srv("s", "--delay", str(delay), "x", extra=extra))
    return raw_timing(r)


def raw_timing(r: dict) -> dict:
    """Exit code and whether the server's tool was in the first request (wall times vary with load: left out)."""
    return {"exit": r["exit"], "requests": len(messages_requests(r)), "in_first_request": bool(first_offer(r))}


def timing(r: dict, out) -> dict:
    reqs = messages_requests(r)
    got = json.loads(out.read_text()) if out.exists() else None
    first = datetime.fromisoformat(reqs[0]["received_at"].replace("Z", "+00:00")).timestamp() if reqs else None
    ready = (
        float(out.with_name(out.name + ".ready").read_text()) if out.with_name(out.name + ".ready").exists() else None
    )
    return {
        "exit": r["exit"],
        "in_first_request": bool(first_offer(r)),
        "in_any_request": any(
            q["mcp_full"] or q["capture_deferred_namespaces"] or q["capture_deferred_names"] for q in reqs
        ),
        "first_request_after_server_spawn_s": round(first - got["started"], 2) if first and got else None,
        "server_ready_after_spawn_s": round(ready - got["started"], 2) if ready and got else None,
        "requests": len(reqs),
    }


if __name__ == "__main__":
    jobs = {
        "A_subdir_trust_git_root": functools.partial(repeated, a_subdir, "repo"),
        "A_subdir_trust_cwd_only": functools.partial(repeated, a_subdir, "repo/sub/deeper"),
        "A_subdir_trust_sub": functools.partial(repeated, a_subdir, "repo/sub"),
        "A_worktree_trust_main_repo": functools.partial(repeated, a_worktree, "repo"),
        "A_worktree_trust_worktree": functools.partial(repeated, a_worktree, "wt"),
        "G_names": functools.partial(repeated, g_names),
        "G_colon_tool": functools.partial(repeated, g_colon_tool),
        "H_required_fails": functools.partial(repeated, h_required),
        "H_profile_file": functools.partial(repeated, h_profile, "file"),
        "H_profile_table": functools.partial(repeated, h_profile, "table"),
        "H_profile_legacy_key": functools.partial(repeated, h_profile, "legacy_key"),
        "H_c_dots_quoted": functools.partial(repeated, h_c_dots, 'mcp_servers."a.b".enabled=false'),
        "H_c_dots_unquoted": functools.partial(repeated, h_c_dots, "mcp_servers.a.b.enabled=false"),
        "I_env_default": functools.partial(repeated, i_env, ""),
        "I_env_vars_named": functools.partial(repeated, i_env, '["XPROBE_NAMED"]'),
        "I_env_whitelist": functools.partial(repeated, i_env_whitelist),
        "I_timing_6s_default": functools.partial(repeated, i_timing, 6, None),
        "I_raw_delay_0": functools.partial(repeated, i_raw_timing, 0, None),
        "I_raw_delay_1": functools.partial(repeated, i_raw_timing, 1, None),
        "I_raw_delay_1.5": functools.partial(repeated, i_raw_timing, 1.5, None),
        "I_raw_delay_2.0": functools.partial(repeated, i_raw_timing, 2.0, None),
        "I_raw_delay_2.5": functools.partial(repeated, i_raw_timing, 2.5, None),
        "I_raw_delay_2.5_startup_timeout_10": functools.partial(repeated, i_raw_timing, 2.5, 10),
        "I_timing_0s": functools.partial(repeated, i_timing, 0, None),
        "I_timing_2.5s_default": functools.partial(repeated, i_timing, 2.5, None),
        "I_timing_2.5s_startup_timeout_10": functools.partial(repeated, i_timing, 2.5, 10),
    }
    run_jobs(jobs)
