"""Packaging: toolscope.core / toolscope.tui install under toolscope; a user's own `core` stays importable."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
ROOTS = {"entry": "toolscope", "cli": "toolscope.cli", "core": "toolscope.core", "tui": "toolscope.tui"}


def test_every_package_folder_is_listed_in_pyproject():
    listed = set(tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = set()
    for folder, dotted in ROOTS.items():
        for init in (REPO / folder).rglob("__init__.py"):
            rel = init.parent.relative_to(REPO / folder)
            found.add(".".join([dotted, *rel.parts]) if rel.parts else dotted)
    assert found == listed


def test_a_user_package_named_core_stays_importable(tmp_path: Path):
    (tmp_path / "core").mkdir()
    (tmp_path / "core" / "__init__.py").write_text("WHO = 'user'\n")
    code = "import toolscope.core, toolscope.cli.app, core; print(core.WHO, toolscope.core.__name__)"
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["user", "toolscope.core"]


def test_no_top_level_core_or_tui_is_installed(tmp_path: Path):
    code = "import importlib.util as u; print(u.find_spec('core'), u.find_spec('tui'))"
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True)
    assert out.stdout.split() == ["None", "None"]
