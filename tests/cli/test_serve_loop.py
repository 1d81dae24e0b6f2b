"""``toolscope serve``'s event loop (``cli/serve_loop.py``): an app that ignores SIGTERM is
killed after the grace, and its end reaches the loop before the loop closes (so asyncio's child
watcher has nothing to say about a closed loop). The served behaviour, with a page open, is
tests/browser/test_serve_in_chromium.py."""

from __future__ import annotations

import asyncio
import logging
import signal
import time

import pytest

from toolscope.cli.serve_loop import AppProcessLoop, end_processes

GRACE = 0.2


def test_a_process_that_ignores_sigterm_is_killed_and_reported_before_the_loop_closes(
    caplog: pytest.LogCaptureFixture,
) -> None:
    loop = AppProcessLoop()

    async def start_then_end() -> tuple[int | None, float]:
        # SIGTERM ignored, and inherited as ignored by the exec'd sleep: only SIGKILL ends it.
        process = await asyncio.create_subprocess_shell("trap '' TERM; exec sleep 30")
        assert [t.get_pid() for t in loop.app_processes] == [process.pid]
        started = time.monotonic()
        await end_processes(loop.app_processes, GRACE)
        return loop.app_processes[0].get_returncode(), time.monotonic() - started

    with caplog.at_level(logging.DEBUG, logger="asyncio"):
        try:
            returncode, took = loop.run_until_complete(start_then_end())
        finally:
            loop.close()
        time.sleep(0.1)  # a watcher thread still running would report to the closed loop now
    assert returncode == -signal.SIGKILL
    assert 2 * GRACE <= took < 2 * GRACE + 10, took  # two graces, then SIGKILL ends it at once
    assert not [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
