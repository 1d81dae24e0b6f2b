"""One headless Chromium per test module (the HTML checks share one launch), driven by Playwright with the system browser."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from browser_helpers import require_chromium


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """A Playwright Chromium browser (the installed chromium, never a downloaded one)."""
    executable = require_chromium()
    sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is in the test extras")
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=executable, args=["--no-sandbox"])
        yield launched
        launched.close()
