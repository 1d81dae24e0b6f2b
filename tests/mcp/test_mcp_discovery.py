"""Live discovery against real MCP servers over stdio/HTTP/SSE, via the official SDK.

Real servers nobody here wrote (mcp-server-time, mcp-server-git) plus the misbehaving
fixture server. Timeouts are short where a server is meant to hang.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from mcpdisc_helpers import children_of, fixture, http_fixture, is_running

from toolscope.core.mcp.config import config_from_dict
from toolscope.core.mcp.discovery import discover, discover_sync
from toolscope.core.mcp.eras import modern_sdk

HANDSHAKE = "server/discover" if modern_sdk() else "initialize"
GENEROUS = 20.0  # for servers that should succeed: only a hang should ever reach a timeout


def run(servers: dict, timeout: float = GENEROUS):
    return discover_sync(config_from_dict({"mcpServers": servers}), timeout)


def test_real_time_and_git_servers(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    result = run(
        {
            "time": {"command": sys.executable, "args": ["-m", "mcp_server_time", "--local-timezone", "UTC"]},
            "git": {"command": sys.executable, "args": ["-m", "mcp_server_git", "--repository", str(repo)]},
        }
    )
    assert result.all_ok, [s.error for s in result.servers]
    time_server, git_server = result.servers
    assert {"get_current_time", "convert_time"} <= set(time_server.tools)
    assert {"git_status", "git_log", "git_diff", "git_commit"} <= set(git_server.tools)
    assert time_server.descriptions["get_current_time"]
    assert result.duplicates == ()
    assert result.source.kind == "live" and result.outage_servers == ()


def test_exit_at_start_is_failed_to_start_with_exit_code_and_stderr() -> None:
    (server,) = run({"broken": fixture("--mode", "exit")}).servers
    assert not server.ok and server.tools == ()
    # The first request is the SDK's server/discover probe (mcp >= 2) or initialize (mcp < 2).
    assert server.error.startswith(f"failed to start: process exited with code 3 before answering {HANDSHAKE}")
    assert "exiting at start on purpose" in server.error


def test_missing_command_is_failed_to_start() -> None:
    (server,) = run({"nope": {"command": "/nonexistent/toolscope-mcp-server"}}).servers
    assert not server.ok
    assert server.error == "failed to start: No such file or directory: '/nonexistent/toolscope-mcp-server'"


def test_missing_working_directory_is_named(tmp_path: Path) -> None:
    missing = str(tmp_path / "no-such-dir")
    (server,) = run({"w": fixture(working_dir=missing)}).servers
    assert server.error == f"failed to start: working directory {missing!r} does not exist"


def test_tools_list_failure_and_crash_during_list() -> None:
    result = run({"refuses": fixture("--mode", "fail-list"), "dies": fixture("--mode", "crash-list")})
    refuses, dies = result.servers
    assert refuses.error == "tools/list failed: fixture: tools/list refused on purpose"
    assert dies.error.startswith("crashed: process exited with code 4 during tools/list")
    assert result.outage_servers == ("refuses", "dies")


def test_markup_and_escapes_come_back_verbatim() -> None:
    (server,) = run({"evil": fixture("--mode", "markup")}).servers
    assert server.ok
    assert server.tools == ("[bold red]boom[/bold red]", "\x1b[31mred\x1b[0m", "<b>html</b>")
    assert "\x1b]8;;" in server.descriptions["<b>html</b>"]  # kept raw here; renderers make it inert


def test_pagination_1000_tools() -> None:
    (server,) = run({"many": fixture("--count", "1000", "--page-size", "37")}).servers
    assert server.ok, server.error
    assert len(server.tools) == 1000
    assert server.tools[0] == "tool_0000" and server.tools[-1] == "tool_0999"
    assert len(set(server.tools)) == 1000


def test_duplicates_first_server_in_config_order_wins() -> None:
    result = run(
        {
            "one": fixture("--tools", "alpha,beta"),
            "two": fixture("--tools", "beta,gamma,alpha"),
        }
    )
    assert result.all_ok
    assert [(d.tool, d.kept_server, d.dropped_server) for d in result.duplicates] == [
        ("beta", "one", "two"),
        ("alpha", "one", "two"),
    ]
    assert result.tool_to_server == {"alpha": "one", "beta": "one", "gamma": "two"}
    assert result.server("two").tools == ("beta", "gamma", "alpha")  # as advertised


def test_zero_tool_server_connects_but_is_an_outage() -> None:
    result = run({"empty": fixture("--tools", "")})
    assert result.all_ok and result.servers[0].tools == ()
    assert result.outage_servers == ("empty",)


def test_hanging_server_bounded_others_present_and_every_process_reaped(tmp_path: Path) -> None:
    """The hang ignores SIGTERM and every server leaves a grandchild behind: all must die."""
    before = children_of(os.getpid())
    pidfiles = {name: tmp_path / f"{name}.pid" for name in ("ok", "hang", "crash")}
    # The healthy servers need ~1.2 s of CPU each to start (the SDK's import), three start at
    # once, beside the other worker's tests: 4 s was missed at load 9. The hang is
    # asleep meanwhile, so a wider deadline costs its worker no CPU.
    timeout = 8.0
    started = time.monotonic()
    result = run(
        {
            "ok": fixture("--tools", "alpha,beta", "--spawn-child", str(pidfiles["ok"])),
            "hang": fixture("--mode", "hang", "--ignore-sigterm", "--spawn-child", str(pidfiles["hang"])),
            "crash": fixture("--mode", "crash-list", "--spawn-child", str(pidfiles["crash"])),
        },
        timeout=timeout,
    )
    wall = time.monotonic() - started
    ok, hang, crash = result.servers
    assert ok.ok and ok.tools == ("alpha", "beta")
    assert not hang.ok and hang.error == f"timed out after {timeout:g}s waiting for {HANDSHAKE}"
    assert crash.error.startswith("crashed: ")
    # Killed at its deadline: the SDK's polite shutdown it replaces (2 s + 2 s) would add 4 s.
    # 3 s of room for a busy shared machine still tells the two apart.
    assert timeout <= wall < timeout + 3.0, wall
    assert hang.elapsed < timeout + 2.0, hang.elapsed
    # No child of ours survives, and neither do the servers' own children.
    assert {p for p in children_of(os.getpid()) - before if is_running(p)} == set()
    for server in result.servers:
        assert server.pid is not None and not is_running(server.pid)
    for name, pidfile in pidfiles.items():
        grandchild = int(pidfile.read_text())
        assert not is_running(grandchild), f"{name}'s child {grandchild} survived"


def test_exit_at_start_leaves_no_grandchild(tmp_path: Path) -> None:
    pidfile = tmp_path / "child.pid"
    (server,) = run({"x": fixture("--mode", "exit", "--spawn-child", str(pidfile))}).servers
    assert not server.ok
    assert not is_running(int(pidfile.read_text()))


async def test_async_discover_and_sync_wrapper_inside_a_running_loop() -> None:
    config = config_from_dict({"mcpServers": {"a": fixture("--tools", "x")}})
    assert (await discover(config, GENEROUS)).servers[0].tools == ("x",)
    # discover_sync from inside a loop (e.g. the TUI) runs in a worker thread instead of failing.
    assert discover_sync(config, GENEROUS).servers[0].tools == ("x",)


def test_streamable_http_with_headers() -> None:
    with http_fixture("--http", "PORT", "--tools", "web_one,web_two") as port:
        result = run(
            {"web": {"url": f"http://127.0.0.1:{port}/mcp", "headers": {"Authorization": "Bearer tok-123456"}}}
        )
    (server,) = result.servers
    assert server.protocol == "http"
    assert server.ok, server.error
    assert server.tools == ("web_one", "web_two")
    assert server.launch["headers"] == {"Authorization": "***"}
    # The SDK's streamable HTTP server speaks both eras: the server/discover probe gets the newer one.
    assert (server.era, server.protocol_version) == (
        ("modern", "2026-07-28") if modern_sdk() else ("legacy", server.protocol_version)
    )


def test_sse_transport() -> None:
    with http_fixture("--sse", "PORT", "--tools", "legacy_tool") as port:
        (server,) = run({"old": {"url": f"http://127.0.0.1:{port}/sse"}}).servers
    assert server.protocol == "sse"
    assert server.ok, server.error
    assert server.tools == ("legacy_tool",)
    if modern_sdk():  # the SDK's SSE server speaks both eras too, over the older transport
        assert (server.era, server.protocol_version) == ("modern", "2026-07-28")


def test_unreachable_http_server_is_failed_to_connect() -> None:
    from mcpdisc_helpers import free_port

    (server,) = run({"down": {"url": f"http://127.0.0.1:{free_port()}/mcp"}}, timeout=5).servers
    assert not server.ok and server.error.startswith("failed to connect: ")


def test_secret_echoed_by_a_server_is_scrubbed() -> None:
    secret = "s3cr3t-value-from-env"
    (server,) = run({"leaky": fixture("--mode", "env", env={"FIXTURE_ECHO": secret})}).servers
    assert server.ok
    assert server.descriptions["echo_env"] == "echo: ***"
    assert server.launch["env"] == {"FIXTURE_ECHO": "***"}
