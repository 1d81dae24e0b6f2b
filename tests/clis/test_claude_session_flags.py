"""A capture of ``claude -p`` carries the user agent ``claude-cli/2.1.332 (external, sdk-cli)``
(recorded: ``fixtures/experiments/claude.F_deferred_in_user_message.sonnet-4-5.capture.jsonl``). When
the input's ``--client-args`` has no ``-p``, the comparison names that missing flag instead of "a layer
toolscope does not model, or a bug"."""

from __future__ import annotations

import json
from pathlib import Path

from toolscope.core.capture.observed_file import load_capture
from toolscope.core.comparison.predict import compare_subject
from toolscope.core.systems.claude_code.subject import load_claude_code_subject

FIXTURE = (
    Path(__file__).parent / "fixtures" / "experiments" / "claude.F_deferred_in_user_message.sonnet-4-5.capture.jsonl"
)


def _comparison(tmp_path: Path, client_args: str | None):
    (tmp_path / "home").mkdir()
    (tmp_path / "proj").mkdir()
    # A .mcp.json server: -p connects it without approval, an interactive session leaves it pending.
    server = {"command": "never-started", "args": []}
    (tmp_path / "proj" / ".mcp.json").write_text(json.dumps({"mcpServers": {"u": server}}), encoding="utf-8")
    subject = load_claude_code_subject(
        tmp_path / "proj", home=tmp_path / "home", managed_dir=tmp_path / "none", client_args=client_args, environ={}
    )
    return compare_subject(subject, load_capture(FIXTURE), None).comparison


def test_missing_p_is_named_as_the_cause(tmp_path: Path) -> None:
    comparison = _comparison(tmp_path, "--model claude-sonnet-4-5")
    assert not comparison.agrees
    assert "sdk-cli" in comparison.blame() and '--client-args "-p"' in comparison.blame()
    assert comparison.blame() in comparison.notes


def test_with_p_the_flag_is_not_blamed(tmp_path: Path) -> None:
    comparison = _comparison(tmp_path, "-p --model claude-sonnet-4-5")
    assert comparison.cause is None
    assert comparison.blame() == "a layer toolscope does not model, or a bug in toolscope"
