"""Fixtures for the TUI tests: real subjects from the samples, deterministic apps."""

from __future__ import annotations

import pytest
from tui_helpers import SEED, make_app

from toolscope.tui.app import ToolscopeApp


@pytest.fixture(autouse=True)
def _colour(monkeypatch: pytest.MonkeyPatch) -> None:
    """Snapshots keep their colours: the repo-wide NO_COLOR would make them monochrome."""
    monkeypatch.delenv("NO_COLOR", raising=False)


@pytest.fixture
def seed_app() -> ToolscopeApp:
    """The seed step config in build mode."""
    return make_app(SEED, "build")
