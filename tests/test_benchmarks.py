"""The benchmark scripts run and print their ratios (small sizes here; the figures are in the closing notes)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


def run_bench(script: str, *args: str, timeout: float = 120) -> str:
    """Run ``benchmarks/SCRIPT`` with ``args``; its stdout, once it has exited 0."""
    out = subprocess.run(
        [sys.executable, str(REPO / "benchmarks" / script), *args], capture_output=True, text=True, timeout=timeout
    )
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_engine_benchmark_runs_and_prints_a_ratio():
    stdout = run_bench("engine_bench.py", "--tools", "3000", "--servers", "30", "--repeat", "1")
    assert "ratio evaluate / json.loads:" in stdout
    assert "universe: 3005 tools" in stdout


def test_engine_benchmark_writes_the_universe_for_trying_by_hand(tmp_path):
    """Issue 22 item 10: ``--write DIR`` instead of a Python one-liner; toolscope opens the result."""
    target = tmp_path / "universe"
    command = [sys.executable, str(REPO / "benchmarks" / "engine_bench.py"), "--write", str(target)]
    out = subprocess.run([*command, "--tools", "3000", "--servers", "30"], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert sorted(p.name for p in target.iterdir()) == ["step_config.json", "toolscope.registry.json"]
    assert f"toolscope inspect {target / 'step_config.json'}" in out.stdout
    explained = subprocess.run(
        [sys.executable, "-m", "toolscope", "explain", str(target / "step_config.json"), "notify_user", "--json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert explained.returncode in (0, 1), explained.stderr
    assert '"notify_user"' in explained.stdout
    # A second --write never replaces what is there.
    again = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert again.returncode != 0 and "already there" in again.stderr


def test_cli_benchmark_runs_every_row_and_prints_ratios():
    stdout = run_bench(
        "cli_bench.py", "--tools", "1000", "--servers", "10", "--runs", "1", "--only", "tools,report,explain,help"
    )
    for row in ("tools STEP --json", "report STEP --format json", "explain SEED", "toolscope --help"):
        assert row in stdout
    assert stdout.count(": ratio ") == 4 and stdout.count("CPU ratio ") == 4
    assert "memory per tool:" in stdout and "bytes per tool" in stdout


def test_tap_benchmark_runs_a_real_agent_and_prints_the_ratio():
    stdout = run_bench("tap_bench.py", "--calls", "20", "--repeat", "1")
    assert "ratio with / without:" in stdout
    assert "tool calls per run: 20" in stdout


def test_replay_benchmark_replays_the_real_recording_and_prints_the_ratio():
    stdout = run_bench("replay_bench.py", "--calls", "20", "--repeat", "1")
    assert "ratio cached/stock:" in stdout and "reset_tools calls replayed (both lanes): 20" in stdout


def test_workflow_benchmark_runs_and_prints_the_linearity_ratio():
    stdout = run_bench("workflow_bench.py", "--steps", "10", "--tools", "1000", "--servers", "10")
    assert "ratio per-step time 10 / 1 steps:" in stdout


@pytest.mark.timeout(300)  # the script's own bound: five server processes, on a loaded machine minutes
@pytest.mark.parametrize("protocol", ["openai-chat", "gemini"])
def test_capture_benchmark_runs_and_prints_its_figures(protocol: str):
    stdout = run_bench("capture_bench.py", "--quick", "--protocol", protocol, timeout=300)
    assert f"1,000-tool {protocol} request" in stdout
    for figure in (
        "added           p50",
        "CPU per request (server + record worker)",
        "via proxy",
        "throughput, 8 connections",
        "answered and recorded",
        "memory of the recording server",
    ):
        assert figure in stdout


def test_gc_freeze_benchmark_runs_and_prints_a_ratio():
    stdout = run_bench("gc_freeze_bench.py", "--tools", "2000", timeout=300)
    assert "collector CPU without / with gc.freeze: ratio" in stdout


def test_capture_start_benchmark_runs_and_prints_its_figures():
    stdout = run_bench("capture_start_bench.py", "--runs", "1", timeout=300)
    assert "first reply cold/warm:" in stdout


def test_trace_benchmark_reads_a_tiled_real_trace_and_prints_the_ratio():
    stdout = run_bench("trace_bench.py", "--spans", "1200", "--repeat", "1", "--max", "1000")
    assert "trace: 1,200 spans" in stdout and "requests read: 400" in stdout
    assert "ratio toolscope / json.load:" in stdout
