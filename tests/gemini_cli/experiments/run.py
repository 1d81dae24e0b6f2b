"""Run the real Gemini CLI once against recorder.py (an experiment, not a test).

usage: run.py CASE.json   CASE: {"files": {"home/.gemini/settings.json": {...}, ...}, "args": ["-p", "hi"],
                                 "env": {...}, "cwd": "proj", "call": "mcp_s_t", "trust": true}
Prints the exit code, the function declaration names of each recorded request, and stderr's tail.
"""

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
RAW = HERE.parents[1] / "clis" / "rawmcp.py"
GEMINI = Path(os.environ.get("GEMINI_BIN", HERE.parents[2] / ".ci-clis" / "node_modules" / ".bin" / "gemini"))
BASE = {
    "security": {"auth": {"selectedType": "gemini-api-key"}},
    "privacy": {"usageStatisticsEnabled": False},
    "general": {"enableAutoUpdate": False, "enableAutoUpdateNotification": False},
}


def deep(a, b):
    out = dict(a)
    for k, v in b.items():
        out[k] = deep(out[k], v) if isinstance(v, dict) and isinstance(out.get(k), dict) else v
    return out


def subst(value, root):
    text = json.dumps(value).replace("$D", str(root)).replace("$PY", sys.executable).replace("$RAW", str(RAW))
    return json.loads(text)


def main(case_path):
    case = json.loads(Path(case_path).read_text())
    root = Path(tempfile.mkdtemp(prefix="gem-", dir=os.environ.get("GEM_ROOT")))
    (root / "home" / ".gemini").mkdir(parents=True)
    (root / "proj").mkdir()
    files = case.get("files", {})
    user = "home/.gemini/settings.json"
    files[user] = deep(BASE, files.get(user, {}))
    if case.get("trust", True):
        files.setdefault("home/.gemini/trustedFolders.json", {"$D/proj": "TRUST_FOLDER"})
    for rel, content in files.items():
        path = root / subst(rel, root)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content if isinstance(content, str) else json.dumps(subst(content, root), indent=1))
    log, portfile = root / "requests.jsonl", root / "port"
    rec = subprocess.Popen(
        [
            sys.executable,
            str(HERE / "recorder.py"),
            str(log),
            str(portfile),
            *([case["call"]] if case.get("call") else []),
        ]
    )
    while not portfile.exists() or not portfile.read_text():
        time.sleep(0.05)
    env = {
        "PATH": f"{os.path.dirname(sys.executable)}:/usr/local/bin:/usr/bin:/bin",
        "HOME": str(root / "home"),
        "GEMINI_API_KEY": "fake",
        "GOOGLE_GEMINI_BASE_URL": f"http://127.0.0.1:{portfile.read_text()}",
        **subst(case.get("env", {}), root),
    }
    args = subst(case.get("args", ["-p", "hi"]), root)
    t0 = time.time()
    proc = subprocess.Popen(
        [str(GEMINI), *args],
        cwd=root / case.get("cwd", "proj"),
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        out, err = proc.communicate(timeout=case.get("timeout", 150))
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        err += "\n[TIMEOUT]"
    rec.terminate()
    print(f"exit {proc.returncode} in {time.time() - t0:.1f}s  root {root}")
    if log.exists():
        for line in log.read_text().splitlines():
            r = json.loads(line)
            body = r["body"] if isinstance(r["body"], dict) else {}
            decls = [d["name"] for t in body.get("tools", []) for d in t.get("functionDeclarations", [])]
            print(
                r["path"].split("?")[0],
                "tools:",
                decls,
                "toolConfig:" if "toolConfig" in body else "",
                body.get("toolConfig", ""),
            )
    print("stdout:", out.strip()[-300:])
    print("stderr:", "\n".join(err.strip().splitlines()[-12:]))


if __name__ == "__main__":
    main(sys.argv[1])
