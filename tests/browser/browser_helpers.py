"""Finding the headless Chromium the browser tests run (a plain module, not a conftest)."""

from __future__ import annotations

import os

import pytest

from toolscope.core.report.png import find_chromium


def require_chromium() -> str:
    """The Chromium binary; skipped with the reason where none is installed, except in CI
    (``.ci/run`` installs Debian's chromium, so a missing one there is a failure)."""
    browser = find_chromium()
    if browser is None:
        reason = "no Chromium installed (apt-get install chromium); the browser checks need a real engine"
        if os.environ.get("CI"):
            pytest.fail("CI must run the browser tests: " + reason)
        pytest.skip(reason)
    return browser
