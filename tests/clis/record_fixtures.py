"""Re-record the real-binary captures the regular suite reads (``tests/clis/fixtures/*.capture.jsonl``).

    CLIS_NPM_DIR=.ci-clis python tests/clis/record_fixtures.py

Runs four matrix cases with the pinned binaries (``.ci/clis.sh`` installs them) under
``toolscope capture --keep-messages`` and copies each capture file here. The tests in
``test_capture_offer.py`` rebuild the same configuration and compare it with the capture,
so these files are what Claude Code 2.1.332 and Codex 0.171.0 really sent.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]  # the matrices, json_contracts

RECORDED = {
    "claude-code": ("call_default_refused", "call_allowed_user"),
    "codex": ("call_needs_approval", "catalog_model_deferred"),
}


def main() -> int:
    from claude_matrix import CASES as CLAUDE
    from codex_matrix import CASES as CODEX
    from test_claude_code_real import run_case
    from test_codex_real import run_codex_case

    for cli, cases, runner in (("claude-code", CLAUDE, run_case), ("codex", CODEX, run_codex_case)):
        for case in cases:
            if case.id not in RECORDED[cli]:
                continue
            with tempfile.TemporaryDirectory(prefix="record-") as root:
                problems, _ = runner(case, Path(root))  # type: ignore[operator]
                target = HERE / "fixtures" / f"{cli}.{case.id}.capture.jsonl"
                shutil.copyfile(Path(root) / "capture.jsonl", target)
                print(f"{target.name}: {target.stat().st_size:,} bytes; toolscope agrees: {not problems}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
