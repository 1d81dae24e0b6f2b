"""The Gemini CLI model against the real binary (0.61.0): for every matrix case the real ``gemini -p``
runs under ``toolscope capture``, then ``toolscope tools gemini-cli:. --capture FILE --json`` runs on
the same files, and every request must agree (the MCP declarations sent); the exit code must be
the case's (55: an untrusted folder, no request). Lane marker ``gemini``; skipped without
``.ci/gemini.sh``'s install (``GEMINI_NPM_DIR``).
"""

from __future__ import annotations

import json
import socket
import sys
from pathlib import Path

import pytest
from gemini_matrix import CASES, GeminiCase
from gemini_runner import gemini_bin, predicted_sent, run_group, toolscope_json, write_case

pytestmark = [pytest.mark.gemini, pytest.mark.timeout(600)]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def run_case(case: GeminiCase, root: Path) -> tuple[int, Path, str]:
    """``toolscope capture --keep-messages --port P -- gemini ARGS`` in ``root/proj``."""
    args, env = write_case(case, root)
    port = _free_port()
    env["GOOGLE_GEMINI_BASE_URL"] = f"http://127.0.0.1:{port}"
    capture = root / "capture.jsonl"
    command = [sys.executable, "-m", "toolscope", "capture", "-o", str(capture), "--keep-messages", "--port", str(port)]
    if case.call:
        replies = [{"tool_calls": [{"name": case.call, "arguments": {}}]}, {"text": "done"}]
        (root / "replies.json").write_text(json.dumps(replies), encoding="utf-8")
        command += ["--replies", str(root / "replies.json")]
    code, out = run_group([*command, "--", str(gemini_bin()), *args], root / "proj", env, 300)
    (root / "client.out").write_text(out, encoding="utf-8")
    return code, capture, out


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_prediction_equals_capture(case: GeminiCase, tmp_path: Path) -> None:
    if gemini_bin() is None:
        pytest.skip("Gemini CLI not installed (run .ci/gemini.sh, or set GEMINI_NPM_DIR)")
    code, capture, out = run_case(case, tmp_path)
    assert code == case.exit_code, out[-2000:]
    _, env = write_case(case, tmp_path)
    recorded = capture.exists() and capture.stat().st_size > 0
    document = toolscope_json(case, tmp_path, env, capture if recorded else None)
    if case.exit_code == 55:  # no request at all, and toolscope says the folder's trust stops every tool
        assert not recorded, out[-2000:]
        assert predicted_sent(document) == set()
        assert all(t["first_failing_stage"] in ("folder_trust", "gemini_settings") for t in document["tools"])
        return
    block = document["capture"]
    problems = [d for r in block["requests"] for d in (r["offer"] or {}).get("differences", [])]
    assert block["requests"], out[-2000:]
    calls = [c for r in block["requests"] for c in (r["offer"] or {}).get("calls", [])]
    problems += [
        f"{c['tool']}: predicted callable={c['predicted_callable']}, the binary {c['outcome']} it ({c['evidence']!r})"
        for c in calls
        if c["agrees"] is False
    ]
    if case.call:
        assert [c for c in calls if c["agrees"] is not None], f"the call of {case.call} was not compared: {calls}"
    assert problems == [], json.dumps(problems, indent=1)
    assert block["agrees"] is True
