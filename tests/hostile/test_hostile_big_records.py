"""Hostile corpus: one huge value inside a recorded session stays bounded on screen and in memory.

The session is the real recording shipped in sample_configs (a real AgentScope ``Agent``),
with one ``reset_tools`` argument grown to tens of megabytes of group name, the way a
runaway model writes it. The CLI runs in a real subprocess; its peak memory is the child's
own (``os.wait4``), never a guess.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.agentscope

REPO = Path(__file__).resolve().parents[2]
AGENTSCOPE = REPO / "sample_configs" / "agentscope"
TOOLKIT = AGENTSCOPE / "toolkit.yaml"
BIG = 20_000_000


def big_argument_session(path: Path) -> Path:
    state = json.loads((AGENTSCOPE / "session_typo.json").read_text())
    [call] = [
        b
        for m in state["context"]
        if isinstance(m["content"], list)
        for b in m["content"]
        if b.get("id") == "call-4" and b["type"] == "tool_call"
    ]
    call["input"] = json.dumps({"web_search": True, "x" * BIG: True})
    path.write_text(json.dumps(state))
    return path


def run_with_rusage(*args: str, out_path: Path) -> tuple[int, int, str]:
    """Run with stdout to a file; the exit status, the child's peak RSS (MiB) and stderr."""
    with open(out_path, "wb") as out, open(out_path.with_suffix(".err"), "wb") as err:
        process = subprocess.Popen([sys.executable, "-m", "toolscope", *args], stdout=out, stderr=err)
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status)
    return process.returncode, usage.ru_maxrss // 1024, out_path.with_suffix(".err").read_text()


@pytest.mark.parametrize("extra", [[], ["--json"]], ids=["text", "json"])
def test_a_huge_argument_is_shown_clipped_and_memory_stays_bounded(tmp_path: Path, extra: list[str]) -> None:
    # Before: the 20 MB name was printed twice (the call and AgentScope's refusal echoing it,
    # 40 MB of output), and rapidfuzz scoring it against the group names peaked at gigabytes.
    session = big_argument_session(tmp_path / "big.json")
    status, peak_mib, err = run_with_rusage(
        "step", str(TOOLKIT), "--session", str(session), *extra, out_path=tmp_path / "out.txt"
    )
    assert status == 0, err
    printed = (tmp_path / "out.txt").read_bytes()
    assert len(printed) < 64 * 1024, len(printed)
    assert b"characters not shown" in printed
    # The interpreter with AgentScope is ~200 MiB here; the session itself is 20 MB, read once
    # and parsed by AgentScope once per lane. Before the fix this was over 700 MiB.
    assert peak_mib < 450, peak_mib
    if extra:
        body = json.loads(printed)["session"]
        [typo] = [t for t in body["turns"] if t["model_turn"] == 4]
        assert len(typo["call"]) < 2100 and typo["call"].startswith('{"web_search": true, "xxx')


def test_clip_keeps_short_text_and_counts_what_it_leaves_out() -> None:
    from toolscope.core.text.clip import SHOWN_CHARS, clip

    assert clip("short") == "short" and clip("x" * SHOWN_CHARS) == "x" * SHOWN_CHARS
    long = "a" * 5000 + "b" * 5000
    shown = clip(long)
    assert shown.startswith("a" * 1500) and shown.endswith("b" * 500)
    assert f"[{len(long) - SHOWN_CHARS:,} characters not shown]" in shown


def test_did_you_mean_skips_names_no_group_could_match_by_length() -> None:
    from toolscope.core.text.suggest import close_matches

    assert close_matches("web_serch", ["web_search", "scraping"], n=2) == ("web_search",)
    assert close_matches("x" * 1_000_000, ["web_search", "scraping"], n=2) == ()
