"""The Codex model against the real binary (0.171.0): for every matrix case the real ``codex exec``
runs under ``toolscope capture``, then ``toolscope tools codex:DIR --capture FILE --json`` runs as a
subprocess, and every request must agree: the MCP namespaces and functions offered (in full, or
deferred namespaces) and, for a scripted call, whether the binary ran it. Slow lane (marker
``clis``); skipped without ``.ci/clis.sh``'s install.
"""

from __future__ import annotations

import json
import shlex
import socket
import sys
from pathlib import Path
from typing import Any

import pytest
from cli_runner import (
    bin_path,
    capture_problems,
    git_setup,
    run_captured,
    skip_unless_runnable,
    toolscope_check,
    toolscope_tools,
    write_case,
)
from codex_matrix import CASES, CodexCase

from toolscope.core.capture.reader import read_capture

pytestmark = [pytest.mark.clis, pytest.mark.timeout(600)]  # one real CLI run takes 5-60 s, more on a loaded machine


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _subst(text: str, root: Path) -> str:
    from cli_runner import RAW

    return text.replace("$D", str(root)).replace("$PY", sys.executable).replace("$RAW", str(RAW))


def build_case(case: CodexCase, root: Path) -> tuple[Path, dict[str, str], int]:
    """The case's repositories, worktrees, files and CODEX_HOME under ``root``: (CODEX_HOME, env, capture port)."""
    git_setup(root, case.git, case.worktrees)
    write_case(case.files, root)
    for rel in case.files:
        path = root / rel
        path.write_text(_subst(path.read_text(encoding="utf-8"), root), encoding="utf-8")
    (root / case.cwd).mkdir(parents=True, exist_ok=True)
    port = _free_port()
    home = root / "codexhome"
    home.mkdir(exist_ok=True)
    provider = f'\n[model_providers.capture]\nname = "capture"\nbase_url = "http://127.0.0.1:{port}/v1"\nwire_api = "responses"\nenv_key = "CAPTURE_KEY"\n'
    config = f'model_provider = "capture"\nmodel = "{case.model}"\n' + _subst(case.config, root) + provider
    (home / "config.toml").write_text(config, encoding="utf-8")
    env = {"PATH": "/usr/bin:/bin", "HOME": str(root / "home"), "CODEX_HOME": str(home), "CAPTURE_KEY": "sk-test"}
    return home, env | case.env, port


def _replies(case: CodexCase) -> list[Any] | None:
    # A call without a namespace ("" in the case) is sent flat, as a model that ignores namespaces would.
    if case.replies:
        return list(case.replies)
    if case.call:
        call = {"name": case.call[1], **({"namespace": case.call[0]} if case.call[0] else {})}
        return [{"tool_calls": [call]}, {"text": "done"}]
    return None


def toolscope_options(case: CodexCase, root: Path, home: Path) -> list[str]:
    """The same files and flags for toolscope: folders, ``-c``, and the session's flags as ``--client-args``."""
    options = ["--codex-home", str(home), "--codex-system-dir", str(root / "etc" / "codex")]
    options += [a for o in case.overrides for a in ("-c", o)]
    return options + (["--client-args", shlex.join(case.args)] if case.args else [])


def run_codex_case(case: CodexCase, root: Path) -> tuple[list[str], dict[str, Any]]:
    """Run ``codex exec`` under capture, then toolscope on the same files: (problems, the tools document)."""
    codex = bin_path("codex")
    home, env, port = build_case(case, root)
    overrides = [a for o in case.overrides for a in ("-c", o)]
    command = [str(codex), "exec", "--skip-git-repo-check", *overrides, *case.args, "hi"]
    capture = run_captured(command, root, env, _replies(case), port=port, cwd=case.cwd)
    records = [r for r in read_capture(capture).records if r.protocol == "openai-responses"]
    if case.run_ends:
        assert records == [], "the binary sent a request; the case says the run ends before any"
        return [], check_document(case, root, home, env)
    assert records, (root / "client.out").read_text()
    if case.call or case.replies:
        assert len(records) >= 2, (root / "client.out").read_text()
    document = toolscope_tools("codex:.", toolscope_options(case, root, home), capture, env, root / case.cwd)
    called = (f"{case.call[0]}:{case.call[1]}" if case.call[0] else case.call[1]) if case.call else None
    return capture_problems(document, called), document


def check_document(case: CodexCase, root: Path, home: Path, env: dict[str, str]) -> dict[str, Any]:
    """``toolscope check codex:. OPTIONS --discover --json`` in the case's cwd (exit 0 or 1)."""
    return toolscope_check(["codex:.", *toolscope_options(case, root, home), "--discover"], env, root / case.cwd)


def kinds(document: dict[str, Any]) -> list[str]:
    return [f["kind"] for f in document["findings"]]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_prediction_equals_capture(case: CodexCase, tmp_path: Path) -> None:
    skip_unless_runnable("codex", "Codex", case.managed, "/etc/codex")
    problems, document = run_codex_case(case, tmp_path)
    if case.run_ends:  # no request to compare: check must name why the run ended
        assert case.run_ends in kinds(document), json.dumps(document["findings"], indent=1)
        return
    assert problems == [], json.dumps(problems, indent=1)
    assert document["capture"]["agrees"] is True
    if case.finding:
        home = tmp_path / "codexhome"
        env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path / "home"), "CODEX_HOME": str(home)} | case.env
        found = check_document(case, tmp_path, home, env)
        assert case.finding in kinds(found), json.dumps(found["findings"], indent=1)
