"""The real CLI in a subprocess: ``toolscope capture -- python script.py`` (the command's status,
the base-URL variables), bad input (exit 2, file and place), and SIGTERM on the real process:
a valid capture file and no process left behind."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from toolscope.core.capture.reader import read_capture

AGENT = """
import os, sys, openai
client = openai.OpenAI(max_retries=0)  # OPENAI_BASE_URL and a placeholder key come from toolscope
tools = [{"type": "function", "function": {"name": "reset_tools", "parameters": {"type": "object"}}}]
first = client.chat.completions.create(model="gpt-4.1", messages=[{"role": "user", "content": "x"}], tools=tools)
print(first.choices[0].message.tool_calls[0].function.arguments)
second = client.chat.completions.create(model="gpt-4.1", messages=[{"role": "user", "content": "x"}])
base = os.environ["OPENAI_BASE_URL"]
print(second.choices[0].message.content, base.endswith("/v1"), os.environ["OPENAI_API_BASE"] == base, os.environ["ANTHROPIC_BASE_URL"] + "/v1" == base)
sys.exit(5)
"""


def _clean_env() -> dict[str, str]:
    """This environment without the base-URL and key variables capture sets for its command."""
    return {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "ANTHROPIC_"))}


def _start_capture(*args: str, cwd: Path) -> subprocess.Popen[str]:
    """``toolscope capture ARGS`` running in the background, its stdout and stderr piped."""
    return subprocess.Popen(
        [sys.executable, "-m", "toolscope", "capture", *args],
        cwd=cwd,
        env=_clean_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _toolscope(*args: str, cwd: Path, **kwargs) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "toolscope", "capture", *args],
        cwd=cwd,
        env=_clean_env(),
        capture_output=True,
        text=True,
        timeout=120,
        **kwargs,
    )


def test_capture_runs_the_command_and_exits_with_its_status(tmp_path: Path) -> None:
    (tmp_path / "agent.py").write_text(AGENT)
    (tmp_path / "replies.yaml").write_text(
        "- tool_calls:\n    - name: reset_tools\n      arguments: {web_serch: true}\n- text: fine\n"
    )
    done = _toolscope("-o", "c.jsonl", "--replies", "replies.yaml", "--", sys.executable, "agent.py", cwd=tmp_path)
    assert done.returncode == 5, done.stderr
    assert done.stdout.splitlines() == ['{"web_serch":true}', "fine True True True"]
    assert "2 requests recorded in c.jsonl" in done.stderr
    first, second = read_capture(tmp_path / "c.jsonl").records
    assert (first.protocol, second.protocol) == ("openai-chat", "openai-chat")
    assert [t.name for t in first.tools] == ["reset_tools"] and second.tools == []
    assert first.reply.tool_calls[0].arguments == {"web_serch": True}


def test_bad_input_exits_2_naming_the_file_and_place(tmp_path: Path) -> None:
    (tmp_path / "replies.json").write_text('[{"text": "a"}, {"tool_calls": [{"arguments": {}}]}]')
    bad = _toolscope("--replies", "replies.json", "--", "true", cwd=tmp_path)
    assert bad.returncode == 2
    assert "replies.json: not a valid replies file" in bad.stderr and "[1].tool_calls[0].name" in bad.stderr
    assert "Traceback" not in bad.stderr
    both = _toolscope("--replies", "replies.json", "--upstream", "http://127.0.0.1:9", cwd=tmp_path)
    assert both.returncode == 2 and "cannot be used with --upstream" in both.stderr
    (tmp_path / "taken.jsonl").write_text("")
    taken = _toolscope("-o", "taken.jsonl", "--", "true", cwd=tmp_path)
    assert taken.returncode == 2 and "already exists; use --force" in taken.stderr


def test_sigterm_while_serving_leaves_a_valid_capture(tmp_path: Path) -> None:
    proc = _start_capture("-o", "c.jsonl", cwd=tmp_path)
    try:
        assert proc.stdout is not None
        head = proc.stdout.readline()
        url = head.split("listening on ", 1)[1].split(",", 1)[0]
        exports = [proc.stdout.readline().strip() for _ in range(5)]
        assert f"export OPENAI_BASE_URL={url}/v1" in exports and f"export ANTHROPIC_BASE_URL={url}" in exports
        for _ in range(3):
            httpx.post(
                f"{url}/v1/chat/completions", json={"model": "m", "messages": [], "stream": True}
            ).raise_for_status()
        os.kill(proc.pid, signal.SIGTERM)
        proc.wait(timeout=20)
    finally:
        proc.kill()
    assert proc.returncode == -signal.SIGTERM  # ended by the signal it got, after cleaning up
    assert len(read_capture(tmp_path / "c.jsonl").records) == 3


def test_sigterm_during_a_command_ends_the_command_too(tmp_path: Path) -> None:
    script = "import os, time, pathlib; pathlib.Path('pid').write_text(str(os.getpid())); time.sleep(60)"
    proc = _start_capture("-o", "c.jsonl", "--", sys.executable, "-c", script, cwd=tmp_path)
    try:
        deadline = time.monotonic() + 60
        while not (tmp_path / "pid").exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        child = int((tmp_path / "pid").read_text())
        os.kill(proc.pid, signal.SIGTERM)
        proc.wait(timeout=20)
    finally:
        proc.kill()
    assert proc.returncode == -signal.SIGTERM
    assert not Path(f"/proc/{child}").exists(), "the command outlived toolscope capture"
    assert (tmp_path / "c.jsonl").read_text() == ""


@pytest.mark.parametrize("stream", [False, True])
def test_ctrl_c_with_a_request_in_flight_records_it_without_a_traceback(tmp_path: Path, stream: bool) -> None:
    """The upstream holds the reply (no byte yet, or one event of a stream) until toolscope is
    interrupted: the client's request is ended cleanly and its line says it was cut off."""
    import asyncio
    import threading

    from capture_helpers import AppServer
    from starlette.applications import Starlette
    from starlette.responses import StreamingResponse
    from starlette.routing import Route

    arrived = threading.Event()

    async def held(request):  # noqa: ANN001, ANN202 - a Starlette endpoint
        arrived.set()
        if not stream:
            await asyncio.sleep(60)

        async def events():  # noqa: ANN202
            yield b'data: {"choices":[{"index":0,"delta":{"content":"hi"}}]}\n\n'
            await asyncio.sleep(60)

        return StreamingResponse(events(), media_type="text/event-stream")

    upstream = AppServer(Starlette(routes=[Route("/{path:path}", held, methods=["POST"])]))
    proc = _start_capture("-o", "c.jsonl", "--upstream", upstream.url, cwd=tmp_path)
    answers: list[httpx.Response] = []
    try:
        assert proc.stdout is not None
        url = proc.stdout.readline().split("listening on ", 1)[1].split(",", 1)[0]
        body = {"model": "m", "messages": [], "stream": stream}
        client = threading.Thread(
            target=lambda: answers.append(httpx.post(f"{url}/v1/chat/completions", json=body, timeout=60))
        )
        client.start()
        assert arrived.wait(30), "the request never reached the upstream"
        time.sleep(0.3)  # the stream's first event is relayed
        os.kill(proc.pid, signal.SIGINT)
        _out, err = proc.communicate(timeout=60)
        client.join(30)
    finally:
        proc.kill()
        upstream.stop()
    assert proc.returncode == 130, err  # interrupted, as serve reports it (#36: it was 0)
    assert "Traceback" not in err and "CancelledError" not in err, err
    assert "1 request still in flight after 5 s were cut off" in err and "1 request recorded" in err
    (record,) = read_capture(tmp_path / "c.jsonl").records
    assert record.reply.error is not None
    assert "cut off" in record.reply.error or "stopped before this reply" in record.reply.error
    assert answers and answers[0].status_code == (200 if stream else 503)


def _running(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie has ended: its adopter may not have reaped it yet)."""
    try:
        return not Path(f"/proc/{pid}/stat").read_text().rsplit(") ", 1)[-1].startswith("Z")
    except OSError:
        return False


def test_sigterm_ends_the_background_children_of_a_shell_that_exits_first(tmp_path: Path) -> None:
    proc = _start_capture("-o", "c.jsonl", "--", "sh", "-c", "sleep 300 & echo $! > gc; wait", cwd=tmp_path)
    try:
        deadline = time.monotonic() + 60
        while not (tmp_path / "gc").exists() or not (tmp_path / "gc").read_text().strip():
            assert time.monotonic() < deadline, "the shell never started its child"
            time.sleep(0.05)
        grandchild = int((tmp_path / "gc").read_text())
        os.kill(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)
        ended = time.monotonic() + 10
        while _running(grandchild) and time.monotonic() < ended:
            time.sleep(0.05)
    finally:
        proc.kill()
    assert proc.returncode == -signal.SIGTERM
    assert not _running(grandchild), "the shell's background child outlived toolscope capture"


def test_ctrl_c_while_serving_exits_130_like_serve(tmp_path: Path) -> None:
    """#36: capture exited 0 on Ctrl+C where serve exits 130; the summary is still written."""
    proc = _start_capture("-o", "c.jsonl", cwd=tmp_path)
    try:
        assert proc.stdout is not None
        assert "listening on" in proc.stdout.readline()
        os.kill(proc.pid, signal.SIGINT)
        _out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 130, err
    assert "0 requests recorded" in err and "Traceback" not in err, err


# The real CLI, held at one import of its start-up until the test's signal arrives: the signal
# lands there every time, not wherever a timer happened to fall.
_PAUSED_AT = """
import sys, time
from pathlib import Path

PAUSE_AT = sys.argv[1]

class PauseAtImport:
    def find_spec(self, name, path=None, target=None):
        if name == PAUSE_AT:
            sys.meta_path.remove(self)
            Path("paused").write_text(name)
            time.sleep(120)  # the signal ends this (KeyboardInterrupt), as it would the real import
        return None

sys.meta_path.insert(0, PauseAtImport())
sys.argv = ["toolscope", "capture", *sys.argv[2:]]
from toolscope.cli.app import main
main()
"""


@pytest.mark.parametrize(
    "module",
    [
        "toolscope.core.capture.server",  # the server modules load (most of the start-up)
        "pydantic",  # Typer reads --port through pydantic, before the command runs
    ],
)
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_before_capture_started_is_said_and_nothing_is_written(
    tmp_path: Path, module: str, signum: int
) -> None:
    """#36: Ctrl+C during start-up exited 130 with no word at all."""
    proc = subprocess.Popen(
        [sys.executable, "-c", _PAUSED_AT, module, "-o", "c.jsonl", "--port", "0"],
        cwd=tmp_path,
        env=_clean_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while not (tmp_path / "paused").exists():
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                pytest.fail(f"never reached the import of {module}: {proc.communicate(timeout=30)}")
            time.sleep(0.02)
        os.kill(proc.pid, signum)
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == (130 if signum == signal.SIGINT else -signum), err
    assert err == "toolscope capture: interrupted before it started; nothing was recorded\n"
    assert out == "" and not (tmp_path / "c.jsonl").exists()
