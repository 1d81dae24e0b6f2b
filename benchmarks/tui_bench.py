"""TUI benchmark: the pipeline view on the engine benchmark's 50,000-tool universe.

Drives the real app headless with ``run_test`` and prints, beside baselines measured in
the same run:

- first paint: from creating the app to the first idle screen with rows drawn
  (the evaluation is computed beforehand and reported separately), against an empty
  app's first paint;
- filter keystroke: one key typed into the filter box until the grid's last line is
  repainted (the time of the last ``render_line`` call after the key), against one key
  typed into an empty app's Input until the Input's last line is repainted. Pilot's own
  idle detection (20 ms sleeps) is excluded: only the app's work is timed.

Targets (2-core machine): first paint < 1 s, filter keystroke < 100 ms.

    python benchmarks/tui_bench.py [--tools 50000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from engine_bench import make_universe_files  # noqa: E402
from textual.app import App, ComposeResult  # noqa: E402
from textual.widgets import Input  # noqa: E402

from toolscope.cli.inputs import open_subject  # noqa: E402
from toolscope.tui.app import ToolscopeApp  # noqa: E402
from toolscope.tui.options import TuiOptions  # noqa: E402
from toolscope.tui.widgets.tool_grid import ToolGrid  # noqa: E402

SIZE = (120, 36)


class EmptyApp(App[None]):
    """The baseline: an app with one Input and nothing else."""

    def compose(self) -> ComposeResult:
        yield Input()


async def first_paint(make_app) -> float:
    """Seconds from constructing the app to its first idle, rendered screen."""
    start = time.perf_counter()
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        return time.perf_counter() - start


async def keystrokes(make_app, focus_keys: list[str], typed: str, painted: type) -> list[float]:
    """Seconds per typed key, from posting it to the last line ``painted`` drew for it."""
    stamps: list[float] = []
    original = painted.render_line

    def stamped(self, y):
        strip = original(self, y)
        stamps.append(time.perf_counter())
        return strip

    painted.render_line = stamped
    app = make_app()
    times = []
    try:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await pilot.press(*focus_keys)
            await pilot.pause()
            for key in typed:
                stamps.clear()
                start = time.perf_counter()
                await pilot.press(key)
                await pilot.pause()
                times.append((max(stamps) if stamps else time.perf_counter()) - start)
    finally:
        painted.render_line = original
    return times


def main() -> None:
    """Build the universe, measure, print figures and ratios."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tools", type=int, default=50_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        step_config = make_universe_files(Path(tmp), tools=args.tools)
        subject = open_subject(str(step_config))
        mode = subject.default_mode
        start = time.perf_counter()
        evaluation = subject.evaluate(mode)
        evaluate_seconds = time.perf_counter() - start

    def tui() -> ToolscopeApp:
        return ToolscopeApp(subject, mode, TuiOptions(deterministic=True))

    async def measure() -> tuple[dict[str, float], list[float]]:
        empty_paint = min([await first_paint(EmptyApp) for _ in range(args.repeat)])
        tui_paint = min([await first_paint(tui) for _ in range(args.repeat)])
        empty_keys = await keystrokes(EmptyApp, [], "getx_", Input)
        tui_keys = await keystrokes(tui, ["slash"], "getx_", ToolGrid)
        return {
            "empty_paint": empty_paint,
            "tui_paint": tui_paint,
            "empty_key": statistics.median(empty_keys),
            "tui_key": statistics.median(tui_keys),
            "tui_key_max": max(tui_keys),
        }, tui_keys

    figures, per_key = asyncio.run(measure())
    print(
        f"universe: {len(evaluation.tools):,} tools, evaluated in {evaluate_seconds * 1000:.0f} ms (engine, not counted below)"
    )
    print(
        f"first paint      {figures['tui_paint'] * 1000:7.0f} ms   baseline (empty app) "
        f"{figures['empty_paint'] * 1000:6.0f} ms   ratio {figures['tui_paint'] / figures['empty_paint']:5.1f}"
        f"   target < 1000 ms: {'ok' if figures['tui_paint'] < 1 else 'MISSED'}"
    )
    print(
        f"filter keystroke {figures['tui_key'] * 1000:7.1f} ms   baseline (empty Input) "
        f"{figures['empty_key'] * 1000:5.1f} ms   ratio {figures['tui_key'] / figures['empty_key']:5.1f}"
        f"   (worst {figures['tui_key_max'] * 1000:.1f} ms)   target < 100 ms: "
        f"{'ok' if figures['tui_key'] < 0.1 else 'MISSED'}"
    )
    print(
        "  per key (filter 'getx_'): "
        + ", ".join(f"{k!r} {t * 1000:.1f} ms" for k, t in zip("getx_", per_key, strict=True))
    )


if __name__ == "__main__":
    main()
