"""Helpers of the hostile corpus: a CLI call that must end soon, and the bad-input verdict."""

from __future__ import annotations

import time

from typer.testing import CliRunner

from toolscope.cli.app import app

runner = CliRunner()


def run_bounded(*args: str, limit: float = 20):
    """``toolscope ARGS`` in-process; it must be over within ``limit`` seconds."""
    started = time.monotonic()
    result = runner.invoke(app, list(args))
    assert time.monotonic() - started < limit, "took too long: a hang or an unbounded read"
    return result


def bad(result, *needles: str) -> None:
    """Bad input: exit 2, no traceback, no bug report, and every needle in the message."""
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and "toolscope bug" not in result.output
    for needle in needles:
        assert needle in result.output, result.output
