"""Run the real Gemini CLI for one matrix case, and toolscope on the same files.

The binary comes from ``$GEMINI_NPM_DIR/node_modules/.bin/gemini`` (``.ci/gemini.sh`` installs
the pinned version there). Each run gets a fresh root: ``home/`` (HOME), ``proj/`` (the cwd).
The binary re-spawns itself: it runs in its own process group, killed whole on a timeout.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

from gemini_matrix import OFFLINE, USER, GeminiCase

HERE = Path(__file__).resolve().parent
RAW = HERE.parent / "clis" / "rawmcp.py"
VERSION = "0.61.0"
MODEL = "m1"


def gemini_bin() -> Path | None:
    """The installed binary, or None when the lane's folder is not set up."""
    root = os.environ.get("GEMINI_NPM_DIR")
    path = Path(root) / "node_modules" / ".bin" / "gemini" if root else None
    return path if path is not None and path.exists() else None


def secure_dir(root: Path) -> Path:
    """A folder for system settings the CLI reads: root-owned, no group/world-writable ancestor (so not
    under /tmp): one per case root, under the lane's npm folder (gitignored)."""
    base = Path(os.environ.get("GEMINI_NPM_DIR") or HERE) / "system-settings"
    base.mkdir(mode=0o755, exist_ok=True)
    folder = base / root.name
    folder.mkdir(mode=0o755, exist_ok=True)
    return folder


def _subst(value: Any, root: Path) -> Any:
    text = json.dumps(value, ensure_ascii=False)
    if "$SYS" in text:
        text = text.replace("$SYS", str(secure_dir(root)))
    text = text.replace("$D", str(root)).replace("$PY", sys.executable).replace("$RAW", str(RAW))
    return json.loads(text)


def _deep(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    out = dict(a)
    for key, value in b.items():
        out[key] = _deep(out[key], value) if isinstance(value, dict) and isinstance(out.get(key), dict) else value
    return out


def write_case(case: GeminiCase, root: Path) -> tuple[list[str], dict[str, str]]:
    """Write the case's files under ``root``; (the gemini arguments, the environment without the endpoint)."""
    files = dict(case.files)
    files[USER] = _deep(OFFLINE, files.get(USER, {}))
    if case.trusted:
        files.setdefault("home/.gemini/trustedFolders.json", {"$D/proj": "TRUST_FOLDER"})
    for sub in ("home/.gemini", "proj"):
        (root / sub).mkdir(parents=True, exist_ok=True)
    for rel, content in files.items():
        path = Path(_subst(rel, root)) if rel.startswith("$SYS") else root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        text = _subst(content, root) if isinstance(content, str) else json.dumps(_subst(content, root), indent=1)
        path.write_text(text, encoding="utf-8")
    args = ["-p", "hi", "-m", MODEL, *_subst(list(case.args), root)]
    env = {
        "PATH": f"{Path(sys.executable).parent}:/usr/local/bin:/usr/bin:/bin",
        "HOME": str(root / "home"),
        "GEMINI_API_KEY": "fake-key",
        **_subst(case.env, root),
    }
    return args, env


def run_group(command: list[str], cwd: Path, env: dict[str, str], timeout: float) -> tuple[int, str]:
    """Run ``command`` in its own process group (killed whole after ``timeout``); (exit code, output)."""
    proc = subprocess.Popen(
        command, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        text=True, start_new_session=True,
    )  # fmt: skip
    try:
        out, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, _ = proc.communicate()
        out += "\n[killed: timeout]"
    return proc.returncode, out


def toolscope_json(case: GeminiCase, root: Path, env: dict[str, str], capture: Path | None = None) -> dict[str, Any]:
    """``toolscope tools gemini-cli:. --client-args ARGS --discover [--capture F] --json`` in ``root/proj``."""
    args, _ = write_args(case, root)
    command = [sys.executable, "-m", "toolscope", "tools", "gemini-cli:.", "--client-args", " ".join(args)]
    if "GEMINI_CLI_SYSTEM_SETTINGS_PATH" not in case.env:  # else the variable names the system file, as for the CLI
        command += ["--gemini-system-dir", str(root / "etc")]
    command += ["--discover", "--json"]
    if capture is not None:
        command += ["--capture", str(capture)]
    full = dict(env, PYTHONPATH=os.environ.get("PYTHONPATH", ""))
    done = subprocess.run(
        command, cwd=root / "proj", env=full, capture_output=True, text=True, timeout=180, stdin=subprocess.DEVNULL
    )
    assert done.returncode == 0, done.stderr
    return dict(json.loads(done.stdout))


def write_args(case: GeminiCase, root: Path) -> tuple[list[str], None]:
    import shlex

    return [shlex.quote(a) for a in ["-p", "hi", "-m", MODEL, *_subst(list(case.args), root)]], None


def predicted_sent(document: dict[str, Any]) -> set[str]:
    """The MCP tools the tools document says are sent: every stage up to policy passed."""
    out = set()
    results = document["stage_results"]
    for tool in document["tools"]:
        stages = [results[i] for i in tool["stages"]]
        names = [s["name"] for s in stages]
        if "policy" in names and all(s["passed"] for s in stages[: names.index("policy") + 1]):
            out.add(tool["tool"])
    return out
