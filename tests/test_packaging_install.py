"""Packaging, installed for real: a regular (non-editable) install built by pip, then imported and run
from the checkout's root (in the process lane: it builds a wheel and waits on pip)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def test_a_regular_install_is_not_shadowed_by_the_checkout(tmp_path: Path):
    """From the checkout's root, a regular (non-editable) install is what Python imports and runs.

    With the entry point in a root folder named ``toolscope/``, ``import toolscope.core`` found that
    folder first (the working directory leads sys.path) and failed with ModuleNotFoundError."""
    target = tmp_path / "site"
    build = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "-q",
            "--no-deps",
            "--target",
            str(target),
            str(REPO),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert build.returncode == 0, build.stderr
    env = {**os.environ, "PYTHONPATH": str(target)}
    code = "import toolscope.core, toolscope.cli.app; print(toolscope.core.__file__)"
    imported = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, text=True, timeout=120
    )
    assert imported.returncode == 0, imported.stderr
    assert Path(imported.stdout.strip()).is_relative_to(target)
    version = subprocess.run(
        [sys.executable, "-m", "toolscope", "--version"], cwd=REPO, env=env, capture_output=True, text=True, timeout=120
    )
    assert version.returncode == 0, version.stderr
    assert "toolscope" in version.stdout
