"""Overhead of the toolscope tap per tool call: the same real Agent, with and without SessionTap.

A real ``agentscope.agent.Agent`` with a scripted offline model makes CALLS tool calls
(reset_tools, then the basic ``note_write`` tool over and over, one per model call),
once without middlewares and once with ``SessionTap(file)``; runs alternate (which one goes
first alternates too), best of REPEAT each. Times are the process's CPU time (the tap's cost
is CPU work in the agent's process; wall time on a shared machine mostly measures the
neighbours). Prints both times per tool call and the ratio (aim: <= 1.05).

    python benchmarks/tap_bench.py [--calls 300] [--repeat 5]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "sample_configs" / "agentscope"))

from record_session import run_agent  # noqa: E402  (the shipped recording script's real Agent)


def turns(calls: int) -> list[list[object]]:
    """reset_tools once, then note_write; each turn one model call and one tool call."""
    from agentscope.message import TextBlock, ToolCallBlock

    out: list[list[object]] = [
        [ToolCallBlock(id="c0", name="reset_tools", input=json.dumps({"web_search": True}))],
    ]
    for i in range(1, calls):
        out.append([ToolCallBlock(id=f"c{i}", name="note_write", input=json.dumps({"text": f"note {i}"}))])
    out.append([TextBlock(text="done")])
    return out


TAP_OWN_CPU: list[float] = []
"""CPU seconds spent inside the tap's own hooks, per tapped run (a second, noise-free figure)."""


def timed_tap(path: Path) -> object:
    """SessionTap, also adding up the CPU time its recording steps take."""
    from toolscope.tap import SessionTap

    class TimedTap(SessionTap):
        spent = 0.0

        def _safely(self, step, *args):
            start = time.process_time()
            super()._safely(step, *args)
            self.spent += time.process_time() - start

    return TimedTap(path)


async def once(calls: int, tap_path: Path | None) -> float:
    """CPU seconds for one conversation of ``calls`` tool calls."""
    middlewares = []
    if tap_path is not None:
        middlewares.append(timed_tap(tap_path))
    start = time.process_time()
    agent = await run_agent(middlewares=middlewares, turns=turns(calls), max_iters=calls + 5)
    elapsed = time.process_time() - start
    if tap_path is not None:
        tap = middlewares[0]
        assert tap.error is None and tap.records == calls + 1, (tap.error, tap.records)
        TAP_OWN_CPU.append(tap.spent)
    assert agent.state.tool_context.activated_groups == ["web_search"]
    return elapsed


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print the ratio."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=300)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    plain: list[float] = []
    tapped: list[float] = []
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(once(5, None))  # warm up imports and caches
        for i in range(args.repeat):
            path = Path(folder) / f"tap{i}.jsonl"
            if i % 2:
                tapped.append(asyncio.run(once(args.calls, path)))
                plain.append(asyncio.run(once(args.calls, None)))
            else:
                plain.append(asyncio.run(once(args.calls, None)))
                tapped.append(asyncio.run(once(args.calls, path)))
            size = os.path.getsize(path)
    base, with_tap = min(plain), min(tapped)
    print(f"tool calls per run: {args.calls} (best of {args.repeat}); tap file: {size} bytes")
    print(f"without tap: {base / args.calls * 1e3:.3f} ms CPU per tool call")
    print(f"with tap:    {with_tap / args.calls * 1e3:.3f} ms CPU per tool call")
    print(f"ratio with / without: {with_tap / base:.3f}")
    print(f"the tap's own recording work: {min(TAP_OWN_CPU) / args.calls * 1e6:.1f} µs CPU per tool call")
    return 0


if __name__ == "__main__":
    sys.exit(main())
