"""The Claude Code model against the real binary: for every matrix case, the real ``claude -p`` runs
under ``toolscope capture``, then ``toolscope tools claude-code:DIR --capture FILE --json`` runs as a
subprocess, and every request must agree: the MCP tools offered (in full or deferred, by name) and,
for a scripted call, whether the binary ran it.

Slow lane (marker ``clis``): needs Claude Code 2.1.332 installed by ``.ci/clis.sh``
(``CLIS_NPM_DIR``); skipped otherwise. Where they disagree, the binary is right.
"""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Any

import pytest
from claude_matrix import CASES, Case
from cli_runner import (
    bin_path,
    capture_problems,
    claude_env,
    run_captured,
    skip_unless_runnable,
    toolscope_tools,
    write_case,
)

from toolscope.core.capture.reader import read_capture

pytestmark = [pytest.mark.clis, pytest.mark.timeout(600)]  # one real CLI run takes 5-60 s, more on a loaded machine


def _args(case: Case, root: Path) -> list[str]:
    return [a.replace("$D", str(root)) for a in case.args]


def run_case(case: Case, root: Path) -> tuple[list[str], dict[str, Any]]:
    """Run the binary under capture, then toolscope on the same files: (problems, the tools document)."""
    claude = bin_path("claude")
    write_case(case.files, root)
    env = claude_env(root, case.env)
    replies = [{"tool_calls": [{"name": case.call}]}, {"text": "done"}] if case.call else None
    capture = run_captured([str(claude), "-p", "hi", *_args(case, root)], root, env, replies)
    records = [r for r in read_capture(capture).records if r.protocol == "anthropic-messages"]
    assert records, (root / "client.out").read_text()
    if case.call:
        assert len(records) >= 2, (root / "client.out").read_text()
    options = ["--home", str(root / "home"), "--managed-dir", str(root / "etc" / "claude-code")]
    options += ["--client-args", shlex.join(["-p", *_args(case, root)])]
    document = toolscope_tools("claude-code:.", options, capture, env, root / "proj")
    return capture_problems(document, case.call), document


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_prediction_equals_capture(case: Case, tmp_path: Path) -> None:
    skip_unless_runnable("claude", "Claude Code", case.managed, "/etc/claude-code")
    problems, document = run_case(case, tmp_path)
    assert problems == [], problems
    assert document["capture"]["agrees"] is True
