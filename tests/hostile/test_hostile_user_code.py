"""Hostile corpus: signals, hangs and exit codes around the user's code and long replays.

Real processes and real signals: the CLI in a subprocess, ``SIGINT``/``SIGTERM`` sent with
``os.kill`` while it replays a long session (tiled from the real recording in
sample_configs), a real pipe closed by ``head``. Factories are real AgentScope toolkits.
"""

from __future__ import annotations

import copy
import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from toolscope.cli.app import app

pytestmark = pytest.mark.agentscope

REPO = Path(__file__).resolve().parents[2]
AGENTSCOPE = REPO / "sample_configs" / "agentscope"
TOOLKIT = AGENTSCOPE / "toolkit.yaml"
runner = CliRunner()

FACTORIES = textwrap.dedent(
    '''
    import asyncio, sys, time
    from typing import Any
    from agentscope.tool import FunctionTool, ToolBase, ToolGroup, Toolkit


    def note_write(text: str) -> str:
        """Write a note.

        Args:
            text (`str`): The note text.
        """
        return "ok"


    class Exiting(ToolBase):
        name = "exiting"
        description = "exits from check_permissions"
        input_schema = {"type": "object", "properties": {}}
        is_concurrency_safe = True
        is_read_only = False

        async def check_permissions(self, tool_input: dict[str, Any], context: Any):
            sys.exit(0)

        async def call(self):
            pass


    class Raising(Exiting):
        name = "raising"

        async def check_permissions(self, tool_input, context):
            raise RuntimeError("permission backend down")


    class Interrupting(Exiting):
        name = "interrupting"

        async def check_permissions(self, tool_input, context):
            raise KeyboardInterrupt


    async def async_exit():
        sys.exit(0)

    async def async_interrupt():
        raise KeyboardInterrupt

    async def async_sleeps():
        await asyncio.sleep(3600)

    def sync_sleeps():
        time.sleep(3600)

    def permission_exits():
        return Toolkit(tools=[Exiting()])

    def permission_raises():
        return Toolkit(tools=[Raising()])

    def permission_interrupts():
        return Toolkit(tools=[Interrupting()])

    def string_group():
        toolkit = Toolkit(tools=[FunctionTool(note_write)])
        toolkit.tool_groups.append("web")
        return toolkit

    def chdirs():
        import os
        os.makedirs("elsewhere", exist_ok=True)
        os.chdir("elsewhere")
        return Toolkit(tools=[FunctionTool(note_write)])

    def many():
        groups = [ToolGroup(f"g{i}", "x" * 60, tools=[FunctionTool(note_write, name=f"n{i}")]) for i in range(2000)]
        return Toolkit(tools=[FunctionTool(note_write)], tool_groups=groups)
    '''
)


@pytest.fixture
def factories(tmp_path: Path) -> Path:
    path = tmp_path / "user_factories.py"
    path.write_text(FACTORIES)
    return path


def invoke(*args: str, timeout_env: str | None = None):
    env = {"TOOLSCOPE_FACTORY_TIMEOUT": timeout_env} if timeout_env else {}
    started = time.monotonic()
    result = runner.invoke(app, list(args), env=env)
    assert time.monotonic() - started < 20, "a hang"
    return result


@pytest.mark.parametrize(
    ("name", "needle"),
    [
        ("async_exit", "sys.exit(0)"),
        ("async_interrupt", "KeyboardInterrupt"),
        ("permission_exits", "sys.exit(0)"),
        ("permission_raises", "permission backend down"),
        ("permission_interrupts", "KeyboardInterrupt"),
        ("string_group", "tool_groups[1] is a str"),
    ],
)
def test_user_code_failing_is_exit_3_never_a_hang_nor_70(factories: Path, name: str, needle: str) -> None:
    result = invoke("tools", f"{factories}:{name}")
    assert result.exit_code == 3, result.output
    assert needle in " ".join(result.output.split())  # the error is word-wrapped at the width
    assert "toolscope bug" not in result.output and "Traceback" not in result.output


@pytest.mark.parametrize("name", ["sync_sleeps", "async_sleeps"])
def test_a_factory_that_never_returns_times_out(factories: Path, name: str) -> None:
    started = time.monotonic()
    result = invoke("tools", f"{factories}:{name}", timeout_env="0.5")
    assert result.exit_code == 3, result.output
    assert "did not finish within 0.5s" in result.output and "TOOLSCOPE_FACTORY_TIMEOUT" in result.output
    assert time.monotonic() - started < 10


def toolscope(*args: str, **kwargs) -> subprocess.Popen:  # noqa: ANN003
    return subprocess.Popen([sys.executable, "-m", "toolscope", *args], text=True, **kwargs)


def long_session(path: Path, tiles: int) -> Path:
    """The real recording's reply tiled ``tiles`` times (two reset_tools calls each), fresh ids."""
    state = json.loads((AGENTSCOPE / "session_typo.json").read_text())
    reply = state["context"][1]
    blocks = reply["content"]
    reply["content"] = [dict(copy.deepcopy(b), id=f"{b['id']}-{i}") for i in range(tiles) for b in blocks]
    path.write_text(json.dumps(state))
    return path


@pytest.mark.parametrize(
    ("command", "signum", "status"),
    [("step", signal.SIGINT, 130), ("step", signal.SIGTERM, -signal.SIGTERM), ("report", signal.SIGINT, 130)],
)
def test_a_signal_during_a_long_replay_ends_it_promptly_and_cleanly(
    tmp_path: Path, command: str, signum: int, status: int
) -> None:
    # Before: the loop thread was still replaying at interpreter shutdown, and the process
    # aborted ("FATAL: exception not rethrown", exit 134) every time.
    # 2,000 calls: several seconds of replay, so the signal lands inside it even on a fast machine
    # (520 calls could finish within the 0.3 s the test waits before signalling).
    session = long_session(tmp_path / "long.json", 1000)
    extra = ["-o", str(tmp_path / "r.md")] if command == "report" else []
    process = toolscope(
        command, str(TOOLKIT), "--session", str(session), *extra, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    try:
        assert process.stderr is not None
        line = process.stderr.readline()  # the replay announces itself once it starts
        assert "replaying 2000 reset_tools calls" in line, line
        time.sleep(0.3)
        sent = time.monotonic()
        os.kill(process.pid, signum)
        _, err = process.communicate(timeout=15)
    finally:
        process.kill()
    assert process.returncode == status, err
    assert time.monotonic() - sent < 5
    assert "FATAL" not in err and "Traceback" not in err
    assert not (tmp_path / "r.md").exists()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".r.md")]


@pytest.mark.parametrize(
    "args",
    [
        ["tools", "{factories}:many"],  # after the stdout guard fd 1 is stderr: the check read the wrong fd
        ["filter", "--queries", "{queries}"],  # one 600 KB write returned short and exited 0
    ],
    ids=["factory", "filter-queries"],
)
def test_a_reader_gone_mid_output_is_141(tmp_path: Path, factories: Path, args: list[str]) -> None:
    queries = tmp_path / "queries.json"
    queries.write_text(json.dumps([f"pkg{i}:tool{i}" for i in range(5000)]))
    argv = [a.format(factories=factories, queries=queries) for a in args]
    process = toolscope(*argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdout is not None
    process.stdout.read(1)
    process.stdout.close()  # like `| head -c1`
    err = process.stderr.read() if process.stderr else ""
    assert process.wait(timeout=60) == 141, err
    assert "Traceback" not in err and "Exception ignored" not in err


def test_a_factory_changing_directory_does_not_move_the_output(
    factories: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = invoke("report", f"{factories}:chdirs", "-o", "out.md")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "out.md").is_file() and not (tmp_path / "elsewhere" / "out.md").exists()
    assert Path.cwd() == tmp_path


def test_a_new_output_is_created_exclusively(tmp_path: Path) -> None:
    # Two `report -o same.md` without --force: both saw no file; the second must not replace the first.
    from toolscope.core.model.errors import InputError
    from toolscope.core.outputs.output_file import check_output, write_output

    out = tmp_path / "same.md"
    assert check_output(str(out), force=False) is not None
    out.write_text("the other run's report")
    from toolscope.core.outputs import output_file

    target = output_file.OutputTarget(out, "new")
    with pytest.raises(InputError, match="already exists"):
        output_file._write_atomic(target, b"ours", str(out))
    assert out.read_text() == "the other run's report"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["same.md"]  # no temporary left behind
    assert write_output("x", str(tmp_path / "fresh.md"), force=False) == tmp_path / "fresh.md"
