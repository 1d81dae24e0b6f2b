"""A per-test CPU report, printed after every run: where the suite's CPU goes.

Wall time says little on a shared 2-core machine; CPU time does not depend on the load.
Each test's figure is the CPU its worker spent on setup, call and teardown, plus the CPU of
the child processes it waited for (the real CLI, MCP servers, AgentScope scripts).

A second list names the tests that sleep longest: wall time minus CPU minus the time the
worker's threads waited for a core (``/proc/self/task/*/schedstat``, Linux). A sleeping test
leaves its core idle (one xdist worker per core). The time a child process or a thread waited for a core cannot be read once it has
ended, so on a loaded machine a test that runs the CLI in a subprocess (or works in short-lived
threads) shows that wait as sleep too; on a quiet machine the figure is the test's own sleep.
"""

from __future__ import annotations

import json
import os
from collections import defaultdict
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest

CPU_KEY = "cpu_s"
WAIT_KEY = "core_wait_s"
SHOWN = 15
"""How many of the costliest tests and files the report names."""


def _cpu_now() -> float:
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system


def _core_wait_now() -> float:
    """Seconds this process's live threads have spent runnable but waiting for a core (0 off Linux)."""
    total = 0
    try:
        tasks = os.listdir("/proc/self/task")
    except OSError:
        return 0.0
    for task in tasks:
        try:
            with open(f"/proc/self/task/{task}/schedstat") as handle:
                total += int(handle.read().split()[1])
        except (OSError, IndexError, ValueError):
            continue  # a thread that ended meanwhile
    return total / 1e9


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_setup(item: pytest.Item) -> Generator[None, Any, None]:
    item.stash[_started] = _cpu_now()
    item.stash[_waited] = _core_wait_now()
    yield


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item: pytest.Item) -> Generator[None, Any, None]:
    yield
    # The teardown report copies user_properties after this hook: the figure travels with it
    # from an xdist worker to the controller.
    started = item.stash.get(_started, None)
    if started is not None:
        item.user_properties.append((CPU_KEY, _cpu_now() - started))
        item.user_properties.append((WAIT_KEY, _core_wait_now() - item.stash[_waited]))


_started = pytest.StashKey[float]()
_waited = pytest.StashKey[float]()


class CpuReport:
    """Collects the figures on the controller and prints the summary."""

    def __init__(self) -> None:
        self.by_test: dict[str, float] = {}
        self.core_wait: dict[str, float] = {}
        self.wall: dict[str, float] = defaultdict(float)

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        self.wall[report.nodeid] += report.duration  # setup, call and teardown
        if report.when != "teardown":
            return
        for key, value in report.user_properties:
            if key == CPU_KEY:
                self.by_test[report.nodeid] = float(value)
            elif key == WAIT_KEY:
                self.core_wait[report.nodeid] = float(value)

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if not self.by_test:
            return
        by_file: dict[str, float] = defaultdict(float)
        for nodeid, cpu in self.by_test.items():
            by_file[nodeid.split("::", 1)[0]] += cpu
        write = terminalreporter.write_line
        terminalreporter.section("CPU per test (tests/cpu_report.py)")
        write(f"total {sum(self.by_test.values()):.1f} s CPU in {len(self.by_test)} tests")
        for nodeid, cpu in sorted(self.by_test.items(), key=lambda kv: -kv[1])[:SHOWN]:
            write(f"{cpu:7.2f} s  {nodeid}")
        write("costliest files:")
        for path, cpu in sorted(by_file.items(), key=lambda kv: -kv[1])[:SHOWN]:
            write(f"{cpu:7.2f} s  {path}")
        asleep = {
            nodeid: self.wall[nodeid] - cpu - self.core_wait.get(nodeid, 0.0) for nodeid, cpu in self.by_test.items()
        }
        dump = os.environ.get("CPU_REPORT_JSON")
        if dump:  # every test's figures, for planning which tests run where
            rows = {nodeid: {"cpu": cpu, "wall": self.wall[nodeid]} for nodeid, cpu in self.by_test.items()}
            Path(dump).write_text(json.dumps(rows, indent=1))
        write(f"asleep (wall - CPU - waiting for a core): {sum(max(0.0, v) for v in asleep.values()):.1f} s in all")
        for nodeid, slept in sorted(asleep.items(), key=lambda kv: -kv[1])[:SHOWN]:
            write(f"{slept:7.2f} s  {nodeid}")


def register(config: pytest.Config) -> None:
    """Hook the report in (the controller prints; every process measures)."""
    import sys

    config.pluginmanager.register(sys.modules[__name__], "cpu_report_measure")
    if not hasattr(config, "workerinput"):
        config.pluginmanager.register(CpuReport(), "cpu_report")
