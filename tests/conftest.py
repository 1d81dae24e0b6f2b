"""Shared test setup: keep tests independent of the developer's environment."""

from __future__ import annotations

from pathlib import Path

# mcp's stdio_client takes ``errlog=sys.stderr`` as a default bound when the module is
# first imported: import it now, not first inside a CliRunner (whose stderr has no file
# descriptor, which later real MCP clients would then inherit).
import mcp.client.stdio  # noqa: F401, E402
import pytest

REPO = Path(__file__).resolve().parent.parent
SAMPLES = REPO / "sample_configs"


@pytest.fixture(autouse=True)
def _isolated_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No TOOLSCOPE_* settings and no XDG config from the machine leak into a test."""
    import os

    for key in list(os.environ):
        if key.startswith("TOOLSCOPE_"):
            monkeypatch.delenv(key)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg-config"))
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("COLUMNS", "160")
