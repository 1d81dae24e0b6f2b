"""The Claude Code model against the real binary: for every matrix case, what toolscope predicts the
model is offered (in full or deferred, by name) and can call equals what ``toolscope capture`` recorded.

Slow lane (marker ``clis``): needs Claude Code 2.1.332 installed by ``.ci/clis.sh``
(``CLIS_NPM_DIR``); skipped otherwise. Where they disagree, the binary is right.
"""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest
from claude_matrix import CASES, Case
from cli_runner import bin_path, can_overlay_etc, claude_env, message_text, run_captured, write_case

from toolscope.core.capture.reader import read_capture
from toolscope.core.clis.claude_code.subject import load_claude_code_subject
from toolscope.core.clis.offered import observed_offer, offer_disagreements, predicted_callable, predicted_offer

pytestmark = [pytest.mark.clis, pytest.mark.timeout(600)]  # one real CLI run takes 5-60 s, more on a loaded machine


def _args(case: Case, root: Path) -> list[str]:
    return [a.replace("$D", str(root)) for a in case.args]


def run_case(case: Case, root: Path) -> tuple[list[str], tuple[bool, bool] | None, Path]:
    """Disagreements on the offer, (predicted, observed) callability of ``case.call``, the capture file."""
    claude = bin_path("claude")
    write_case(case.files, root)
    env = claude_env(root, case.env)
    replies = [{"tool_calls": [{"name": case.call}]}, {"text": "done"}] if case.call else None
    capture = run_captured([str(claude), "-p", "hi", *_args(case, root)], root, env, replies)
    records = [r for r in read_capture(capture).records if r.protocol == "anthropic-messages"]
    assert records, (root / "client.out").read_text()
    subject = load_claude_code_subject(
        root / "proj",
        home=root / "home",
        managed_dir=root / "etc" / "claude-code",
        client_args=shlex.join(["-p", *_args(case, root)]),
        environ=env,
    )
    evaluation = subject.evaluate(None)
    problems = offer_disagreements(predicted_offer(evaluation), observed_offer(records[0]))
    called = None
    if case.call:
        assert len(records) >= 2, (root / "client.out").read_text()
        ran = f"called {case.call.rpartition('__')[2]}" in message_text(records[1])
        called = (case.call in predicted_callable(evaluation), ran)
    return problems, called, capture


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_prediction_equals_capture(case: Case, tmp_path: Path) -> None:
    if bin_path("claude") is None:
        pytest.skip("Claude Code not installed (run .ci/clis.sh, or set CLIS_NPM_DIR)")
    if case.managed and not can_overlay_etc():
        pytest.skip("managed settings live in /etc/claude-code: needs root and unshare for a private /etc")
    problems, called, _ = run_case(case, tmp_path)
    assert problems == []
    if called is not None:
        predicted, observed = called
        assert predicted == observed, f"toolscope says callable={predicted}, the binary ran it={observed}"
