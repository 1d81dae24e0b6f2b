"""``discover`` shows a line per server on stderr as each finishes, on a terminal only."""

from __future__ import annotations

import os
import pty
import re
import subprocess
import sys
from pathlib import Path

from mcpdisc_helpers import fixture, write_config


def _config(tmp_path: Path) -> Path:
    return write_config(
        tmp_path / "mcp.json",
        {"good": fixture("--tools", "alpha,beta"), "broken": fixture("--mode", "exit")},
    )


def _command(config: Path) -> list[str]:
    return [sys.executable, "-m", "toolscope", "discover", str(config), "--timeout", "20"]


def test_progress_on_a_terminal(tmp_path: Path) -> None:
    config = _config(tmp_path)
    controller, terminal = pty.openpty()
    try:
        done = subprocess.run(
            _command(config), stdout=subprocess.PIPE, stderr=terminal, timeout=60, env=os.environ | {"NO_COLOR": "1"}
        )
        os.close(terminal)
        terminal = -1
        chunks = []
        while True:
            try:
                chunk = os.read(controller, 4096)
            except OSError:  # the terminal's other side is closed: everything was read
                break
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        os.close(controller)
        if terminal != -1:
            os.close(terminal)
    progress = b"".join(chunks).decode("utf-8").replace("\r\n", "\n")
    progress = re.sub(r"\x1b\[[0-9;]*m", "", progress)  # a terminal gets styles (dim, bold)
    assert done.returncode == 1
    assert "connecting to 2 MCP servers" in progress
    lines = [line.strip() for line in progress.splitlines() if re.match(r"\s*\[\d/2\]", line)]
    assert len(lines) == 2, progress
    assert any(re.fullmatch(r"\[\d/2\] good {2}✓ 2 tools in \d+\.\d\ds", line) for line in lines), lines
    assert any(re.fullmatch(r"\[\d/2\] broken {2}✗ failed after \d+\.\d\ds", line) for line in lines), lines
    # The result itself still goes to stdout, whole.
    assert "1/2 servers connected" in done.stdout.decode("utf-8")


def test_nothing_extra_when_piped(tmp_path: Path) -> None:
    config = _config(tmp_path)
    done = subprocess.run(_command(config), capture_output=True, timeout=60, text=True)
    assert done.returncode == 1
    assert done.stderr == ""
    assert "connecting to" not in done.stdout and "[1/2]" not in done.stdout


def test_discover_reads_at_80_and_120_columns(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from toolscope.cli.app import app

    config = write_config(
        tmp_path / "mcp.json",
        {
            "a-server-with-a-rather-long-name": fixture("--tools", "alpha_tool_with_long_name,beta"),
            "broken": fixture("--mode", "exit"),
        },
    )
    for width in (80, 120):
        result = CliRunner().invoke(app, ["discover", str(config), "--timeout", "20"], env={"COLUMNS": str(width)})
        assert result.exit_code == 1, result.output
        lines = result.stdout.splitlines()
        assert all(len(line) <= width or " " not in line.strip() for line in lines), lines
        words = set(result.stdout.split())
        assert {"a-server-with-a-rather-long-name", "alpha_tool_with_long_name,", "broken"} <= words
        header = next(line for line in lines if line.startswith("SERVER"))
        assert header.split() == ["SERVER", "STATUS", "TIME", "TOOLS"]
