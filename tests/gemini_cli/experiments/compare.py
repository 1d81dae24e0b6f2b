"""Run matrix cases against recorder.py and compare with toolscope's prediction (an experiment, not a test).

usage: GEMINI_NPM_DIR=.ci-clis python tests/gemini_cli/experiments/compare.py [CASE_ID ...]
Prints, per case, the binary's exit code, the MCP names it sent, and toolscope's prediction.
"""

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from gemini_matrix import CASES  # noqa: E402
from gemini_runner import gemini_bin, predicted_sent, run_group, toolscope_json, write_case  # noqa: E402


def sent_names(log: Path) -> list[list[str]]:
    if not log.exists():
        return []
    out = []
    for line in log.read_text().splitlines():
        body = json.loads(line)["body"]
        out.append([d["name"] for t in body.get("tools", []) for d in t.get("functionDeclarations", [])])
    return out


def one(case, root: Path) -> bool:
    args, env = write_case(case, root)
    log, portfile = root / "requests.jsonl", root / "port"
    rec = subprocess.Popen([sys.executable, str(HERE / "recorder.py"), str(log), str(portfile)])
    while not portfile.exists() or not portfile.read_text():
        time.sleep(0.05)
    genv = dict(env, GOOGLE_GEMINI_BASE_URL=f"http://127.0.0.1:{portfile.read_text()}")
    code, out = run_group([str(gemini_bin()), *args], root / "proj", genv, 180)
    rec.terminate()
    requests = sent_names(log)
    seen = {n for r in requests for n in r if n.startswith("mcp_")}
    predicted = predicted_sent(toolscope_json(case, root, env))
    ok = code == case.exit_code and seen == predicted and (requests or code == 55)
    print(
        f"{'OK ' if ok else 'BAD'} {case.id}: exit {code} sent {sorted(seen)} predicted {sorted(predicted)}", flush=True
    )
    if not ok:
        print("   ", out.strip().replace("\n", "\n    ")[-800:], flush=True)
    return bool(ok)


if __name__ == "__main__":
    wanted = set(sys.argv[1:])
    results = [
        one(c, Path(tempfile.mkdtemp(prefix=f"gem-{c.id[:20]}-"))) for c in CASES if not wanted or c.id in wanted
    ]
    print(f"{sum(results)}/{len(results)} agree")
