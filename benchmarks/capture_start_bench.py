"""The capture server's first reply after it starts: SDK types imported ahead of serving vs on first use.

Run: ``python benchmarks/capture_start_bench.py [--runs N]``

Each run is a fresh process (imports are per process): it starts a ``CaptureServer`` and
sends a malformed Anthropic request (the error reply builds ``anthropic.types`` objects),
then a second one. ``warm`` is the server as shipped (``start()`` imports the wire modules
and the SDK types before serving); ``cold`` is the same server with that step skipped, so
the first reply imports them inside the server's event loop (what the first error reply
did before). Both alternate run by run, so they see the same machine load. Printed: the
median of each figure, and the ratio of the first reply's latency cold/warm.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys

_CHILD = r"""
import sys, time
import httpx
from toolscope.core.capture import server as server_module
from toolscope.core.capture.app import CaptureSettings
from toolscope.core.capture.writer import CaptureWriter
if sys.argv[1] == "cold":
    server_module.warm_up = lambda: None
server = server_module.CaptureServer(CaptureSettings(writer=CaptureWriter(None), record=False))
started = time.perf_counter()
server.start()
ready = time.perf_counter()
with httpx.Client(timeout=120) as client:
    client.post(f"{server.url}/v1/messages", content=b"{")
    first = time.perf_counter()
    client.post(f"{server.url}/v1/messages", content=b"{")
    second = time.perf_counter()
server.stop()
print(ready - started, first - ready, second - first)
"""


def _run(mode: str) -> tuple[float, float, float]:
    out = subprocess.run([sys.executable, "-c", _CHILD, mode], capture_output=True, text=True, timeout=300, check=True)
    start, first, second = (float(x) for x in out.stdout.split())
    return start, first, second


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    results: dict[str, list[tuple[float, float, float]]] = {"warm": [], "cold": []}
    for _ in range(args.runs):
        for mode in ("cold", "warm"):
            results[mode].append(_run(mode))
    print(f"{args.runs} runs each, load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    for mode, runs in results.items():
        start, first, second = (statistics.median(r[i] for r in runs) for i in range(3))
        print(
            f"  {mode}: start() {start * 1000:7.0f} ms, first error reply {first * 1000:7.1f} ms, second {second * 1000:5.1f} ms"
        )
    cold_first = statistics.median(r[1] for r in results["cold"])
    warm_first = statistics.median(r[1] for r in results["warm"])
    print(f"  first reply cold/warm: {cold_first / warm_first:.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
