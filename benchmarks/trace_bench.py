"""Cost of reading a trace as a capture, against a plain ``json.load`` of the same file.

The recorded trace of the seed agent under AgentScope's own tracing and OpenLLMetry
(``tests/traces/fixtures/agentscope-openllmetry.otlp.json``: a real AgentScope agent's spans, its
model calls recorded twice, once by each, with their ``gen_ai.tool.definitions``, and its agent and
tool spans) is tiled with fresh ids until it holds SPANS spans, written to a temporary file, then
read REPEAT times each way, alternating; best CPU time of each (this process: steady on a loaded machine). Prints both and the
ratio (toolscope / json.load; the goal is at most 3). Exit 1 when the ratio is over ``--max``.

    python benchmarks/trace_bench.py [--spans 10000] [--repeat 5] [--max 3]
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
FIXTURE = REPO / "tests" / "traces" / "fixtures" / "agentscope-openllmetry.otlp.json"


def tiled_trace(path: Path, spans: int) -> tuple[int, int]:
    """The recorded trace's spans repeated (fresh trace and span ids) until ``spans``; (spans, model calls)."""
    document = json.loads(FIXTURE.read_text(encoding="utf-8"))
    scope = document["resourceSpans"][0]["scopeSpans"][0]
    template = [s for r in document["resourceSpans"] for sc in r["scopeSpans"] for s in sc["spans"]]
    out, tile = [], 0
    while len(out) < spans:
        trace_id = os.urandom(16).hex()
        ids = {s["spanId"]: os.urandom(8).hex() for s in template}
        for span in template[: spans - len(out)]:
            copied = copy.deepcopy(span)
            copied["traceId"], copied["spanId"] = trace_id, ids[span["spanId"]]
            if span.get("parentSpanId") in ids:
                copied["parentSpanId"] = ids[span["parentSpanId"]]
            out.append(copied)
        tile += 1
    scope["spans"] = out
    document["resourceSpans"] = [{**document["resourceSpans"][0], "scopeSpans": [scope]}]
    path.write_text(json.dumps(document), encoding="utf-8")
    calls = sum(1 for s in out if any(a["key"] == "gen_ai.tool.definitions" for a in s.get("attributes", [])))
    return len(out), calls


def best(run, repeat: int) -> float:  # noqa: ANN001 - a callable
    times = []
    for _ in range(repeat):
        started = time.process_time()
        run()
        times.append(time.process_time() - started)
    return min(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--spans", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--max", type=float, default=3.0, help="Exit 1 when the ratio is over this.")
    args = parser.parse_args()
    from toolscope.core.capture.observed_file import load_capture

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "trace.otlp.json"
        spans, calls = tiled_trace(path, args.spans)
        size = path.stat().st_size

        def plain() -> None:
            with path.open(encoding="utf-8") as handle:
                json.load(handle)

        read = load_capture(path)
        toolscope = plain_time = float("inf")
        for _ in range(args.repeat):
            plain_time = min(plain_time, best(plain, 1))
            toolscope = min(toolscope, best(lambda: load_capture(path), 1))
    ratio = toolscope / plain_time
    print(f"trace: {spans:,} spans, {calls:,} model calls with a tool list, {size / 1e6:.1f} MB")
    print(f"requests read: {len(read.requests):,}")
    print(f"json.load: {plain_time * 1000:.1f} ms   toolscope: {toolscope * 1000:.1f} ms")
    print(f"ratio toolscope / json.load: {ratio:.2f} (goal <= {args.max:g})")
    return 0 if ratio <= args.max else 1


if __name__ == "__main__":
    sys.exit(main())
