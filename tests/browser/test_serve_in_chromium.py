"""``toolscope serve`` in the real Chromium: open the page, press keys (no click first: #36),
read the answer; then stop the server with SIGTERM and with Ctrl+C while the page is open
(#22 item 11), cleanly: nothing on stderr, 130 for Ctrl+C (#36).

The page draws the terminal on a canvas (xterm.js), so the answer is read where the browser
gets it: the app's output arriving over the page's websocket, escape sequences removed.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psutil
import pytest

REPO = Path(__file__).resolve().parents[2]
SEED = REPO / "sample_configs" / "seed" / "step_config.json"
# A loaded 2-core machine may take several seconds to start the server and then the app.
START_SECONDS = 60
STOP_SECONDS = 15
# Measured 0.12-0.22 s for both signals (0.42-0.47 s with LATE_EXIT's app); the margin is for a
# loaded 2-core machine. Without the apps interrupted at once, SIGTERM took 6 s (the websocket
# grace, then terminate and kill).
QUICK_STOP_SECONDS = 4
LATE_EXIT = """
import atexit, os, sys, time
if "inspect" in sys.argv:  # the page's app, not the server
    def end_output_then_linger():
        os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
        time.sleep(0.3)
    atexit.register(end_output_then_linger)
"""
"""A ``sitecustomize`` for the page's app: its output ends 0.3 s before the process does. The
server waits for the output to end; with a page open, a real app's process used to end just after
the server's event loop had closed, and asyncio said "Loop … that handles pid N is closed" (two
stops of two in #36, three of six measured). Here that moment is made wide, so the check is exact."""
ESCAPES = re.compile(
    r"\x1b\[[0-9;?<>=]*[ -/]*[@-~]|\x1b[PX^_].*?\x1b\\|\x1b\][^\x07\x1b]*(\x07|\x1b\\)|\x1b[()][0-9A-B]"
)


class Served:
    """A running ``toolscope serve`` and the URL it printed."""

    def __init__(self, process: subprocess.Popen[str], url: str) -> None:
        self.process = process
        self.url = url


def start_server(tmp_path: Path, env: dict[str, str] | None = None) -> Served:
    # A Ctrl+C goes to the terminal's process group: the server gets its own group, and SIGINT
    # at its default (a background pytest inherits it ignored).
    process = subprocess.Popen(
        [sys.executable, "-m", "toolscope", "serve", str(SEED), "--port", "0"],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        env={**os.environ, "COLUMNS": "100", **(env or {})},
    )
    assert process.stdout is not None
    deadline = time.monotonic() + START_SECONDS
    line = ""
    while time.monotonic() < deadline and process.poll() is None:
        line = process.stdout.readline()  # the server prints its URL first, then nothing until it stops
        if "http://" in line:
            break
    found = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
    if found is None:
        process.kill()
        pytest.fail(f"no URL from toolscope serve: {line!r} {process.stderr.read() if process.stderr else ''}")
    return Served(process, found.group(0))


def stop_for_good(server: Served) -> None:
    if server.process.poll() is None:
        os.killpg(server.process.pid, signal.SIGKILL)
        server.process.wait(STOP_SECONDS)


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    server = start_server(tmp_path)
    yield server
    stop_for_good(server)


@pytest.fixture
def served_late_exit(tmp_path: Path) -> Iterator[Served]:
    """The server, its pages' apps ending their output a moment before their process (LATE_EXIT)."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(LATE_EXIT)
    path = os.pathsep.join(filter(None, [str(site), os.environ.get("PYTHONPATH")]))
    server = start_server(tmp_path, {"PYTHONPATH": path})
    yield server
    stop_for_good(server)


class Screen:
    """What the page's terminal has been sent, as plain text."""

    def __init__(self, page: Any) -> None:
        self.chunks: list[str] = []
        page.on("websocket", lambda ws: ws.on("framereceived", self._frame))

    def _frame(self, payload: str | bytes) -> None:
        text = payload.decode("utf-8", "replace") if isinstance(payload, bytes) else payload
        self.chunks.append(ESCAPES.sub("", text))

    def text(self) -> str:
        return "".join(self.chunks)

    def wait_for(self, page: Any, needle: str, start: int = 0) -> None:
        deadline = time.monotonic() + START_SECONDS
        while needle not in self.text()[start:]:
            assert time.monotonic() < deadline, f"{needle!r} never reached the page: {self.text()[-2000:]!r}"
            page.wait_for_timeout(100)


def open_page(browser: Any, served: Served) -> tuple[Any, Screen]:
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    screen = Screen(page)
    page.goto(served.url, wait_until="domcontentloaded")
    screen.wait_for(page, "notify_user")
    return page, screen


def app_processes(server: subprocess.Popen[str]) -> list[psutil.Process]:
    return [p for p in psutil.Process(server.pid).children(recursive=True) if "inspect" in " ".join(p.cmdline())]


def test_the_page_shows_the_app_and_answers_keys(browser: Any, served: Served) -> None:
    page, screen = open_page(browser, served)
    # The seed's question, answered on the first screen: notify_user is registered but hidden.
    screen.wait_for(page, "HIDDEN")
    assert "registered but hidden" in screen.text() or "registered but" in screen.text()
    # No click on the page first: the terminal has the keyboard once it is connected (#36:
    # keys did nothing until the page was clicked).
    before = len(screen.text())
    page.keyboard.press("m")  # next mode: build → run, and the tools that changed
    screen.wait_for(page, "mode build → run", before)
    before = len(screen.text())
    page.keyboard.press("2")  # the checklist: ask about one tool, read the fix
    screen.wait_for(page, "tool name", before)
    page.keyboard.type("notify_user")
    page.keyboard.press("Enter")
    screen.wait_for(page, "Is notify_user registered?", before)
    page.keyboard.press("a")  # every question at once, then the fix
    screen.wait_for(page, "Fix", before)
    assert len(app_processes(served.process)) == 1  # one app per open page
    page.close()


@pytest.mark.parametrize(
    ("stop", "status"),
    [pytest.param(signal.SIGTERM, -signal.SIGTERM, id="sigterm"), pytest.param(signal.SIGINT, 130, id="ctrl-c")],
)
def test_the_server_stops_cleanly_with_the_page_open(
    browser: Any, served_late_exit: Served, stop: int, status: int
) -> None:
    served = served_late_exit
    page, _ = open_page(browser, served)
    apps = app_processes(served.process)
    assert apps, "the page runs an app process"
    started = time.monotonic()
    if stop == signal.SIGINT:
        os.killpg(served.process.pid, signal.SIGINT)  # what Ctrl+C in its terminal does
    else:
        served.process.send_signal(signal.SIGTERM)
    ended = served.process.wait(STOP_SECONDS)
    took = time.monotonic() - started
    stderr = served.process.stderr.read() if served.process.stderr else ""
    # Ctrl+C: 130; SIGTERM: ended by that signal, after its cleanups (docs/commands.md, exit codes).
    assert ended == status, (ended, stderr)
    assert took < QUICK_STOP_SECONDS, took
    assert served.process.stdout is not None and "stopped" in served.process.stdout.read()
    # Not a line: no traceback, and no asyncio warning about an app reported to a closed loop.
    assert stderr == "", stderr
    gone, alive = psutil.wait_procs(apps, timeout=STOP_SECONDS)
    assert not alive, [p.cmdline() for p in alive]
    page.close()


def test_sigterm_does_not_wait_for_a_slow_stdout_reader(tmp_path: Path) -> None:
    """SIGTERM ends the server whether or not its stdout's reader has read "stopped" yet.

    Here nobody reads it until the end: the exit used to wait up to DRAIN_LIMIT_S (0.5 s) for
    the reader, although a process ending by SIGTERM has that status whatever the reader does.
    Once under that floor in three tries is proof it no longer waits (a loaded machine may slow
    one stop, never every one)."""
    from toolscope.cli.closed_stdout import DRAIN_LIMIT_S

    took: list[float] = []
    for _ in range(3):
        served = start_server(tmp_path)
        try:
            started = time.monotonic()
            served.process.send_signal(signal.SIGTERM)
            assert served.process.wait(STOP_SECONDS) == -signal.SIGTERM
            took.append(time.monotonic() - started)
        finally:
            stop_for_good(served)
        assert served.process.stdout is not None and "stopped" in served.process.stdout.read()
        if took[-1] < DRAIN_LIMIT_S:
            break
    assert min(took) < DRAIN_LIMIT_S, took


def test_sighup_stops_the_server_too(tmp_path: Path) -> None:
    """SIGHUP (the terminal closed) ends serve as SIGTERM does: by that signal, after "stopped".
    It used to be swallowed: the CLI routes it through the SIGINT handler, which serve's event
    loop had replaced with its own, so the server kept serving."""
    served = start_server(tmp_path)
    try:
        served.process.send_signal(signal.SIGHUP)
        assert served.process.wait(STOP_SECONDS) == -signal.SIGHUP
    finally:
        stop_for_good(served)
    assert served.process.stdout is not None and "stopped" in served.process.stdout.read()
    assert served.process.stderr is not None and served.process.stderr.read() == ""
