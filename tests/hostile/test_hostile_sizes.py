"""Hostile corpus: extreme sizes stay near linear.

Measured on this project's 2-core machine (README "What toolscope guarantees"): ``check`` with
2,000,000 ``selected_tools`` entries against 1,000,000 tools ran in 80 s (it ran past 5 minutes
when the dead-rule check compared every entry with every tool); ``tools`` prints 50,000 rows in
about 2 s piped and 13 s with colours on a terminal. Here the same code paths run at a size a
test can afford, twice, and the larger run may cost at most about linearly more.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from toolscope.core.agentworks.subject import load_agentworks_subject

SERVERS = 100


def write_world(folder: Path, tools: int, entries: int) -> Path:
    folder.mkdir()
    per = tools // SERVERS
    registry = {
        "mcp_servers": {f"srv{s}": [f"tool_{s}_{i}" for i in range(per)] for s in range(SERVERS)},
        "modes": {"system": [], "lists": {"build": []}, "default": "build"},
    }
    (folder / "toolscope.registry.json").write_text(json.dumps(registry))
    selected = [
        f"srv{i % SERVERS}:tool_{i % SERVERS}_{(i // SERVERS) % per}" if i % 2 else f"srv{i % SERVERS}:gone_{i}"
        for i in range(entries)
    ]
    step = {
        "id": "big",
        "agent_configs": {"selected_servers": [f"srv{s}" for s in range(SERVERS)], "selected_tools": selected},
    }
    (folder / "step_config.json").write_text(json.dumps(step))
    return folder / "step_config.json"


def time_findings(path: Path) -> tuple[float, int]:
    subject = load_agentworks_subject(path)
    started = time.perf_counter()
    findings = subject.findings(["build"])
    return time.perf_counter() - started, sum(1 for f in findings if f.kind == "dead_rule")


def test_dead_rule_check_is_near_linear(tmp_path: Path) -> None:
    small, small_dead = time_findings(write_world(tmp_path / "small", 5_000, 10_000))
    large, large_dead = time_findings(write_world(tmp_path / "large", 20_000, 40_000))
    assert (small_dead, large_dead) == (5_000, 20_000)
    # 4x the entries against 4x the tools: linear is 4x, the old all-pairs check was 16x
    # (and took minutes at this size).
    assert large < 8 * small + 0.5, (small, large)
    assert large < 5, large


def tools_table_seconds(path: Path, colour: bool) -> float:
    env = {key: value for key, value in os.environ.items() if key not in ("NO_COLOR", "FORCE_COLOR")}
    env["COLUMNS"] = "120"
    if colour:
        env["FORCE_COLOR"] = "1"  # Rich's coloured path: a console render per row
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "toolscope", "tools", str(path)], capture_output=True, env=env, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return time.perf_counter() - started


@pytest.mark.parametrize("colour", [False, True])
def test_tools_table_is_near_linear(tmp_path: Path, colour: bool) -> None:
    small = write_world(tmp_path / "small", 2_000, 0)
    large = write_world(tmp_path / "large", 8_000, 0)
    startup = tools_table_seconds(write_world(tmp_path / "empty", SERVERS, 0), colour)
    small_rows = tools_table_seconds(small, colour) - startup
    large_rows = tools_table_seconds(large, colour) - startup
    assert large_rows < 8 * max(small_rows, 0.05) + 0.5, (startup, small_rows, large_rows)
