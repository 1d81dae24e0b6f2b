"""Shared test setup: keep tests independent of the developer's environment."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import cpu_report

# mcp's stdio_client takes ``errlog=sys.stderr`` as a default bound when the module is
# first imported: import it now, not first inside a CliRunner (whose stderr has no file
# descriptor, which later real MCP clients would then inherit).
import mcp.client.stdio  # noqa: F401
import pytest
from click.testing import Result

REPO = Path(__file__).resolve().parent.parent
SAMPLES = REPO / "sample_configs"

# This machine and CI set PYTHONDONTWRITEBYTECODE=1: then every xdist worker recompiles the
# test modules pytest rewrites, and every process the tests start (the real CLI, AgentScope
# scripts, MCP servers) recompiles toolscope from source. Compiled once and cached
# (in the ignored __pycache__ folders), the suite spends measurably less CPU (tests/cpu_report.py).
# Set before any test module is imported; the workers and subprocesses inherit the environment.
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

PROCESS_LANE = (
    # real MCP servers over stdio through the SDK (each server about 1 s of CPU to start)
    "tests/mcp/test_mcp_discovery.py",
    "tests/mcp/test_dead_server_answers.py",
    "tests/mcp/test_mcp_cli.py",
    "tests/mcp/test_mcp_eras.py",
    "tests/mcp/test_discover_progress.py",
    "tests/mcp/test_mcp_agentscope_clients.py",
    "tests/mcp/test_mcp_start_cap.py",
    "tests/mcp/test_mcp_server.py",
    "tests/hostile/test_hostile_mcp.py",
    "tests/hostile/test_hostile_opt_in.py",
    "tests/clis/test_cli_inputs.py",
    # signals sent to a running toolscope, locks held by another process, tmux terminals, pipes
    # closed under a writer, a live agent followed
    "tests/hostile/test_hostile_processes.py",
    "tests/hostile/test_hostile_tui_replay.py",
    "tests/hostile/test_hostile_app_storage.py",
    "tests/hostile/test_hostile_user_code.py",
    "tests/hostile/test_hostile_serve.py",
    "tests/hostile/test_hostile_outputs.py",
    "tests/capture/test_capture_cli.py",
    "tests/traces/test_capture_otlp.py",
    # real trace producers and Phoenix (marked `traces`; .ci/traces.sh runs them in their own venvs)
    "tests/traces/test_trace_producers.py",
    "tests/capture/test_capture_lost_lines.py",
    "tests/capture/test_capture_replay_progress.py",
    "tests/capture/test_capture_command_end.py",
    "tests/capture/test_capture_browser_origin.py",
    "tests/hostile/test_hostile_round3_inputs.py",
    "tests/clis/test_detect_system.py",
    # pip building and installing toolscope
    "tests/test_packaging_install.py",
    "tests/cli/test_closed_stdout.py",
    "tests/tui/test_tui_follow.py",
)
"""Tests that start real processes and wait on them. Measured (tests/cpu_report.py,
``CPU_REPORT_JSON``): about 170 s of the 490 s the suite's tests take one after another, while
they are a tenth of its tests."""

PROCESS_TESTS = (
    # single tests that start toolscope or a client as a real process and wait on it (the CPU
    # report's "asleep" list: 4-38 s each on a loaded machine); their files stay in the quick suite
    "tests/capture/test_capture_compare.py::test_untrusted_names_from_a_real_client_stay_inert",
    "tests/clis/test_capture_offer.py::test_cli_json_carries_the_offer_and_the_human_form_leads_with_the_call",
    "tests/tui/test_tui_session_replay.py::test_the_cli_says_what_it_means_about_the_recording_version",
    "tests/agentscope/test_as_cli.py::test_factory_print_keeps_json_clean",
    # serve's event loop ending a real process that ignores SIGTERM (two 0.2 s graces)
    "tests/cli/test_serve_loop.py",
    "tests/tui/test_tui_inspect_cli.py::test_stdout_not_a_terminal_exits_2_at_once",
    "tests/hostile/test_hostile_big_records.py::test_a_huge_argument_is_shown_clipped_and_memory_stays_bounded",
    # real Chromium, like tests/browser/
    "tests/tui/test_tui_export_png.py",
    # check --discover on a server that sleeps past Claude Code's start-up grace (7 s asleep)
    "tests/clis/test_claude_code_real.py::test_check_names_a_server_slower_than_the_grace_with_its_fix",
    # the costliest Pilot files after the activation snapshots (44 s of CPU together, CPU report of
    # the CI run at 06:57): the layout of the activation view, the QA walk-through, lazy rows
    "tests/tui/test_tui_activation_layout.py",
    "tests/tui/test_tui_qa.py",
    "tests/tui/test_tui_lazy_rows.py",
    # the activation view's Pilot file (34 s of CPU, the costliest file of the quick suite's CPU
    # report on 2026-12-02, which was then at 168 s on a quiet machine and 191 s under load), and
    # a check that starts real MCP servers (3.7 s of CPU)
    "tests/tui/test_tui_activation.py",
    "tests/hostile/test_hostile_secrets.py::test_discovery_outputs_and_snapshot_keep_every_secret",
)
"""Single tests of the quick suite's files that belong with ``PROCESS_LANE``: matched on the node id."""

SLOW_LANE = (
    "tests/browser/",
    "tests/integration/",
    "tests/test_benchmarks.py",
    "tests/hostile/test_hostile_sizes.py",
    # google-genai takes seconds of CPU to import (per worker): its tests of the Gemini wire.
    "tests/capture/test_capture_gemini_sdk.py",
    *PROCESS_LANE,
)
"""Tests of the ``lane`` step (``pytest -m lane``, run by .ci/run right after the README's command):
real Chromium, the end-to-end integrations, the benchmark scripts, the timing-based size checks
and ``PROCESS_LANE``. The README's ``pytest`` leaves them out to stay under 3 minutes on 2 cores;
CI runs every one of them."""


def pytest_configure(config: pytest.Config) -> None:
    cpu_report.register(config)
    # A background job of a shell without job control (`pytest &` in a script, nohup) starts with
    # SIGINT ignored, and every process a test starts would inherit that: the Ctrl+C tests would
    # wait out their timeouts. Python's own handler here gives the children the default back.
    import signal

    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        where = Path(str(item.fspath)).relative_to(REPO).as_posix()
        if where.startswith(SLOW_LANE) or item.nodeid.startswith(PROCESS_TESTS):
            item.add_marker(pytest.mark.lane)


@pytest.fixture(autouse=True)
def _isolated_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No TOOLSCOPE_* settings and no XDG config from the machine leak into a test."""
    import os

    for key in list(os.environ):
        if key.startswith("TOOLSCOPE_"):
            monkeypatch.delenv(key)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg-config"))
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("COLUMNS", "160")


@pytest.fixture
def in_repo(monkeypatch: pytest.MonkeyPatch) -> Path:
    """Run from the repository root, like a user typing sample paths."""
    monkeypatch.chdir(REPO)
    return REPO


@pytest.fixture(autouse=True)
def _json_outputs_match_their_schema(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every --json document a test gets from the CLI validates against its committed schema."""
    from json_contracts import validate_output
    from typer.testing import CliRunner

    invoke = CliRunner.invoke

    def checked_invoke(self: CliRunner, *args: Any, **kwargs: Any) -> Result:
        result = invoke(self, *args, **kwargs)
        if result.exception is None or isinstance(result.exception, SystemExit):
            validate_output(result.stdout)
        return result

    monkeypatch.setattr(CliRunner, "invoke", checked_invoke)
