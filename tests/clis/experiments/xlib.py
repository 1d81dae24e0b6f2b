"""Shared harness of the #32 experiments: run the real Claude Code / Codex under ``toolscope capture``.

Not a test module (pytest collects ``test_*.py`` only). Each ``x_*.py`` script beside it builds its
setups in a temporary directory, calls :func:`claude` or :func:`codex`, and prints JSON facts.
The binaries come from ``$CLIS_NPM_DIR/node_modules/.bin`` (default ``/work/main/.ci-clis``).
Offline exactly as ``tests/clis`` keeps them: a fresh HOME, ``ANTHROPIC_BASE_URL`` set by
capture, telemetry and non-essential traffic off; Codex through a custom provider on 127.0.0.1.
Files under ``etc/`` are laid over /etc in a private mount namespace (root + unshare), never written to /etc.
"""

from __future__ import annotations

import atexit
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent
RAW = HERE.parent / "rawmcp.py"
SDK_SERVER = HERE / "sdk_server.py"
NPM = Path(os.environ.get("CLIS_NPM_DIR", "/work/main/.ci-clis"))
CLAUDE = NPM / "node_modules" / ".bin" / "claude"
CODEX = NPM / "node_modules" / ".bin" / "codex"
PY = sys.executable
TIMEOUT = float(os.environ.get("X_TIMEOUT", "150"))


def new_root(label: str) -> Path:
    return Path(tempfile.mkdtemp(prefix=f"x-{label}-"))


def subst(text: str, root: Path) -> str:
    return text.replace("$D", str(root)).replace("$PY", PY).replace("$RAW", str(RAW)).replace("$SDK", str(SDK_SERVER))


def write(root: Path, files: dict[str, Any]) -> None:
    """Write files under root; dict values as JSON; ``$D``/``$PY``/``$RAW``/``$SDK`` substituted."""
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        text = content if isinstance(content, str) else json.dumps(content, ensure_ascii=False)
        path.write_text(subst(text, root), encoding="utf-8")


def git(cwd: Path, *args: str) -> None:
    env = {"PATH": "/usr/bin:/bin", "HOME": str(cwd), "GIT_CONFIG_NOSYSTEM": "1"}
    base = ["git", "-c", "user.email=x@x", "-c", "user.name=x", "-c", "init.defaultBranch=main"]
    subprocess.run([*base, *args], cwd=cwd, env=env, check=True, capture_output=True, timeout=30)


def git_repo(path: Path) -> None:
    """A git repository with one commit at ``path``."""
    path.mkdir(parents=True, exist_ok=True)
    git(path, "init", "-q")
    (path / "README").write_text("x\n", encoding="utf-8")
    git(path, "add", "README")
    git(path, "commit", "-qm", "init")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _overlay(root: Path) -> list[str]:
    (root / "ovw").mkdir(exist_ok=True)
    script = f'mount -t overlay overlay -o lowerdir=/etc,upperdir={root}/etc,workdir={root}/ovw /etc && exec "$@"'
    return ["unshare", "-m", "--propagation", "private", "sh", "-c", script, "sh"]


class CaptureServer:
    """One ``toolscope capture`` endpoint (scripted "ok" replies) for the runs of one worker thread.

    Starting toolscope per run costs tens of seconds on a loaded machine, so each worker keeps one
    endpoint and reads the lines a run added. Runs on one endpoint never overlap.
    """

    def __init__(self) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="x-capture-"))
        self.file = self.dir / "capture.jsonl"
        self.port = free_port()
        args = [PY, "-m", "toolscope", "capture", "-o", str(self.file), "--keep-messages", "--port", str(self.port)]
        err = (self.dir / "stderr").open("w")
        self.proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=err, stderr=err, start_new_session=True)
        atexit.register(self.stop)
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            with socket.socket() as sock:
                if sock.connect_ex(("127.0.0.1", self.port)) == 0:
                    return
            if self.proc.poll() is not None:
                break
            time.sleep(0.5)
        raise RuntimeError(f"toolscope capture did not start: {(self.dir / 'stderr').read_text()[-500:]}")

    def lines(self) -> list[str]:
        return self.file.read_text(encoding="utf-8").splitlines() if self.file.exists() else []

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()


_LOCAL = threading.local()


def server() -> CaptureServer:
    if getattr(_LOCAL, "server", None) is None:
        _LOCAL.server = CaptureServer()
    return _LOCAL.server


def captured(command: list[str], root: Path, cwd: Path, env: dict[str, str], srv_: CaptureServer) -> dict[str, Any]:
    """Run ``command`` in ``cwd`` against the worker's capture endpoint; exit code, wall time, output, requests."""
    if (root / "etc").is_dir():
        command = [*_overlay(root), *command]
    full = dict(env)
    full["ANTHROPIC_BASE_URL"] = f"http://127.0.0.1:{srv_.port}"
    full["OPENAI_BASE_URL"] = f"http://127.0.0.1:{srv_.port}/v1"
    before = len(srv_.lines())
    start = time.time()
    proc = subprocess.Popen(
        command,
        cwd=cwd,
        env=full,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        out, err = proc.communicate(timeout=TIMEOUT)
        code: Any = proc.returncode
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        code = "timeout"
    lines = _settled_lines(srv_, before, expect=code == 0)
    cap = root / "capture.jsonl"
    cap.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return {
        "exit": code,
        "started": start,
        "seconds": round(time.time() - start, 2),
        "stdout": out[-1500:],
        "stderr": err[-1500:],
        "capture": str(cap),
        "requests": read_requests(cap),
    }


def _settled_lines(srv_: CaptureServer, before: int, expect: bool) -> list[str]:
    """The lines a run added, once the endpoint has written them (it may flush after the client exits)."""
    deadline = time.monotonic() + (10 if expect else 1)
    seen = -1
    while True:
        time.sleep(0.3)
        lines = srv_.lines()[before:]
        if (lines and len(lines) == seen) or time.monotonic() > deadline:
            return lines
        seen = len(lines)


def _text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(_text_of(c.get("text", "") if isinstance(c, dict) else c) for c in content)
    return ""


def deferred_listing(kept: Any) -> list[dict[str, Any]]:
    """Where the kept request lists deferred tools: message index, role, and the names listed."""
    found: list[dict[str, Any]] = []
    if not isinstance(kept, dict):
        return found
    messages = kept.get("messages") or kept.get("input") or []
    for i, msg in enumerate(messages[:50]):
        if not isinstance(msg, dict):
            continue
        text = _text_of(msg.get("content"))
        marker = "deferred tools are now available"
        if marker in text or "Deferred tool namespaces" in text:
            tail = text.split(marker, 1)[-1] if marker in text else text.split("Deferred tool namespaces", 1)[-1]
            names = [ln.strip().lstrip("- ") for ln in tail.splitlines()[1:200] if ln.strip()]
            names = [n for n in names if n.startswith("mcp__") or n.isidentifier()]
            found.append({"index": i, "role": msg.get("role"), "names": names[:100]})
    return found


def read_requests(cap: Path) -> list[dict[str, Any]]:
    if not cap.exists():
        return []
    rows = []
    for line in cap.read_text(encoding="utf-8").splitlines()[:40]:
        rec = json.loads(line)
        tools = rec.get("tools") or []
        mcp_full = [
            (t["namespace"] + ":" + t["name"]) if t.get("namespace") else t["name"]
            for t in tools
            if not t.get("deferred") and ("mcp__" in t["name"] or (t.get("namespace") or "").startswith("mcp__"))
        ]
        rows.append(
            {
                "protocol": rec["protocol"],
                "received_at": rec["received_at"],
                "model": rec.get("model"),
                "user_agent": rec.get("user_agent"),
                "mcp_full": mcp_full,
                "mcp_defer_loading": [t["name"] for t in tools if t.get("deferred") and "mcp__" in t["name"]],
                "capture_deferred_names": [n for n in (rec.get("deferred_names") or []) if "mcp__" in n],
                "capture_deferred_namespaces": rec.get("deferred_namespaces") or [],
                "listed_in_messages": deferred_listing(rec.get("kept")),
                "tool_calls": [c.get("name") for c in ((rec.get("reply") or {}).get("tool_calls") or [])],
            }
        )
    return rows


def messages_requests(result: dict[str, Any]) -> list[dict[str, Any]]:
    return [r for r in result["requests"] if r["protocol"] in ("anthropic-messages", "openai-responses")]


def claude_env(root: Path, extra: dict[str, str] | None = None, wait_ms: str | None = "20000") -> dict[str, str]:
    env = {
        "PATH": "/usr/bin:/bin",
        "HOME": str(root / "home"),
        "ANTHROPIC_API_KEY": "sk-test",
        "DISABLE_TELEMETRY": "1",
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
    }
    if wait_ms is not None:
        env["CLAUDE_CODE_MCP_STARTUP_WAIT_MS"] = wait_ms
    env.update(extra or {})
    return env


def claude(
    root: Path,
    cwd: str = "proj",
    args: tuple[str, ...] = (),
    env: dict[str, str] | None = None,
    replies: list[Any] | None = None,
    prompt: bool = True,
) -> dict[str, Any]:
    """``claude -p hi ARGS`` in ``root/cwd`` under capture (HOME = root/home)."""
    (root / "home").mkdir(parents=True, exist_ok=True)
    (root / cwd).mkdir(parents=True, exist_ok=True)
    command = [str(CLAUDE), *(["-p", "hi"] if prompt else []), *[subst(a, root) for a in args]]
    return captured(command, root, root / cwd, env or claude_env(root), server())


def codex(
    root: Path,
    config: str,
    cwd: str = "proj",
    model: str = "gpt-4.1",
    args: tuple[str, ...] = (),
    env: dict[str, str] | None = None,
    replies: list[Any] | None = None,
    skip_git_check: bool = True,
) -> dict[str, Any]:
    """``codex exec [--skip-git-repo-check] ARGS hi`` in ``root/cwd``; CODEX_HOME = root/codexhome."""
    srv_ = server()
    port = srv_.port
    home = root / "codexhome"
    home.mkdir(parents=True, exist_ok=True)
    provider = (
        f'\n[model_providers.capture]\nname = "capture"\nbase_url = "http://127.0.0.1:{port}/v1"\n'
        'wire_api = "responses"\nenv_key = "CAPTURE_KEY"\n'
    )
    head = f'model_provider = "capture"\nmodel = "{model}"\n'
    (home / "config.toml").write_text(head + subst(config, root) + provider, encoding="utf-8")
    base = {"PATH": "/usr/bin:/bin", "HOME": str(root / "home"), "CODEX_HOME": str(home), "CAPTURE_KEY": "sk-test"}
    base.update(env or {})
    (root / "home").mkdir(parents=True, exist_ok=True)
    (root / cwd).mkdir(parents=True, exist_ok=True)
    flags = ["--skip-git-repo-check"] if skip_git_check else []
    command = [str(CODEX), "exec", *flags, *[subst(a, root) for a in args], "hi"]
    return captured(command, root, root / cwd, base, srv_)


def summary(result: dict[str, Any]) -> dict[str, Any]:
    """The facts of one run, compact: exit, seconds, and per model request the MCP tools offered."""
    reqs = messages_requests(result)
    return {
        "exit": result["exit"],
        "seconds": result["seconds"],
        "requests": [
            {
                k: r[k]
                for k in ("mcp_full", "mcp_defer_loading", "capture_deferred_names", "capture_deferred_namespaces")
                if r[k]
            }
            | {"listed": [(m["role"], m["names"]) for m in r["listed_in_messages"]]}
            for r in reqs
        ],
        "stderr_tail": result["stderr"][-300:] if result["exit"] not in (0,) else "",
    }


def first_offer(result: dict[str, Any]) -> list[str]:
    """Every MCP tool name of the first model request, full or listed as deferred (sorted)."""
    reqs = messages_requests(result)
    if not reqs:
        return []
    r = reqs[0]
    names = set(r["mcp_full"]) | set(r["mcp_defer_loading"]) | set(r["capture_deferred_names"])
    names |= set(r["capture_deferred_namespaces"])
    for m in r["listed_in_messages"]:
        names |= {n for n in m["names"] if n.startswith("mcp__")}
    return sorted(names)


def emit(facts: Any) -> None:
    print(json.dumps(facts, indent=1, ensure_ascii=False))


def raw(*tools: str, **extra: Any) -> dict[str, Any]:
    return {"command": "$PY", "args": ["$RAW", *tools], **extra}


def srv(name: str, *tools: str, extra: str = "") -> str:
    return (
        f'[mcp_servers."{name}"]\ncommand = "$PY"\nargs = {json.dumps(["$RAW", *tools], ensure_ascii=False)}\n{extra}\n'
    )


REPEAT = int(os.environ.get("X_REPEAT", "2"))


def repeated(fn: Any, *args: Any, **kwargs: Any) -> dict[str, Any]:
    """Run ``fn`` REPEAT times; its first answer and whether every run answered the same."""
    answers = [_normalised(fn(*args, **kwargs)) for _ in range(REPEAT)]
    return {"observed": answers[0], "stable": all(a == answers[0] for a in answers), "runs": len(answers)}


def _normalised(value: Any) -> Any:
    """The answer with each run's temporary root replaced by ``$D`` (so runs compare equal)."""
    import re

    return json.loads(re.sub(r"/tmp/x-[A-Za-z0-9_.-]+?-[a-z0-9_]{8}", "$D", json.dumps(value, ensure_ascii=False)))


def run_jobs(jobs: dict[str, Any], workers: int = 2) -> None:
    """Run the jobs whose names start with one of argv's prefixes (all without argv); print JSON."""
    wanted = sys.argv[1:]
    chosen = {k: v for k, v in jobs.items() if not wanted or any(k.startswith(w) for w in wanted)}
    emit(parallel(chosen, workers=workers))


def parallel(jobs: dict[str, Any], workers: int = 3) -> dict[str, Any]:
    """Run named zero-argument callables on a few threads (each is a subprocess wait); results by name."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=workers) as pool:
        futures = {name: pool.submit(job) for name, job in jobs.items()}
        return {name: f.result() for name, f in futures.items()}
