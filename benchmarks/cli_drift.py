"""Drift check for a new Claude Code / Codex version: re-run the capture matrix, print the rows that changed.

    python benchmarks/cli_drift.py --claude-dir DIR [--codex-dir DIR] [--only ID,ID] [--json]

DIR holds ``node_modules/.bin/claude`` / ``codex`` (``npm install @anthropic-ai/claude-code@X``
there). For every case of ``tests/clis/claude_matrix.py`` and ``codex_matrix.py`` the binary runs
under ``toolscope capture``, then ``toolscope tools … --capture … --json`` compares its answer
(offered tools in full / deferred, whether the scripted call ran) with toolscope's prediction, which models the pinned versions (Claude Code
2.1.332, Codex 0.171.0). A row whose answer changed is printed with the difference; exit 1 when any
did, so a version bump is a measured step: fix the model, add the case, move the pin.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent / "tests" / "clis"), str(HERE.parent / "tests")]  # the matrices, json_contracts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--claude-dir", type=Path)
    parser.add_argument("--codex-dir", type=Path)
    parser.add_argument("--only", default="", help="comma-separated case ids")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    only = {x for x in args.only.split(",") if x}
    rows = []
    from cli_runner import can_overlay_etc

    lanes = []
    if args.claude_dir:
        from claude_matrix import CASES as CLAUDE
        from test_claude_code_real import run_case

        lanes.append(("claude-code", args.claude_dir, CLAUDE, run_case))
    if args.codex_dir:
        from codex_matrix import CASES as CODEX
        from test_codex_real import run_codex_case

        lanes.append(("codex", args.codex_dir, CODEX, run_codex_case))
    if not lanes:
        parser.error("give --claude-dir and/or --codex-dir")
    for cli, folder, cases, runner in lanes:
        os.environ["CLIS_NPM_DIR"] = str(folder.resolve())
        for case in cases:
            if (only and case.id not in only) or (case.managed and not can_overlay_etc()):
                continue
            started = time.monotonic()
            with tempfile.TemporaryDirectory(prefix="drift-") as root:
                try:
                    problems = runner(case, Path(root))[0]
                except AssertionError as exc:  # the binary sent nothing: that is drift too
                    problems = [f"no capture: {str(exc)[:200]}"]
            rows.append(
                {
                    "cli": cli,
                    "case": case.id,
                    "changed": bool(problems),
                    "problems": problems,
                    "seconds": round(time.monotonic() - started, 1),
                }
            )
            if not args.json:
                mark = "CHANGED" if problems else "same"
                print(f"{cli:12} {case.id:45} {mark}  ({rows[-1]['seconds']}s)")
                for problem in problems:
                    print(f"{'':14}{problem}")
    changed = [r for r in rows if r["changed"]]
    if args.json:
        print(json.dumps({"rows": rows, "changed": len(changed)}, indent=1))
    else:
        print(f"{len(changed)} of {len(rows)} rows changed against the modelled versions")
    return 1 if changed else 0


if __name__ == "__main__":
    raise SystemExit(main())
