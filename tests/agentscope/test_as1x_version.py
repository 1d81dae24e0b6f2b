"""The installed AgentScope's version decides the model; unsupported versions are exit 2
naming the version and the supported ranges (a real CLI subprocess with a fake
distribution's metadata first on the path: toolscope reads the metadata, never guesses)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from toolscope.core.systems.agentscope.version import parse_version, supported_major

SEED = Path(__file__).parent / "fixtures" / "v1" / "v1_seed_toolkit.py"


@pytest.mark.parametrize(
    ("version", "major"),
    [
        ("0.1.6", None),
        ("1.0.8", None),
        ("1.0.9", 1),
        ("1.0.16dev", 1),
        ("1.0.19.post1", 1),
        ("1.0.21", 1),
        ("2.0.5", None),
        ("2.0.6", 2),
        ("2.0.7.post1", 2),
        ("2.0.11", 2),
        ("2.1.0", None),
        ("3.0.0", None),
    ],
)
def test_supported_ranges(version: str, major: int | None) -> None:
    assert supported_major(version) == major


def test_parse_version() -> None:
    assert parse_version("1.0.16dev") == (1, 0, 16)
    assert parse_version("2.0.7.post1") == (2, 0, 7)


@pytest.mark.parametrize("version", ["0.1.6", "1.0.8"])
def test_unsupported_version_is_exit_2_not_70(tmp_path: Path, version: str) -> None:
    dist = tmp_path / f"agentscope-{version}.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text(f"Metadata-Version: 2.1\nName: agentscope\nVersion: {version}\n")
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    result = subprocess.run(
        [sys.executable, "-m", "toolscope", "tools", f"{SEED}:build_toolkit"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert result.returncode == 2, result.stderr
    assert f"the installed AgentScope {version} is not supported" in result.stderr
    assert "1.0.9 to 1.0.21" in result.stderr and "2.0.6 to 2.0.x" in result.stderr
    assert "Traceback" not in result.stderr
