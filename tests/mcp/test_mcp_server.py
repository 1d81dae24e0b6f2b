"""``toolscope mcp`` as a real process, driven by the official MCP client over stdio (``mcp.client.stdio``).

Each answer is compared with what the CLI prints for the same subject (Typer's runner, the same
COLUMNS the server inherits). Process lane: every test starts a server.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from typer.testing import CliRunner

from toolscope.cli.app import app

REPO = Path(__file__).resolve().parents[2]
SEED = str(REPO / "sample_configs" / "seed" / "step_config.json")
TOOLSCOPE = [sys.executable, "-m", "toolscope"]

pytestmark = pytest.mark.mcp_sdk  # the mcp<2 lanes run it too (.ci/agentscope-compat.sh)


@asynccontextmanager
async def served(*args: str, cwd: Path | None = None) -> AsyncIterator[ClientSession]:
    """A ``toolscope mcp ARGS`` server and an initialized client session on it."""
    params = StdioServerParameters(
        command=TOOLSCOPE[0], args=[*TOOLSCOPE[1:], "mcp", *args], cwd=cwd, env=dict(os.environ)
    )
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        yield session


async def call(session: ClientSession, name: str, **arguments: Any) -> tuple[str, bool]:
    """The text of one tool call's answer, and whether it is an error."""
    result = await session.call_tool(name, arguments)
    is_error = getattr(result, "is_error", None)
    if is_error is None:
        is_error = result.isError  # mcp < 2
    assert len(result.content) == 1
    return result.content[0].text, bool(is_error)  # type: ignore[union-attr]


def cli(*args: str) -> str:
    """What ``toolscope ARGS`` prints (Typer's runner)."""
    result = CliRunner().invoke(app, list(args))
    assert result.exit_code in (0, 1), result.output
    return result.stdout


async def test_answers_are_the_clis_words() -> None:
    async with served(SEED, "--mode", "build") as session:
        listed = (await session.list_tools()).tools
        assert [t.name for t in listed] == ["why_not", "tools", "check"]
        hints = [t.annotations.model_dump(by_alias=True) for t in listed if t.annotations is not None]
        assert len(hints) == 3 and all(h["readOnlyHint"] is True for h in hints)

        text, is_error = await call(session, "why_not", tool="notify_user")
        assert not is_error
        assert "tool notify_user in mode build: HIDDEN" in text
        assert text == cli("explain", SEED, "notify_user", "--mode", "build")

        text, is_error = await call(session, "why_not", tool="notify_usr")
        assert not is_error
        assert "Did you mean: notify_user" in text
        assert text == cli("explain", SEED, "notify_usr", "--mode", "build")

        text, is_error = await call(session, "tools")
        assert not is_error and "! notify_user" in text
        assert text == cli("tools", SEED, "--mode", "build", "--wide")
        text, _ = await call(session, "tools", hidden_only=True)
        assert text == cli("tools", SEED, "--mode", "build", "--wide", "--hidden")

        text, is_error = await call(session, "check")
        assert not is_error and "registered_not_allow_listed" in text
        assert text == cli("check", SEED, "--mode", "build")


async def test_untrusted_names_stay_inert() -> None:
    hostile = "notify\x1b]8;;http://evil\x07user\u202e\x1b[2J"
    async with served(SEED, "--mode", "build") as session:
        text, is_error = await call(session, "why_not", tool=hostile)
        assert not is_error
        assert "\x1b" not in text and "\u202e" not in text and "\x07" not in text
        assert "notify\\x1b]8;;http://evil\\x07user\\u202e" in text
        text, is_error = await call(session, "why_not", tool="x" * 100_000)
        assert is_error and "100,000 characters" in text and len(text) < 200


async def test_answers_are_capped(tmp_path: Path) -> None:
    sys.path.insert(0, str(REPO / "benchmarks"))
    from engine_bench import make_universe_files

    step = make_universe_files(tmp_path, tools=3000, servers=20)
    async with served(str(step), "--mode", "build") as session:
        text, is_error = await call(session, "tools")
    assert not is_error
    assert 60_000 <= len(text) < 60_200
    assert text.rstrip().endswith("more characters not sent: toolscope mcp answers are capped]")


async def test_no_config_found_is_said_in_every_answer(tmp_path: Path) -> None:
    async with served(cwd=tmp_path) as session:
        for tool, arguments in (("why_not", {"tool": "notify_user"}), ("tools", {}), ("check", {})):
            text, is_error = await call(session, tool, **arguments)
            assert is_error
            assert text.startswith("error: no agent configuration found: toolscope mcp was started without CONFIG")
            assert str(tmp_path) in text and "looked for: .mcp.json, .claude/ (Claude Code)" in text


async def test_the_working_directorys_agent_and_no_server_started(tmp_path: Path) -> None:
    """Without CONFIG the cwd's Claude Code project is answered; a server the user's own ~/.claude.json
    defines (which `toolscope tools` starts) is not started: only --discover would."""
    home, project, marker = tmp_path / "home", tmp_path / "proj", tmp_path / "started"
    project.mkdir()
    home.mkdir()
    (project / ".mcp.json").write_text(json.dumps({"mcpServers": {}}))
    starts = {"command": sys.executable, "args": ["-c", f"open({str(marker)!r}, 'w')"]}
    (home / ".claude.json").write_text(json.dumps({"mcpServers": {"own": starts}}))
    async with served("--home", str(home), cwd=project) as session:
        text, is_error = await call(session, "why_not", tool="mcp__own__x")
        assert not is_error
        assert "Claude Code" in text and "not started" in text
        text, is_error = await call(session, "tools")
        assert not is_error and "not started" in text
    assert not marker.exists()


def test_bad_config_is_exit_2_before_serving(tmp_path: Path) -> None:
    done = subprocess.run(
        [*TOOLSCOPE, "mcp", str(tmp_path / "missing.json")],
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 2, done.stderr
    assert "missing.json" in done.stderr and "Traceback" not in done.stderr
    assert done.stdout == ""


@pytest.mark.parametrize(("how", "status"), [("eof", 0), (signal.SIGTERM, -signal.SIGTERM), (signal.SIGINT, 130)])
def test_ends_cleanly(how: Any, status: int) -> None:
    server = subprocess.Popen(
        [*TOOLSCOPE, "mcp", SEED],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert server.stdin is not None and server.stdout is not None
    hello = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
    server.stdin.write((json.dumps(hello) + "\n").encode())
    server.stdin.flush()
    assert b'"id":1' in server.stdout.readline()  # serving
    if how == "eof":
        server.stdin.close()
    else:
        server.send_signal(how)
    try:
        server.wait(timeout=60)
    finally:
        server.kill()
    assert server.stderr is not None
    err = server.stderr.read()
    assert server.returncode == status, err
    assert b"Traceback" not in err


def test_an_over_long_line_is_dropped_and_serving_goes_on() -> None:
    server = subprocess.Popen([*TOOLSCOPE, "mcp", SEED], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert server.stdin is not None and server.stdout is not None
    try:
        server.stdin.write(b'{"jsonrpc": "2.0", "id": 1, "method": "ping", "params": {"x": "' + b"x" * (5 << 20))
        server.stdin.write(b'"}}\n{"jsonrpc": "2.0", "id": 2, "method": "ping"}\n')
        server.stdin.flush()
        answers = [json.loads(server.stdout.readline())]
        while answers[-1].get("id") != 2 and len(answers) < 3:  # a parse error may come first
            answers.append(json.loads(server.stdout.readline()))
        assert answers[-1] == {"jsonrpc": "2.0", "id": 2, "result": {}}
        assert all(a.get("id") != 1 for a in answers)
        server.stdin.close()
        assert server.wait(timeout=60) == 0
    finally:
        server.kill()
