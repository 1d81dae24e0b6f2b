"""The README's and the docs' screenshots are what the app draws today: each is made again by the real CLI
(``toolscope inspect … --screenshot``, a subprocess) and compared byte for byte with docs/images.

When the app's look changes on purpose, run the failing command it names with
``--screenshot docs/images/NAME.svg --force``, look at the image, and commit it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

SCREENSHOTS = {
    "pipeline": ["sample_configs/seed/step_config.json", "--mode", "build"],
    "checklist": [
        "sample_configs/seed/step_config.json",
        "--mode",
        "build",
        "--view",
        "checklist",
        "-t",
        "notify_user",
    ],
    "activation": [
        "sample_configs/agentscope/toolkit.yaml",
        "--view",
        "activation",
        "-s",
        "sample_configs/agentscope/typo.json",
    ],
    "toolkit-pipeline": ["sample_configs/agentscope/toolkit.yaml"],
}


def test_every_readme_image_has_its_command() -> None:
    readme = (REPO / "README.md").read_text() + "".join(p.read_text() for p in (REPO / "docs").glob("*.md"))
    shown = {path.stem for path in (REPO / "docs" / "images").glob("*.svg")}
    assert shown == set(SCREENSHOTS)
    for name in SCREENSHOTS:
        shown_at = (f"](docs/images/{name}.svg)", f"](images/{name}.svg)")
        assert any(s in readme for s in shown_at), f"docs/images/{name}.svg is shown neither in the README nor in docs/"


@pytest.mark.parametrize("name", sorted(SCREENSHOTS))
def test_the_readme_screenshot_is_current(name: str, tmp_path: Path) -> None:
    made = tmp_path / f"{name}.svg"
    args = [*SCREENSHOTS[name], "--screenshot", str(made), "--size", "120x36"]
    # As the images were made: in colour (the suite sets NO_COLOR for its own output).
    env = {key: value for key, value in os.environ.items() if key != "NO_COLOR"}
    done = subprocess.run(
        [sys.executable, "-m", "toolscope", "inspect", *args],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    command = "toolscope inspect " + " ".join([*SCREENSHOTS[name], "--screenshot", f"docs/images/{name}.svg"])
    assert made.read_bytes() == (REPO / "docs" / "images" / f"{name}.svg").read_bytes(), (
        f"docs/images/{name}.svg is out of date: {command} --size 120x36 --force"
    )
