"""Stdout's reader going away (``toolscope … | head``) ends toolscope quietly with exit 141.

Real pipes: each command runs as a subprocess whose stdout is a pipe that the test closes,
either at once (``| true``) or after reading the first bytes of an output far larger than
a pipe's buffer (``| head -1``), so the command is still writing when the reader goes.
"""

from __future__ import annotations

import errno
import os
import subprocess
import sys
from pathlib import Path

import pytest

from toolscope.cli import closed_stdout
from toolscope.core.model.errors import EXIT_STDOUT_CLOSED

REPO = Path(__file__).resolve().parents[2]
SAMPLES = REPO / "sample_configs"
sys.path.insert(0, str(REPO / "benchmarks"))

from engine_bench import make_universe_files  # noqa: E402

NOISE = ("Traceback", "Exception ignored", "BrokenPipeError", "Broken pipe", "toolscope bug")


@pytest.fixture(scope="module")
def universe(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """5,000 tools: every output below is hundreds of kilobytes, several pipe buffers."""
    return make_universe_files(tmp_path_factory.mktemp("universe"), 5000, 30)


def run_into_closed_pipe(args: list[str], *, read_first: int) -> tuple[int, str]:
    """Run toolscope with stdout into a pipe; read ``read_first`` bytes, close it, wait."""
    process = subprocess.Popen(
        [sys.executable, "-m", "toolscope", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=REPO,
    )
    assert process.stdout is not None and process.stderr is not None
    if read_first:
        assert os.read(process.stdout.fileno(), read_first)  # the output had started
    process.stdout.close()
    stderr = process.stderr.read().decode("utf-8", "replace")
    return process.wait(timeout=120), stderr


@pytest.mark.parametrize(
    "args",
    [
        ["tools", "{u}"],
        ["tools", "{u}", "--json"],
        ["report", "{u}", "-o", "-"],
        ["report", "{u}", "-o", "/dev/stdout", "--format", "json"],
    ],
    ids=["tools", "tools-json", "report-stdout", "report-dev-stdout"],
)
def test_reader_leaving_mid_output_stops_quietly(universe: Path, args: list[str]) -> None:
    code, stderr = run_into_closed_pipe([a.format(u=universe) for a in args], read_first=100)
    assert not [word for word in NOISE if word in stderr], stderr
    assert stderr == ""
    assert code == EXIT_STDOUT_CLOSED


@pytest.mark.parametrize(
    "args",
    [
        ["tools", str(SAMPLES / "realistic" / "step_config.json"), "--step", "research"],
        ["explain", "{u}", "get_issue_1_1"],
        ["check", "{u}", "--json"],
        ["step", str(SAMPLES / "agentscope" / "toolkit.yaml"), "--script", str(SAMPLES / "agentscope" / "typo.json")],
        ["discover", str(SAMPLES / "mcp" / "mcp.json"), "--timeout", "20"],
        ["--help"],
        # A factory moves toolscope's stdout off fd 1 (user_code_guard.protect_stdout): the
        # pipe must still be found closed (issue 19: this printed a traceback, exit 120).
        ["tools", str(SAMPLES / "agentscope" / "my_agent.py") + ":build_toolkit"],
    ],
    ids=["tools-small", "explain", "check-json", "step", "discover", "help", "factory"],
)
def test_reader_gone_before_the_first_write_stops_quietly(universe: Path, args: list[str]) -> None:
    # Small outputs sit in Python's buffer until exit: the failure comes at the last flush.
    code, stderr = run_into_closed_pipe([a.format(u=universe) for a in args], read_first=0)
    assert not [word for word in NOISE if word in stderr], stderr
    assert code == EXIT_STDOUT_CLOSED


def test_a_broken_pipe_elsewhere_is_not_taken_for_stdout(tmp_path: Path) -> None:
    # A dead MCP server's stdin also raises BrokenPipeError; stdout (pytest's, open) is fine.
    read_end, write_end = os.pipe()
    os.close(read_end)
    with pytest.raises(BrokenPipeError) as caught:
        os.write(write_end, b"x")
    os.close(write_end)
    assert caught.value.errno == errno.EPIPE
    assert not closed_stdout.caused_by_closed_stdout(caught.value)


def run_into(reader: list[str], args: list[str]) -> tuple[int, bytes]:
    """``toolscope ARGS | READER`` with real processes: toolscope's status and what the reader printed."""
    writer = subprocess.Popen(
        [sys.executable, "-m", "toolscope", *args], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=REPO
    )
    assert writer.stdout is not None
    shown = subprocess.run(reader, stdin=writer.stdout, capture_output=True, timeout=120).stdout
    writer.stdout.close()
    return writer.wait(timeout=120), shown


@pytest.mark.parametrize(
    "args",
    [
        ["tools", str(SAMPLES / "seed" / "step_config.json"), "--mode", "build"],
        ["explain", str(SAMPLES / "seed" / "step_config.json"), "notify_user", "--mode", "build"],
        ["tools", str(SAMPLES / "seed" / "step_config.json"), "--json"],
    ],
    ids=["tools", "explain", "tools-json"],
)
def test_head_on_an_output_that_fits_the_pipe_exits_141(args: list[str]) -> None:
    """Issue 22 item 10: ``| head -c 64`` on a few kilobytes written at once (``tools --json``)
    ended 0: every write had fit in the pipe, as if the whole answer had been read. Text written
    in several writes got 141 or 0 by the race between the writes and ``head``'s exit. The
    reader closed before the end, so 141 every time; a reader that takes everything still gets
    the command's own status."""
    code, shown = run_into(["head", "-c", "64"], args)
    assert len(shown) == 64
    assert code == EXIT_STDOUT_CLOSED
    code, shown = run_into(["cat"], args)
    assert code in (0, 1) and len(shown) > 64
