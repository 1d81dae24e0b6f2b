"""A real Claude Code / Codex capture against toolscope's prediction, in the CLI's own terms (the ``offer``
block): MCP tools in full or deferred, and whether each call ran, read from the next request.

The captures in ``fixtures/`` were recorded from the pinned binaries by ``record_fixtures.py``
(matrix cases of ``claude_matrix.py`` / ``codex_matrix.py``); each test rebuilds that case's
files, with real stdio MCP servers (``rawmcp.py``), and changes one thing to show that a wrong
prediction is caught.
"""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from claude_matrix import CASES as CLAUDE_CASES
from claude_matrix import US
from cli_runner import claude_env, write_case
from codex_matrix import CASES as CODEX_CASES
from json_contracts import validated
from test_codex_real import _subst

from toolscope.core.capture.observed import ObservedCapture
from toolscope.core.capture.observed_file import load_capture
from toolscope.core.comparison.compare import CaptureComparison
from toolscope.core.comparison.predict import compare_subject
from toolscope.core.systems.claude_code.subject import load_claude_code_subject
from toolscope.core.systems.codex.subject import load_codex_subject

FIXTURES = Path(__file__).parent / "fixtures"


def claude(case_id: str, root: Path, settings: dict[str, Any] | None = None, env: dict[str, str] | None = None) -> Any:
    """The subject of a Claude matrix case (``settings`` replaces ~/.claude/settings.json)."""
    case = next(c for c in CLAUDE_CASES if c.id == case_id)
    files = dict(case.files)
    if settings is not None:
        files[US] = settings
    write_case(files, root)
    return load_claude_code_subject(
        root / "proj",
        home=root / "home",
        managed_dir=root / "none",
        client_args="-p",
        environ=claude_env(root, env or {}),
        discover=True,
    )


def codex(case_id: str, root: Path, model: str | None = None, extra: str = "") -> Any:
    """The subject of a Codex matrix case (``model`` / ``extra`` config change it)."""
    case = next(c for c in CODEX_CASES if c.id == case_id)
    home = root / "codexhome"
    home.mkdir(parents=True)
    (root / "proj").mkdir()
    config = f'model = "{model or case.model}"\n' + _subst(case.config, root) + extra
    (home / "config.toml").write_text(config, encoding="utf-8")
    return load_codex_subject(root / "proj", codex_home=home, system_dir=root / "none", environ={"HOME": str(root)})


def compared(subject: Any, fixture: str, keep_messages: bool = True) -> CaptureComparison:
    capture = load_capture(FIXTURES / fixture)
    if not keep_messages:  # what the same run writes without --keep-messages
        requests = tuple(dataclasses.replace(r, results=None) for r in capture.requests)
        capture = ObservedCapture(capture.path, requests, capture.records, capture.skipped, capture.truncated)
    return compare_subject(subject, capture, None).comparison


def offers(comparison: CaptureComparison) -> list[dict[str, Any]]:
    return [r.to_json()["offer"] for r in comparison.requests]


def test_claude_deferred_tool_and_refused_call_agree(tmp_path: Path) -> None:
    comparison = compared(claude("call_default_refused", tmp_path), "claude-code.call_default_refused.capture.jsonl")
    assert comparison.agrees
    first, second = offers(comparison)
    assert first["received"] == first["predicted"] == {"mcp__t__x": "deferred"}
    assert first["calls"] == [
        {
            "tool": "mcp__t__x",
            "predicted_callable": False,
            "outcome": "refused",
            "agrees": True,
            "evidence": "Claude requested permissions to use mcp__t__x, but you haven't granted it yet.",
        }
    ]
    assert {"Bash", "ToolSearch"} <= set(first["left_out"]) and second["calls"] == []


def test_claude_allowed_call_ran(tmp_path: Path) -> None:
    comparison = compared(claude("call_allowed_user", tmp_path), "claude-code.call_allowed_user.capture.jsonl")
    assert comparison.agrees
    call = offers(comparison)[0]["calls"][0]
    assert (call["predicted_callable"], call["outcome"], call["evidence"]) == (True, "ran", "called x")


def test_claude_wrong_callable_prediction_disagrees(tmp_path: Path) -> None:
    # The allow rule makes toolscope predict "callable"; the recorded binary had no such rule and refused.
    subject = claude("call_default_refused", tmp_path, settings={"permissions": {"allow": ["mcp__t__x"]}})
    comparison = compared(subject, "claude-code.call_default_refused.capture.jsonl")
    assert not comparison.agrees and [r.request.index for r in comparison.disagreeing] == [1]
    assert offers(comparison)[0]["calls"][0]["agrees"] is False


def test_claude_full_against_deferred_disagrees(tmp_path: Path) -> None:
    subject = claude("call_default_refused", tmp_path, env={"ENABLE_TOOL_SEARCH": "false"})
    comparison = compared(subject, "claude-code.call_default_refused.capture.jsonl")
    assert not comparison.agrees
    assert offers(comparison)[0]["differences"] == ["predicted mcp__t__x full; the request offers it deferred"]


def test_without_kept_messages_the_outcome_is_unknown_and_not_compared(tmp_path: Path) -> None:
    subject = claude("call_default_refused", tmp_path, settings={"permissions": {"allow": ["mcp__t__x"]}})
    comparison = compared(subject, "claude-code.call_default_refused.capture.jsonl", keep_messages=False)
    call = offers(comparison)[0]["calls"][0]
    assert (call["outcome"], call["agrees"]) == ("unknown", None) and "--keep-messages" in call["evidence"]
    assert comparison.agrees and any("--keep-messages" in n for n in comparison.notes)


def test_codex_deferred_namespace_agrees_and_a_full_prediction_does_not(tmp_path: Path) -> None:
    comparison = compared(codex("catalog_model_deferred", tmp_path), "codex.catalog_model_deferred.capture.jsonl")
    assert comparison.agrees
    offer = offers(comparison)[0]
    assert offer["received"] == offer["predicted"] == {"mcp__t:*": "deferred"}
    assert "multi_agent_v1:*" in offer["left_out"] and "tool_search" in offer["left_out"]
    wrong = compared(
        codex("catalog_model_deferred", tmp_path / "o3", model="o3"), "codex.catalog_model_deferred.capture.jsonl"
    )
    assert offers(wrong)[0]["differences"] == [
        "predicted mcp__t:x (full); the request does not offer it",
        "the request offers mcp__t:* (deferred); toolscope predicted it absent",
    ]


def test_codex_call_refused_for_approval(tmp_path: Path) -> None:
    comparison = compared(codex("call_needs_approval", tmp_path), "codex.call_needs_approval.capture.jsonl")
    assert comparison.agrees
    call = offers(comparison)[0]["calls"][0]
    assert (call["tool"], call["outcome"], call["predicted_callable"]) == ("mcp__t:x", "refused", False)
    approve = codex("call_needs_approval", tmp_path / "approve", extra='default_tools_approval_mode = "approve"\n')
    assert not compared(approve, "codex.call_needs_approval.capture.jsonl").agrees


def test_cli_json_carries_the_offer_and_the_human_form_leads_with_the_call(tmp_path: Path) -> None:
    case = next(c for c in CLAUDE_CASES if c.id == "call_default_refused")
    write_case({**case.files, US: {"permissions": {"allow": ["mcp__t__x"]}}}, tmp_path)
    common = ["claude-code:.", "--home", str(tmp_path / "home"), "--managed-dir", str(tmp_path / "none")]
    common += ["--client-args", "-p", "--discover"]
    common += ["--capture", str(FIXTURES / "claude-code.call_default_refused.capture.jsonl")]
    env = claude_env(tmp_path, {})

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "toolscope", *args],
            cwd=tmp_path / "proj",
            env=env,
            capture_output=True,
            text=True,
            timeout=90,
        )

    document = validated(run("tools", *common, "--json").stdout)
    assert document["capture"]["disagreeing_requests"] == [1]
    assert document["capture"]["requests"][0]["offer"]["calls"][0]["outcome"] == "refused"
    done = run("check", *common)
    assert done.returncode == 1, done.stderr
    first = done.stdout.split("\n\n")[0]
    assert "≠" in first and "call" in first and "the binary refused it" in first, done.stdout
    # report --capture reads the same files (--home, --client-args …), and says the same.
    report = tmp_path / "report.md"
    done = run("report", *common, "-o", str(report))
    assert done.returncode == 0, done.stderr
    assert "request 1, call: mcp\\_\\_t\\_\\_x: toolscope says callable, the binary refused it" in report.read_text()


def test_other_inputs_have_no_offer_block() -> None:
    repo = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-m", "toolscope", "tools", str(repo / "sample_configs" / "seed" / "step_config.json"),
         "--mode", "build", "--capture", str(FIXTURES / "claude-code.call_default_refused.capture.jsonl"), "--json"],
        capture_output=True, text=True, timeout=90,
    )  # fmt: skip
    requests = validated(done.stdout)["capture"]["requests"]
    assert requests and all(r["offer"] is None for r in requests)
    assert json.dumps(requests)


def test_codex_collision_suffixes_match_any_hash_once() -> None:
    # Names as Codex 0.171.0 sent them for tools "a.b" and "a_b" of one server (the collision_tools case).
    from toolscope.core.systems.coding_cli.offered import resolve_hashes

    predicted = ["mcp__t:a_b_<hash a.b>", "mcp__t:a_b_<hash a_b>", "mcp__t:c"]
    observed = ["mcp__t:a_b_3e13e8cfee91", "mcp__t:a_b_fa65a2c3cf86", "mcp__t:c"]
    resolved = resolve_hashes(predicted, observed)
    assert sorted(resolved.values()) == observed[:2] and len(set(resolved.values())) == 2
    assert resolve_hashes(predicted, ["mcp__t:a_b", "mcp__t:a_b_xyz"]) == {}


def test_codex_explain_finds_the_tool_in_a_deferred_namespace(tmp_path: Path) -> None:
    # explain takes mcp__t__x; the capture names only the deferred namespace (mcp__t:*).
    case = next(c for c in CODEX_CASES if c.id == "catalog_model_deferred")
    (tmp_path / "cx").mkdir()
    (tmp_path / "cx" / "config.toml").write_text(f'model = "{case.model}"\n' + _subst(case.config, tmp_path))
    done = subprocess.run(
        [sys.executable, "-m", "toolscope", "explain", "codex:.", "mcp__t__x", "--codex-home", str(tmp_path / "cx"),
         "--codex-system-dir", str(tmp_path / "none"), "--capture", str(FIXTURES / "codex.catalog_model_deferred.capture.jsonl")],
        cwd=tmp_path, capture_output=True, text=True, timeout=90,
    )  # fmt: skip
    assert "mcp__t__x reached the model in 1 of 1 requests (1); toolscope predicted it in 1 (1)" in done.stdout, (
        done.stdout + done.stderr
    )
