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
