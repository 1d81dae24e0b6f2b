"""Hostile corpus: outputs never destroy or overwrite a file by surprise.

Every command that writes (``report -o``, ``discover -o``, ``inspect --screenshot``, the TUI
export) goes through ``core/outputs/output_file.py``; these cases drive the real CLI.
"""

from __future__ import annotations

import os
import shutil
import signal
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from typer.testing import CliRunner

from toolscope.cli.app import app

REPO = Path(__file__).resolve().parents[2]
SEED = REPO / "sample_configs" / "seed"
MCP = REPO / "sample_configs" / "mcp"
AGENTSCOPE = REPO / "sample_configs" / "agentscope"
runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, list(args))


@pytest.fixture
def seed(tmp_path: Path) -> Path:
    folder = tmp_path / "seed"
    shutil.copytree(SEED, folder)
    return folder


def report_args(seed: Path) -> list[str]:
    return ["report", str(seed / "step_config.json")]


# --- special files: written into, never replaced ---------------------------------------


def test_fifo_with_a_reader_is_written_into_and_stays_a_fifo(seed: Path, tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received: list[bytes] = []

    def reader() -> None:
        with open(fifo, "rb") as handle:
            received.append(handle.read())

    thread = threading.Thread(target=reader)
    thread.start()
    try:
        result = run(*report_args(seed), "-o", str(fifo), "--force")
    finally:
        thread.join(5)
        if thread.is_alive():  # unblock the reader if the report never opened the pipe
            # Never a blocking open here: a reader that just finished leaves no one to meet it.
            try:
                os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
            except OSError:
                pass
            thread.join(5)
    assert result.exit_code == 0, result.output
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert b"notify" in received[0]


def test_fifo_without_a_reader_is_refused_at_once(seed: Path, tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    result = run(*report_args(seed), "-o", str(fifo), "--force")
    assert result.exit_code == 2
    assert "nobody is reading" in result.output
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


@pytest.mark.skipif(os.geteuid() != 0, reason="mknod of a character device needs root")
def test_character_device_is_written_into_not_replaced(seed: Path, tmp_path: Path) -> None:
    null = tmp_path / "null"
    os.mknod(null, stat.S_IFCHR | 0o666, os.makedev(1, 3))  # a private /dev/null
    result = run(*report_args(seed), "-o", str(null), "--force")
    assert result.exit_code == 0, result.output
    assert stat.S_ISCHR(os.lstat(null).st_mode)


@pytest.mark.parametrize("name", ["/dev/stdout", "private-link"])
def test_dev_stdout_writes_to_stdout_and_keeps_the_link(seed: Path, tmp_path: Path, name: str) -> None:
    """``-o /dev/stdout --force`` writes to the process's stdout (a file here), link untouched.

    The link is checked first through a private copy of /dev/stdout (a link to
    /proc/self/fd/1), so that this test cannot replace the machine's /dev/stdout even on
    code that would.
    """
    link = tmp_path / "stdout"
    link.symlink_to("/proc/self/fd/1")
    target = str(link) if name == "private-link" else name
    if name == "/dev/stdout":
        private = run(*report_args(seed), "-o", str(link), "--force")
        assert private.exit_code == 0 and link.is_symlink(), "refusing to risk the real /dev/stdout"
    before = os.readlink(target)
    out = tmp_path / "captured.md"
    with open(out, "wb") as handle:
        done = subprocess.run(
            [sys.executable, "-m", "toolscope", *report_args(seed), "-o", target, "--force"],
            stdout=handle,
            stderr=subprocess.PIPE,
            timeout=60,
        )
    assert done.returncode == 0, done.stderr
    assert os.path.islink(target) and os.readlink(target) == before
    assert "notify" in out.read_text()


# --- symlinks: --force replaces the link, never its target -------------------------------


def test_force_replaces_a_symlink_itself_never_its_target(seed: Path, tmp_path: Path) -> None:
    precious = tmp_path / "precious.txt"
    precious.write_text("keep me")
    link = tmp_path / "report.md"
    link.symlink_to(precious)
    assert run(*report_args(seed), "-o", str(link)).exit_code == 2  # exists: needs --force
    result = run(*report_args(seed), "-o", str(link), "--force")
    assert result.exit_code == 0, result.output
    assert precious.read_text() == "keep me"
    assert not link.is_symlink() and "notify" in link.read_text()


def test_discover_force_replaces_the_link_not_its_target(tmp_path: Path) -> None:
    config = tmp_path / "mcp.json"
    config.write_text('{"mcpServers": {}}')
    precious = tmp_path / "precious.json"
    precious.write_text("keep me")
    link = tmp_path / "snap.json"
    link.symlink_to(precious)
    result = run("discover", str(config), "-o", str(link), "--force")
    assert result.exit_code == 0, result.output
    assert precious.read_text() == "keep me"
    assert not link.is_symlink() and "toolscope.mcp-snapshot/1" in link.read_text()


def test_a_symlink_to_an_input_is_refused_even_with_force(seed: Path, tmp_path: Path) -> None:
    link = tmp_path / "out.md"
    link.symlink_to(seed / "toolscope.registry.yaml")
    before = (seed / "toolscope.registry.yaml").read_bytes()
    result = run(*report_args(seed), "-o", str(link), "--force")
    assert result.exit_code == 2 and "input file" in result.output
    assert (seed / "toolscope.registry.yaml").read_bytes() == before and link.is_symlink()


def test_a_hard_link_to_an_input_is_refused(seed: Path, tmp_path: Path) -> None:
    hard = tmp_path / "out.md"
    os.link(seed / "toolscope.registry.yaml", hard)
    result = run(*report_args(seed), "-o", str(hard), "--force")
    assert result.exit_code == 2 and "input file" in result.output


# --- every input is protected --------------------------------------------------------------


def test_report_never_overwrites_the_user_override_of_the_registry_mcp_config(tmp_path: Path) -> None:
    folder = tmp_path / "mcp"
    shutil.copytree(MCP, folder)
    override = folder / "mcp_user.json"
    override.write_text('{"mcpServers": {}}')
    result = run(
        "report",
        str(folder / "step_config.json"),
        "--snapshot",
        str(folder / "snapshot.json"),
        "-o",
        str(override),
        "--force",
    )
    assert result.exit_code == 2 and "input file" in result.output
    assert override.read_text() == '{"mcpServers": {}}'


@pytest.mark.parametrize("victim", ["toolscope.registry.yaml", "step_config.json"])
def test_screenshot_refuses_inputs(seed: Path, victim: str) -> None:
    before = (seed / victim).read_bytes()
    result = run("inspect", str(seed / "step_config.json"), "--screenshot", str(seed / victim), "--force")
    assert result.exit_code == 2 and "input file" in result.output
    assert (seed / victim).read_bytes() == before


def test_screenshot_refuses_the_script_and_the_factory_file(tmp_path: Path) -> None:
    folder = tmp_path / "as"
    shutil.copytree(AGENTSCOPE, folder)
    script = folder / "typo.json"
    before = script.read_bytes()
    result = run("inspect", str(folder / "toolkit.yaml"), "--script", str(script), "--screenshot", str(script))
    assert result.exit_code == 2 and "input file" in result.output
    assert script.read_bytes() == before
    factory = folder / "my_agent.py"
    source = factory.read_bytes()
    result = run("inspect", f"{factory}:build_toolkit", "--screenshot", str(factory), "--force")
    assert result.exit_code == 2 and "input file" in result.output
    assert factory.read_bytes() == source


def test_screenshot_needs_force_for_an_existing_file_and_is_atomic(seed: Path, tmp_path: Path) -> None:
    shot = tmp_path / "shot.svg"
    shot.write_text("old")
    result = run("inspect", str(seed / "step_config.json"), "--screenshot", str(shot))
    assert result.exit_code == 2 and "--force" in result.output
    assert shot.read_text() == "old"
    result = run("inspect", str(seed / "step_config.json"), "--screenshot", str(shot), "--force")
    assert result.exit_code == 0, result.output
    assert shot.read_text().startswith("<svg")
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_export_never_follows_a_dangling_symlink(tmp_path: Path) -> None:
    from toolscope.tui.export import write_export

    victim = tmp_path / "elsewhere.svg"
    (tmp_path / "shot.svg").symlink_to(victim)
    paths = write_export(tmp_path, "shot", "<svg/>", "# md")
    assert paths.svg.name == "shot-2.svg" and not victim.exists()


# --- signals: no temporary file is left behind ----------------------------------------------

_KILL_DURING_WRITE = """
import os, signal, sys
real_fsync = os.fsync
signum = getattr(signal, sys.argv[1])
def fsync(fd):
    real_fsync(fd)
    os.kill(os.getpid(), signum)
os.fsync = fsync
sys.argv = ["toolscope", *sys.argv[2:]]
from toolscope.cli.app import main
main()
"""


@pytest.mark.parametrize("signame", ["SIGTERM", "SIGHUP", "SIGINT"])
def test_a_signal_during_the_write_leaves_no_temporary_file(seed: Path, tmp_path: Path, signame: str) -> None:
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    done = subprocess.run(
        [sys.executable, "-c", _KILL_DURING_WRITE, signame, *report_args(seed), "-o", str(out_dir / "r.md")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert list(out_dir.iterdir()) == [], done.stderr
    if signame != "SIGINT":
        assert done.returncode == -getattr(signal, signame), (done.returncode, done.stderr)


def test_two_reports_racing_for_one_new_file_never_both_win(seed: Path, tmp_path: Path) -> None:
    # Two real processes started together, neither with --force: at most one may create the file
    # (an exclusive create), the other is exit 2, and the file is one whole report.
    out = tmp_path / "same.md"
    args = [sys.executable, "-m", "toolscope", "report", str(seed / "step_config.json"), "--format", "md"]
    for _ in range(3):
        out.unlink(missing_ok=True)
        racers = [
            subprocess.Popen([*args, "-o", str(out)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            for _ in range(2)
        ]
        outcomes = sorted((p.wait(timeout=60), p.stderr.read() if p.stderr else "") for p in racers)
        assert [code for code, _ in outcomes] == [0, 2], outcomes
        assert "already exists" in outcomes[1][1]
        assert out.read_text().startswith("# ") and sorted(p.name for p in tmp_path.iterdir()) == ["same.md", "seed"]
