"""Overhead of the toolscope tap per tool call: the same real Agent, with and without SessionTap.

A real ``agentscope.agent.Agent`` with a scripted offline model makes CALLS tool calls
(reset_tools, then the basic ``note_write`` tool over and over, one per model call),
once without middlewares and once with ``SessionTap(file)``; runs alternate, best of
REPEAT each. Prints both times per tool call and the ratio (aim: <= 1.05).

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


async def once(calls: int, tap_path: Path | None) -> float:
    """Seconds for one conversation of ``calls`` tool calls."""
    middlewares = []
    if tap_path is not None:
        from toolscope.tap import SessionTap

        middlewares.append(SessionTap(tap_path))
    start = time.perf_counter()
    agent = await run_agent(middlewares=middlewares, turns=turns(calls), max_iters=calls + 5)
    elapsed = time.perf_counter() - start
    if tap_path is not None:
        tap = middlewares[0]
        assert tap.error is None and tap.records == calls + 1, (tap.error, tap.records)
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
            plain.append(asyncio.run(once(args.calls, None)))
            tapped.append(asyncio.run(once(args.calls, path)))
            size = os.path.getsize(path)
    base, with_tap = min(plain), min(tapped)
    print(f"tool calls per run: {args.calls} (best of {args.repeat}); tap file: {size} bytes")
    print(f"without tap: {base / args.calls * 1e3:.3f} ms per tool call")
    print(f"with tap:    {with_tap / args.calls * 1e3:.3f} ms per tool call")
    print(f"ratio with / without: {with_tap / base:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
