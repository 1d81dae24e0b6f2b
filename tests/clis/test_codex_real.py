"""The Codex model against the real binary (0.171.0): for every matrix case the offered namespaces
and functions (in full, or deferred namespaces) and the callable set toolscope predicts equal what
``toolscope capture`` recorded. Slow lane (marker ``clis``); skipped without ``.ci/clis.sh``'s install.
"""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest
from cli_runner import bin_path, can_overlay_etc, message_text, run_captured, write_case
from codex_matrix import CASES, CodexCase

from toolscope.core.capture.reader import read_capture
from toolscope.core.clis.codex.subject import load_codex_subject
from toolscope.core.clis.offered import observed_offer, offer_disagreements, predicted_callable, predicted_offer

pytestmark = [pytest.mark.clis, pytest.mark.timeout(600)]  # one real CLI run takes 5-60 s, more on a loaded machine


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _subst(text: str, root: Path) -> str:
    import sys

    from cli_runner import RAW

    return text.replace("$D", str(root)).replace("$PY", sys.executable).replace("$RAW", str(RAW))


def run_codex_case(case: CodexCase, root: Path) -> tuple[list[str], tuple[bool, bool] | None]:
    """Disagreements on the offer, and (predicted, observed) callability of ``case.call``."""
    codex = bin_path("codex")
    write_case(case.files, root)
    for rel in case.files:
        path = root / rel
        path.write_text(_subst(path.read_text(encoding="utf-8"), root), encoding="utf-8")
    port = _free_port()
    home = root / "codexhome"
    home.mkdir(exist_ok=True)
    provider = f'\n[model_providers.capture]\nname = "capture"\nbase_url = "http://127.0.0.1:{port}/v1"\nwire_api = "responses"\nenv_key = "CAPTURE_KEY"\n'
    config = f'model_provider = "capture"\nmodel = "{case.model}"\n' + _subst(case.config, root) + provider
    (home / "config.toml").write_text(config, encoding="utf-8")
    env = {"PATH": "/usr/bin:/bin", "HOME": str(root / "home"), "CODEX_HOME": str(home), "CAPTURE_KEY": "sk-test"}
    replies = (
        [{"tool_calls": [{"name": case.call[1], "namespace": case.call[0]}]}, {"text": "done"}] if case.call else None
    )
    command = [str(codex), "exec", "--skip-git-repo-check", *[a for o in case.overrides for a in ("-c", o)], "hi"]
    capture = run_captured(command, root, env, replies, port=port)
    records = [r for r in read_capture(capture).records if r.protocol == "openai-responses"]
    assert records, (root / "client.out").read_text()
    subject = load_codex_subject(
        root / "proj", codex_home=home, system_dir=root / "etc" / "codex", overrides=case.overrides, environ=env
    )
    evaluation = subject.evaluate(None)
    problems = offer_disagreements(predicted_offer(evaluation), observed_offer(records[0]))
    called = None
    if case.call:
        assert len(records) >= 2, (root / "client.out").read_text()
        ran = f"called {case.call[1]}" in message_text(records[1])
        called = (f"{case.call[0]}:{case.call[1]}" in predicted_callable(evaluation), ran)
    return problems, called


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_prediction_equals_capture(case: CodexCase, tmp_path: Path) -> None:
    if bin_path("codex") is None:
        pytest.skip("Codex not installed (run .ci/clis.sh, or set CLIS_NPM_DIR)")
    if case.managed and not can_overlay_etc():
        pytest.skip("/etc/codex: needs root and unshare for a private /etc")
    problems, called = run_codex_case(case, tmp_path)
    assert problems == [], json.dumps(problems, indent=1)
    if called is not None:
        assert called[0] == called[1], f"toolscope says callable={called[0]}, the binary ran it={called[1]}"
