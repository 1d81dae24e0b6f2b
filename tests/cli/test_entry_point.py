"""The console entry point builds only the invoked command; what users see is the same
as with every command built (usage lines, errors, help, results, exit codes)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

SEED = str(Path(__file__).resolve().parents[2] / "sample_configs" / "seed" / "step_config.json")


def run(entry: str, args: list[str]) -> tuple[int, str, str]:
    # Both forms read sys.argv; ``app()`` builds every command, ``main()`` only the invoked one.
    code = f"import sys; sys.argv[1:] = {args!r}\nfrom toolscope.cli.app import app, main\n{entry}()"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    return done.returncode, done.stdout, done.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["explain", SEED, "notify_user", "--mode", "build"],
        ["explain"],
        ["explain", "-h"],
        ["tools", SEED, "--mode", "nosuchmode"],
        ["explai", "x"],
        ["--version"],
        [],
    ],
)
def test_main_answers_exactly_as_the_full_app(args: list[str]):
    assert run("main", args) == run("app", args)


def test_only_the_named_command_stays_registered():
    from toolscope.cli import app as app_module

    saved = list(app_module.app.registered_commands)
    try:
        app_module.only_the_invoked_command(["--help"])
        assert len(app_module.app.registered_commands) == len(saved)
        app_module.only_the_invoked_command(["tools", "x"])
        assert [c.name for c in app_module.app.registered_commands] == ["tools"]
    finally:
        app_module.app.registered_commands[:] = saved


@pytest.mark.parametrize("args", [["explain", SEED, "notify_user", "--mode", "build"], ["explai", "x"]])
def test_the_last_garbage_collection_skips_what_is_alive_at_exit(args: list[str]):
    """The interpreter collects once more at exit, walking every live object just before it frees
    them: main() leaves them frozen (a 50,000-tool inspect --screenshot spent ~90 ms there)."""
    code = (
        "import atexit, gc, sys\n"
        "atexit.register(lambda: print('frozen at exit:', gc.get_freeze_count(), file=sys.stderr))\n"
        f"sys.argv[1:] = {args!r}\n"
        "from toolscope.cli.app import main\n"
        "main()"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    frozen = int(done.stderr.rsplit("frozen at exit:", 1)[1])
    assert frozen > 10_000, done.stderr


# The real entry point, held at the import of Typer (inside ``toolscope.cli.app``) until the test's
# Ctrl+C arrives, so the signal lands in the start-up window every time.
_PAUSED_IN_IMPORT = """
import sys, time
from pathlib import Path

PAUSED = Path(sys.argv[1])

class PauseAtTyper:
    def find_spec(self, name, path=None, target=None):
        if name == "typer":
            sys.meta_path.remove(self)
            PAUSED.write_text(name)
            time.sleep(60)
        return None

sys.meta_path.insert(0, PauseAtTyper())
sys.argv = ["toolscope", "--version"]
from toolscope.launch import main
main()
"""


@pytest.mark.lane
def test_a_ctrl_c_while_the_command_line_is_imported_exits_130_without_a_traceback(tmp_path: Path):
    """A Ctrl+C in the first ~0.1 s printed a KeyboardInterrupt traceback from inside an import
    and the process died by SIGINT."""
    import os
    import signal
    import time

    paused = tmp_path / "paused"
    proc = subprocess.Popen(
        [sys.executable, "-c", _PAUSED_IN_IMPORT, str(paused)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # Python leaves SIGINT ignored in a child of a background job: give it the default back.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        deadline = time.monotonic() + 30
        while not paused.exists() and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
        assert paused.exists(), proc.communicate(timeout=5)
        started = time.monotonic()
        os.kill(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err and out == "", err
    assert time.monotonic() - started < 5
