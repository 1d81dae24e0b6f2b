"""The OpenCode model against the real binary (1.18.33): for every matrix case ``opencode run`` runs
offline under ``toolscope capture``, then ``toolscope tools opencode:. --capture FILE --json`` on the
same files and environment, and every request must agree (the tools sent, built-ins included; a
scripted call's outcome). A case whose config the binary refuses (exit 1, no request) must be a
``config_invalid`` finding of ``toolscope check`` (exit 1). Marker ``opencode``; skipped without
``.ci/opencode.sh``'s install.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from oc_matrix import CASES, Case
from oc_runner import can_isolate, capture_problems, case_env, opencode_bin, run_captured, toolscope, write_case

from toolscope.core.capture.reader import read_capture

pytestmark = [pytest.mark.opencode, pytest.mark.timeout(900)]


def _replies(case: Case) -> list[object] | None:
    if case.call is None:
        return None
    return [{"text": "title"}, {"tool_calls": [{"name": case.call, "arguments": {}}]}, {"text": "done"}]


def _refused_config(env: dict[str, str], cwd: Path, options: list[str], records: list[object], out: str) -> None:
    """The binary refused the config: no request, and toolscope check says config_invalid (exit 1)."""
    assert records == [], out
    status, document = toolscope("check", options, env, cwd, None)
    assert status == 1, json.dumps(document, indent=1)[:3000]
    assert any(f["kind"] == "config_invalid" for f in document["findings"]), document["findings"]


def _agrees(case: Case, env: dict[str, str], cwd: Path, options: list[str], capture: Path, out: str) -> None:
    """Every request of the capture agrees with toolscope's prediction (and a scripted call was compared)."""
    _, document = toolscope("tools", options, env, cwd, capture)
    problems = capture_problems(document)
    assert problems == [], json.dumps(problems, indent=1) + "\n" + out[-2000:]
    requests = document["capture"]["requests"]
    compared = [c for r in requests for c in (r["offer"] or {}).get("calls", []) if c["agrees"] is not None]
    assert compared or not case.call, f"the call of {case.call} was not compared"


def _skip_unless_runnable() -> None:
    if opencode_bin() is None:
        pytest.skip("opencode not installed (run .ci/opencode.sh, or set OPENCODE_NPM_DIR)")
    if not can_isolate():
        pytest.skip("needs unshare -n -r (a loopback-only network namespace) to keep the binary offline")


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_prediction_equals_capture(case: Case, tmp_path: Path) -> None:
    _skip_unless_runnable()
    write_case(case.files, tmp_path, case.git)
    cwd = tmp_path / case.cwd
    cwd.mkdir(parents=True, exist_ok=True)
    env = case_env(tmp_path, case.env)
    _, capture = run_captured(list(case.args), tmp_path, cwd, env, _replies(case))
    records = [r for r in read_capture(capture).records if r.protocol == "openai-chat"] if capture.exists() else []
    out = (tmp_path / "client.out").read_text(encoding="utf-8")
    options = ["--client-args", " ".join(case.args), "--managed-dir", str(tmp_path / "etc" / "opencode")]
    if case.exit:
        _refused_config(env, cwd, options, records, out)
        return
    assert len(records) >= 2, out
    _agrees(case, env, cwd, options, capture, out)
