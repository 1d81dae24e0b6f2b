"""SVG snapshots of each view at 120x36, and of pipeline and checklist at 80x24 and 200x60 (deterministic mode: no versions, paths or blink)."""

from __future__ import annotations

import pytest
from tui_helpers import HOSTILE, SIZE, make_app


class TestPipelineSnapshots:
    """The pipeline view on the seed sample."""

    def test_first_paint(self, snap_compare) -> None:
        """notify_user, registered but not allow-listed, is the first, highlighted row."""
        assert snap_compare(make_app(mode="build"), terminal_size=SIZE)

    def test_after_switching_to_run(self, snap_compare) -> None:
        """read_image turns hidden and is marked Δ; the header shows the new mode."""
        assert snap_compare(make_app(mode="build"), press=["m", "_"], terminal_size=SIZE)

    def test_filtered_and_grouped(self, snap_compare) -> None:
        """Filter 'github', grouped by namespace, cursor on the second row."""
        keys = ["slash", *"github", "enter", "g", "down"]
        assert snap_compare(make_app(mode="build"), press=keys, terminal_size=SIZE)

    def test_help_panel(self, snap_compare) -> None:
        """F1 lists the keys from the live bindings: everywhere first, then the view's, the grid's last."""
        assert snap_compare(make_app(mode="build"), press=["f1", "_"], terminal_size=SIZE)


class TestChecklistSnapshots:
    """The checklist walkthrough."""

    def test_walked_to_the_fix(self, snap_compare) -> None:
        """Every question answered with evidence, then the fix."""
        app = make_app(mode="build", tool="notify_user", view="checklist")
        assert snap_compare(app, press=["n", "n", "n", "n", "_"], terminal_size=SIZE)

    def test_did_you_mean(self, snap_compare) -> None:
        """A misspelled name: unknown, with the likely names to pick."""
        app = make_app(mode="build", tool="notify_usr", view="checklist")
        assert snap_compare(app, terminal_size=SIZE)


class TestUntrustedText:
    """Names with markup, ANSI escapes and control characters render literally."""

    def test_hostile_names(self, snap_compare) -> None:
        assert snap_compare(make_app(HOSTILE, mode="build"), terminal_size=SIZE)


SIZES = {"80x24": (80, 24), "200x60": (200, 60)}


class TestSizes:
    """The pipeline and checklist views at the smallest usual terminal and a large one."""

    def test_pipeline_80x24(self, snap_compare) -> None:
        assert snap_compare(make_app(mode="build"), terminal_size=SIZES["80x24"])

    def test_pipeline_200x60(self, snap_compare) -> None:
        assert snap_compare(make_app(mode="build"), terminal_size=SIZES["200x60"])

    @pytest.mark.parametrize("size", ["80x24", "200x60"])
    def test_help_panel(self, snap_compare, size) -> None:
        """? opens on the keys that work everywhere (mode, views), not the list's j/k; beside it
        the grid keeps its "decided by" column (at 80x24 the stage columns give way)."""
        assert snap_compare(make_app(mode="build"), press=["question_mark", "_"], terminal_size=SIZES[size])

    def test_pipeline_changed_rows_80x24(self, snap_compare) -> None:
        """After m: the change line under the summary, read_image marked Δ and selected with ]."""
        assert snap_compare(make_app(mode="build"), press=["m", "right_square_bracket", "_"], terminal_size=(80, 24))

    def test_pipeline_changed_rows_200x60(self, snap_compare) -> None:
        assert snap_compare(make_app(mode="build"), press=["m", "right_square_bracket", "_"], terminal_size=(200, 60))

    def test_checklist_80x24(self, snap_compare) -> None:
        app = make_app(mode="build", tool="notify_user", view="checklist")
        assert snap_compare(app, press=["a", "_"], terminal_size=SIZES["80x24"])

    def test_checklist_200x60(self, snap_compare) -> None:
        app = make_app(mode="build", tool="notify_user", view="checklist")
        assert snap_compare(app, press=["a", "_"], terminal_size=SIZES["200x60"])

    def test_pipeline_no_color_80x24(self, snap_compare, monkeypatch) -> None:
        """NO_COLOR=1: marks bold, HIDDEN in reverse video, the cursor row in reverse grey."""
        monkeypatch.setenv("NO_COLOR", "1")
        assert snap_compare(make_app(mode="build"), terminal_size=SIZES["80x24"])
