"""What recording costs: the capture server with recording on against the same server with it off.

Run: ``python benchmarks/capture_bench.py [--requests N] [--memory-requests M] [--quick]``

Each server runs in its own process (``python -m toolscope.core.capture.bench_server``), the
client here, over real HTTP with keep-alive, alternating between the servers request by
request so both see the same machine load. Measured, side by side in one run:

* added latency per request of a 1,000-tool Chat Completions request: recording on vs off
  (p50 and p99 of each; the difference; targets p50 ≤ 2 ms, p99 ≤ 10 ms);
* proxy overhead: through ``--upstream`` (recording on) to an upstream vs to that upstream
  directly (target p50 ≤ 3 ms);
* requests per second sustained with 8 concurrent clients (target ≥ 200/s on 2 cores);
* the recording server's resident memory after 1,000 and after M (default 10,000) requests
  (flat: the server keeps nothing per request).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx
import orjson


def _tools(count: int) -> list[dict[str, object]]:
    return [
        {
            "type": "function",
            "function": {
                "name": f"tool_{n:04d}",
                "description": f"Tool number {n}: does one thing to a record, given its id and options.",
                "parameters": {
                    "type": "object",
                    "properties": {"id": {"type": "string"}, "verbose": {"type": "boolean"}},
                    "required": ["id"],
                },
            },
        }
        for n in range(count)
    ]


def _body(tools: int) -> bytes:
    return orjson.dumps(
        {
            "model": "bench",
            "messages": [{"role": "system", "content": "You are a bench."}, {"role": "user", "content": "hi"}],
            "tools": _tools(tools),
        }
    )


class Server:
    """A capture server in its own process; ``url`` once it listens."""

    def __init__(self, *args: str) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "toolscope.core.capture.bench_server", *args],
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline().strip()
        if not line.startswith("http://"):
            self.stop()
            raise SystemExit(f"bench server did not start: {line!r}")
        self.url = line

    def rss_kib(self) -> int:
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        return 0

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def _post(client: httpx.Client, url: str, body: bytes) -> float:
    start = time.perf_counter()
    response = client.post(f"{url}/v1/chat/completions", content=body, headers={"content-type": "application/json"})
    elapsed = time.perf_counter() - start
    response.raise_for_status()
    return elapsed * 1000


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def paired(client: httpx.Client, a: str, b: str, body: bytes, count: int) -> tuple[list[float], list[float]]:
    """Latencies of a and b, alternating request by request (after a warm-up)."""
    for _ in range(20):
        _post(client, a, body), _post(client, b, body)
    first: list[float] = []
    second: list[float] = []
    for n in range(count):
        if n % 2:
            second.append(_post(client, b, body))
            first.append(_post(client, a, body))
        else:
            first.append(_post(client, a, body))
            second.append(_post(client, b, body))
    return first, second


def throughput(url: str, body: bytes, seconds: float, workers: int = 8) -> float:
    done = [0] * workers
    stop = time.perf_counter() + seconds

    def work(slot: int) -> None:
        with httpx.Client(timeout=30) as client:
            while time.perf_counter() < stop:
                _post(client, url, body)
                done[slot] += 1

    threads = [threading.Thread(target=work, args=(n,)) for n in range(workers)]
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sum(done) / (time.perf_counter() - start)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=1000, help="latency samples per server (default 1000)")
    parser.add_argument("--memory-requests", type=int, default=10_000, help="requests for the memory check")
    parser.add_argument("--quick", action="store_true", help="small counts (CI smoke)")
    args = parser.parse_args()
    if args.quick:
        args.requests, args.memory_requests = 100, 1500
    folder = Path(tempfile.mkdtemp(prefix="capture-bench-"))
    big = _body(1000)
    small = _body(20)
    recording = Server("--output", str(folder / "on.jsonl"))
    silent = Server("--no-record")
    proxy = Server("--output", str(folder / "proxy.jsonl"), "--upstream", silent.url)
    failed = []
    try:
        with httpx.Client(timeout=30) as client:
            on, off = paired(client, recording.url, silent.url, big, args.requests)
            via, direct = paired(client, proxy.url, silent.url, big, args.requests)
        added50 = _pct(on, 0.5) - _pct(off, 0.5)
        added99 = _pct(on, 0.99) - _pct(off, 0.99)
        proxy50 = _pct(via, 0.5) - _pct(direct, 0.5)
        print(f"1,000-tool request ({len(big):,} bytes), {args.requests} samples each, alternating:")
        print(f"  recording off   p50 {_pct(off, 0.5):6.2f} ms  p99 {_pct(off, 0.99):6.2f} ms")
        print(f"  recording on    p50 {_pct(on, 0.5):6.2f} ms  p99 {_pct(on, 0.99):6.2f} ms")
        print(f"  added           p50 {added50:6.2f} ms  p99 {added99:6.2f} ms   (targets 2 / 10 ms)")
        print(
            f"  ratio on/off    p50 {_pct(on, 0.5) / _pct(off, 0.5):.2f}x  mean {statistics.mean(on) / statistics.mean(off):.2f}x"
        )
        print(f"  direct          p50 {_pct(direct, 0.5):6.2f} ms")
        print(f"  via proxy       p50 {_pct(via, 0.5):6.2f} ms  overhead {proxy50:.2f} ms   (target 3 ms)")
        failed += [name for name, bad in (("p50", added50 > 2), ("p99", added99 > 10), ("proxy", proxy50 > 3)) if bad]
        rate_small = throughput(recording.url, small, 3.0)
        rate_big = throughput(recording.url, big, 3.0)
        print(
            f"throughput, 8 clients, recording on: {rate_small:,.0f} req/s (20 tools), {rate_big:,.0f} req/s (1,000 tools)   (target 200/s)"
        )
        failed += ["throughput"] if rate_small < 200 else []
        with httpx.Client(timeout=30) as client:
            sent = 0
            while sent < 1000:
                _post(client, recording.url, small)
                sent += 1
            early = recording.rss_kib()
            while sent < args.memory_requests:
                _post(client, recording.url, small)
                sent += 1
            late = recording.rss_kib()
        print(
            f"memory of the recording server: {early / 1024:.1f} MiB after 1,000 requests, {late / 1024:.1f} MiB after {sent:,} ({(late - early) / 1024:+.1f} MiB)"
        )
        failed += ["memory"] if late - early > 8 * 1024 else []
    finally:
        for server in (proxy, recording, silent):
            server.stop()
        for path in folder.iterdir():
            path.unlink()
        folder.rmdir()
    print("all targets met" if not failed else f"missed: {', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    sys.exit(main())
