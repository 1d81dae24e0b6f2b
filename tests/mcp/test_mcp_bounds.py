"""The bounds of MCP discovery, piece by piece: the stderr ring fed by a real child process, and
the HTTP body cap's setting (the whole-CLI cases are in tests/hostile/test_hostile_mcp.py)."""

from __future__ import annotations

import subprocess
import sys
import threading

import pytest

from toolscope.core.mcp.http_limits import DEFAULT_MIB, max_body_bytes
from toolscope.core.mcp.stderr_ring import STDERR_KEPT, TAIL_CHARS, StderrRing
from toolscope.core.model.errors import InputError


def test_the_ring_keeps_the_last_64_kib_of_what_a_child_wrote() -> None:
    ring = StderrRing()
    script = "import sys\nfor i in range(20000): sys.stderr.write(f'line {i:05d} ' + 'x' * 100 + chr(10))\nsys.stderr.write('the end\\n')"
    subprocess.run([sys.executable, "-c", script], stderr=ring.file, check=True, timeout=60)
    ring.close()
    kept = ring.kept()
    assert ring.total > 2_000_000  # about 2 MB written,
    assert len(kept) == STDERR_KEPT  # 64 KiB kept,
    assert kept.endswith(b"line 19999 " + b"x" * 100 + b"\nthe end\n")  # the end of it
    assert ring.tail() == "the end"


def test_the_tail_is_the_end_of_the_last_line_only() -> None:
    ring = StderrRing()
    subprocess.run([sys.executable, "-c", "import sys; sys.stderr.write('y' * 5000)"], stderr=ring.file, timeout=60)
    ring.close()
    assert ring.tail() == "y" * TAIL_CHARS


def test_the_tail_reads_what_an_exited_child_left_before_the_reader_thread_runs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # On a loaded machine the reader thread may not run between the child's exit and the failure
    # reason: here it is held in select() until the end, so only tail()'s own read can see the words.
    from toolscope.core.mcp import stderr_ring

    release = threading.Event()
    real_select = stderr_ring.select.select

    def held_select(*args: object) -> object:
        release.wait(30)
        return real_select(*args)

    monkeypatch.setattr(stderr_ring.select, "select", held_select)
    ring = StderrRing()
    try:
        subprocess.run(
            [sys.executable, "-c", "import sys; sys.stderr.write('exiting on purpose\\n')"],
            stderr=ring.file,
            timeout=60,
        )
        assert ring.tail() == "exiting on purpose"
    finally:
        release.set()
        ring.close()
    assert ring.tail() == "exiting on purpose" and ring.total == len("exiting on purpose\n")


def test_a_ring_nobody_wrote_to_has_no_tail() -> None:
    ring = StderrRing()
    ring.close()
    assert ring.tail() == "" and ring.kept() == b""


@pytest.mark.parametrize(("value", "expected"), [("", DEFAULT_MIB * 2**20), ("0.5", 2**19), (" 2 ", 2 * 2**20)])
def test_the_body_cap_setting(monkeypatch: pytest.MonkeyPatch, value: str, expected: int) -> None:
    monkeypatch.setenv("TOOLSCOPE_MCP_MAX_BODY_MIB", value)
    assert max_body_bytes() == expected


@pytest.mark.parametrize("value", ["0", "-1", "nan", "inf", "lots"])
def test_a_bad_body_cap_is_bad_input(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    monkeypatch.setenv("TOOLSCOPE_MCP_MAX_BODY_MIB", value)
    with pytest.raises(InputError, match="expected a positive number of MiB"):
        max_body_bytes()
