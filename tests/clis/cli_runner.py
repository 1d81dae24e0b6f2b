"""Run the real Claude Code under ``toolscope capture`` for one matrix case, and toolscope on the same files.

The binary comes from ``$CLIS_NPM_DIR/node_modules/.bin`` (``.ci/clis.sh`` installs the
pinned versions there). Each run gets a fresh root with ``home/`` (HOME), ``proj/`` (the cwd)
and, for managed cases, ``etc/`` mounted over /etc in a private mount namespace (``unshare``,
root only), so the machine's /etc/claude-code is never touched.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent
RAW = HERE / "rawmcp.py"
CLAUDE_VERSION = "2.1.332"
CODEX_VERSION = "0.171.0"


def bin_path(name: str) -> Path | None:
    """The installed CLI binary, or None when the lane's folder is not set up."""
    root = os.environ.get("CLIS_NPM_DIR")
    if not root:
        return None
    path = Path(root) / "node_modules" / ".bin" / name
    return path if path.exists() else None


def can_overlay_etc() -> bool:
    """A private mount namespace with /etc overlaid works here (root with unshare)."""
    return os.geteuid() == 0 and shutil.which("unshare") is not None


def skip_unless_runnable(name: str, label: str, managed: bool, etc: str) -> None:
    """Skip a real-CLI case when ``name`` is not installed, or when the case has managed
    settings (in ``etc``) and this machine cannot give it a private /etc."""
    import pytest

    if bin_path(name) is None:
        pytest.skip(f"{label} not installed (run .ci/clis.sh, or set CLIS_NPM_DIR)")
    if managed and not can_overlay_etc():
        pytest.skip(f"managed settings live in {etc}: needs root and unshare for a private /etc")


def _subst(value: Any, root: Path) -> Any:
    text = json.dumps(value, ensure_ascii=False)
    text = text.replace("$D", str(root)).replace("$PY", sys.executable).replace("$RAW", str(RAW))
    return json.loads(text)


def git_setup(root: Path, repos: tuple[str, ...], worktrees: tuple[tuple[str, str], ...]) -> None:
    """Make each folder a git repository with one empty commit, then add the worktrees."""
    git = ["git", "-c", "user.email=lane@example.invalid", "-c", "user.name=lane", "-c", "init.defaultBranch=main"]
    for repo in repos:
        (root / repo).mkdir(parents=True, exist_ok=True)
        subprocess.run([*git, "init", "-q"], cwd=root / repo, check=True, timeout=60)
        subprocess.run([*git, "commit", "-q", "--allow-empty", "-m", "init"], cwd=root / repo, check=True, timeout=60)
    for repo, tree in worktrees:
        subprocess.run([*git, "worktree", "add", "-q", str(root / tree)], cwd=root / repo, check=True, timeout=60)


def write_case(files: dict[str, Any], root: Path) -> None:
    """Write the case's files under ``root`` (``$D``/``$PY``/``$RAW`` substituted)."""
    for sub in ("home", "proj"):
        (root / sub).mkdir(parents=True, exist_ok=True)
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content if isinstance(content, str) else json.dumps(_subst(content, root)), encoding="utf-8")


def overlay_prefix(root: Path) -> list[str]:
    """Run the rest of the command with ``root/etc`` laid over /etc (private mount namespace)."""
    (root / "ovw").mkdir(exist_ok=True)
    script = f'mount -t overlay overlay -o lowerdir=/etc,upperdir={root}/etc,workdir={root}/ovw /etc && exec "$@"'
    return ["unshare", "-m", "--propagation", "private", "sh", "-c", script, "sh"]


def claude_env(root: Path, extra: dict[str, str]) -> dict[str, str]:
    """The environment of a captured Claude Code run: fresh HOME, dummy key, no telemetry, wait for servers."""
    env = {
        "PATH": "/usr/bin:/bin",
        "HOME": str(root / "home"),
        "ANTHROPIC_API_KEY": "sk-test",
        "DISABLE_TELEMETRY": "1",
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        # Without it the first request leaves ~150 ms after start, before slower servers list their tools.
        "CLAUDE_CODE_MCP_STARTUP_WAIT_MS": "20000",
    }
    env.update(extra)
    return env


def run_captured(
    command: list[str],
    root: Path,
    env: dict[str, str],
    replies: list[Any] | None,
    timeout: float = 420,
    port: int | None = None,
    cwd: str = "proj",
) -> Path:
    """``toolscope capture -o FILE [--replies R] --keep-messages -- COMMAND`` in ``root/cwd``; the capture file."""
    capture = root / "capture.jsonl"
    args = [sys.executable, "-m", "toolscope", "capture", "-o", str(capture), "--keep-messages"]
    if port is not None:
        args += ["--port", str(port)]
    if replies:
        (root / "replies.json").write_text(json.dumps(replies), encoding="utf-8")
        args += ["--replies", str(root / "replies.json")]
    if (root / "etc").is_dir():
        command = [*overlay_prefix(root), *command]
    full_env = dict(env, PYTHONPATH=os.environ.get("PYTHONPATH", ""))
    full_env["PATH"] = f"{Path(sys.executable).parent}:{full_env['PATH']}"
    done = subprocess.run(
        [*args, "--", *command],
        cwd=root / cwd,
        env=full_env,
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
    )
    (root / "client.out").write_text(done.stdout + "\n--- stderr ---\n" + done.stderr, encoding="utf-8")
    return capture


def message_text(record: Any) -> str:
    """Everything kept of a captured request's messages, as one string (tool results included)."""
    kept = getattr(record, "kept", None)
    if kept is None:
        return ""
    return json.dumps(kept.model_dump() if hasattr(kept, "model_dump") else kept, ensure_ascii=False)


def toolscope_tools(
    input_arg: str, options: list[str], capture: Path, env: dict[str, str], cwd: Path
) -> dict[str, Any]:
    """``toolscope tools INPUT OPTIONS --discover --capture FILE --json`` as a subprocess; the document
    (``--discover``: the binary started the project's servers, so toolscope starts the same ones)."""
    full_env = dict(env, PYTHONPATH=os.environ.get("PYTHONPATH", ""))
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "toolscope",
            "tools",
            input_arg,
            *options,
            "--discover",
            "--capture",
            str(capture),
            "--json",
        ],
        cwd=cwd,
        env=full_env,
        capture_output=True,
        text=True,
        timeout=180,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 0, done.stderr
    from json_contracts import validated

    return validated(done.stdout)


def toolscope_check(arguments: list[str], env: dict[str, str], cwd: Path) -> dict[str, Any]:
    """``toolscope check ARGUMENTS --json`` as a subprocess (exit 0 or 1); the document."""
    full_env = dict(env, PYTHONPATH=os.environ.get("PYTHONPATH", ""))
    done = subprocess.run(
        [sys.executable, "-m", "toolscope", "check", *arguments, "--json"],
        cwd=cwd,
        env=full_env,
        capture_output=True,
        text=True,
        timeout=180,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode in (0, 1), done.stderr
    from json_contracts import validated

    return validated(done.stdout)


def capture_problems(document: dict[str, Any], call: str | None) -> list[str]:
    """Everything in the ``capture`` block that is not agreement (empty: toolscope agrees with the binary).

    Every request must agree (names, full/deferred, calls) and carry an ``offer`` block; with a
    scripted ``call`` its outcome must have been read (not "unknown") and agree.
    """
    block = document["capture"]
    problems = []
    for request in block["requests"]:
        offer = request["offer"]
        if offer is None:
            problems.append(f"request {request['request']}: no offer block")
            continue
        if not request["agrees"]:
            problems += [f"request {request['request']}: {d}" for d in offer["differences"]]
            problems += [f"request {request['request']}: missing {n}" for n in request["missing"]]
            problems += [f"request {request['request']}: unexpected {n}" for n in request["unexpected"]]
        for checked in offer["calls"]:
            if checked["agrees"] is False:
                problems.append(
                    f"request {request['request']}: toolscope says {checked['tool']} callable="
                    f"{checked['predicted_callable']}, the binary {checked['outcome']} it ({checked['evidence']!r})"
                )
    if not block["agrees"] and not problems:
        problems.append("capture.agrees is false")
    if call is not None:
        compared = [
            c for r in block["requests"] for c in (r["offer"] or {}).get("calls", []) if c["agrees"] is not None
        ]
        if not compared:
            problems.append(f"the call of {call} was not compared (no result read from the next request)")
    return problems
