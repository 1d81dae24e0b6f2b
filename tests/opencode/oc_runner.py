"""Run the real ``opencode run`` (1.18.33) under ``toolscope capture`` for one case, offline, and toolscope on the same files.

The binary comes from ``$OPENCODE_NPM_DIR/node_modules/.bin`` (``.ci/opencode.sh`` installs it).
Each case gets a fresh root: ``home/`` (HOME), ``proj/`` (the cwd, a git repository unless the
case says otherwise), ``provider.json`` (``OPENCODE_CONFIG``: the OpenAI-compatible provider whose
``baseURL`` is the capture). Nothing reaches the internet: the run happens in a network namespace
with only loopback (``unshare -n -r``), with OPENCODE_DISABLE_MODELS_FETCH / _AUTOUPDATE /
_DEFAULT_PLUGINS / _LSP_DOWNLOAD / _SHARE set (the background ``npm install @opencode-ai/plugin``
into each config folder has no switch: the namespace makes it fail fast, "background dependency
install failed" in the log).
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
RAW = HERE.parent / "clis" / "rawmcp.py"
VERSION = "1.18.33"
OFFLINE_ENV = {
    "OPENCODE_DISABLE_MODELS_FETCH": "1",
    "OPENCODE_DISABLE_AUTOUPDATE": "1",
    "OPENCODE_DISABLE_DEFAULT_PLUGINS": "1",
    "OPENCODE_DISABLE_LSP_DOWNLOAD": "1",
    "OPENCODE_DISABLE_SHARE": "1",
}
PROVIDER = {
    "provider": {
        "local": {
            "npm": "@ai-sdk/openai-compatible",
            "options": {"baseURL": "{env:OPENAI_BASE_URL}", "apiKey": "sk-test"},
            "models": {"test-model": {}, "g5": {"id": "gpt-5"}, "g41": {"id": "gpt-4.1"}},
        }
    },
    "model": "local/test-model",
}


def opencode_bin() -> Path | None:
    """The installed binary, or None when the lane's folder is not set up."""
    root = os.environ.get("OPENCODE_NPM_DIR")
    path = Path(root) / "node_modules" / ".bin" / "opencode" if root else None
    return path if path is not None and path.exists() else None


def can_isolate() -> bool:
    """A loopback-only network namespace works here."""
    if shutil.which("unshare") is None:
        return False
    done = subprocess.run(["unshare", "-n", "-r", "true"], capture_output=True, timeout=30)
    return done.returncode == 0


def subst(value: Any, root: Path) -> Any:
    """``$D`` (the root), ``$PY`` (this Python), ``$RAW`` (rawmcp.py) in a case's files."""
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    text = text.replace("$D", str(root)).replace("$PY", sys.executable).replace("$RAW", str(RAW))
    return text


def write_case(files: dict[str, Any], root: Path, git: bool) -> None:
    """The case's files under ``root``; ``proj`` a git repository when ``git``."""
    for sub in ("home", "proj"):
        (root / sub).mkdir(parents=True, exist_ok=True)
    if git:
        # a real repository: OpenCode asks git for the worktree, and an empty .git folder is none
        # (so the walk went on to /, and a file above the project was read)
        subprocess.run(["git", "init", "-q", str(root / "proj")], check=True, timeout=30)
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(subst(content, root), encoding="utf-8")
    (root / "provider.json").write_text(json.dumps(PROVIDER), encoding="utf-8")


def case_env(root: Path, extra: dict[str, str]) -> dict[str, str]:
    """The environment of both the binary and toolscope."""
    env = {
        "PATH": "/usr/bin:/bin",
        "HOME": str(root / "home"),
        "OPENCODE_CONFIG": str(root / "provider.json"),
        **OFFLINE_ENV,
    }
    env.update({k: subst(v, root) for k, v in extra.items()})
    return env


def run_captured(
    args: list[str], root: Path, cwd: Path, env: dict[str, str], replies: list[Any] | None, timeout: float = 400
) -> tuple[int, Path]:
    """``opencode run ARGS hi`` under ``toolscope capture`` in a loopback-only namespace: (exit code, capture file)."""
    capture = root / "capture.jsonl"
    inner = [sys.executable, "-m", "toolscope", "capture", "-o", str(capture), "--keep-messages"]
    if replies:
        (root / "replies.json").write_text(json.dumps(replies), encoding="utf-8")
        inner += ["--replies", str(root / "replies.json")]
    inner += ["--", str(opencode_bin()), "run", *args, "hi"]
    script = 'ip link set lo up 2>/dev/null; exec "$@"'
    full_env = dict(env, PYTHONPATH=os.environ.get("PYTHONPATH", ""))
    full_env["PATH"] = f"{Path(sys.executable).parent}:{full_env['PATH']}"
    done = subprocess.run(
        ["unshare", "-n", "-r", "sh", "-c", script, "sh", *inner],
        cwd=cwd, env=full_env, capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    (root / "client.out").write_text(done.stdout + "\n--- stderr ---\n" + done.stderr, encoding="utf-8")
    return done.returncode, capture


def toolscope(
    command: str, options: list[str], env: dict[str, str], cwd: Path, capture: Path | None
) -> tuple[int, dict[str, Any]]:
    """``toolscope COMMAND opencode:. OPTIONS --discover [--capture FILE] --json``: (exit code, document)."""
    args = [sys.executable, "-m", "toolscope", command, "opencode:.", *options, "--discover", "--json"]
    if capture is not None:
        args += ["--capture", str(capture)]
    full_env = dict(env, PYTHONPATH=os.environ.get("PYTHONPATH", ""))
    done = subprocess.run(
        args, cwd=cwd, env=full_env, capture_output=True, text=True, timeout=240, stdin=subprocess.DEVNULL
    )
    assert done.returncode in (0, 1), done.stderr
    return done.returncode, json.loads(done.stdout)


def capture_problems(document: dict[str, Any]) -> list[str]:
    """Everything in the ``capture`` block that is not agreement (empty: toolscope agrees with the binary)."""
    block = document["capture"]
    problems = []
    for request in block["requests"]:
        offer = request["offer"]
        if offer is None:
            problems.append(f"request {request['request']}: no offer block")
            continue
        problems += [f"request {request['request']}: {d}" for d in offer["differences"]]
        for checked in offer["calls"]:
            if checked["agrees"] is False:
                problems.append(
                    f"request {request['request']}: {checked['tool']} predicted callable={checked['predicted_callable']}, the binary {checked['outcome']} it ({checked['evidence']!r})"
                )
    if not block["agrees"] and not problems:
        problems.append("capture.agrees is false")
    return problems
