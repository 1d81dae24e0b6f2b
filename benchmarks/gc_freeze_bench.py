"""Why the main screen freezes the heap (``gc.freeze()`` in ``MainScreen.on_mount``).

Types a filter into the pipeline view of the engine benchmark's 50,000-tool universe (three
rounds of ``getx_`` and five backspaces) and sums the CPU time the cyclic garbage collector
takes meanwhile (``gc.callbacks``), once with the screen's ``gc.freeze()`` and once with it
turned into a no-op, each in a fresh process, and prints the ratio (without / with).

    python benchmarks/gc_freeze_bench.py [--tools 50000]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))


def measure(tools: int, freeze: bool) -> dict[str, float]:
    """Typing CPU and the part of it spent collecting, in this process."""
    from engine_bench import make_universe_files

    from toolscope.cli.inputs import open_subject
    from toolscope.tui.app import ToolscopeApp
    from toolscope.tui.options import TuiOptions

    if not freeze:
        gc.freeze = lambda: None  # type: ignore[assignment]
        gc.unfreeze = lambda: None  # type: ignore[assignment]
    with tempfile.TemporaryDirectory() as tmp:
        subject = open_subject(str(make_universe_files(Path(tmp), tools=tools)))
    collecting = {"cpu": 0.0, "full": 0, "since": 0.0}

    def on_collection(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            collecting["since"] = time.process_time()
        else:
            collecting["cpu"] += time.process_time() - collecting["since"]
            collecting["full"] += info["generation"] == 2

    async def type_filter() -> float:
        app = ToolscopeApp(subject, subject.default_mode, TuiOptions(deterministic=True))
        async with app.run_test(size=(120, 36)) as pilot:
            await pilot.pause()
            gc.callbacks.append(on_collection)
            started = time.process_time()
            await pilot.press("slash")
            for _ in range(3):
                for key in [*"getx_", *["backspace"] * 5]:
                    await pilot.press(key)
                    await pilot.pause()
            gc.callbacks.remove(on_collection)
            return time.process_time() - started

    typing = asyncio.run(type_filter())
    return {"typing": typing, "gc": collecting["cpu"], "full": collecting["full"]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tools", type=int, default=50_000)
    parser.add_argument("--variant", choices=["with", "without"], help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.variant:
        print(json.dumps(measure(args.tools, args.variant == "with")))
        return
    figures = {}
    for variant in ("with", "without"):
        command = [sys.executable, __file__, "--tools", str(args.tools), "--variant", variant]
        figures[variant] = json.loads(subprocess.run(command, check=True, capture_output=True, text=True).stdout)
    for variant, fig in figures.items():
        print(
            f"{variant:>7} gc.freeze: typing {fig['typing'] * 1000:6.0f} ms CPU, collecting "
            f"{fig['gc'] * 1000:5.0f} ms ({fig['full']:.0f} full collections)"
        )
    ratio = figures["without"]["gc"] / max(figures["with"]["gc"], 1e-9)
    print(f"collector CPU without / with gc.freeze: ratio {ratio:.2f}")


if __name__ == "__main__":
    main()
