"""A capture server for ``benchmarks/capture_bench.py``: prints its URL, serves until SIGTERM.

``python benchmarks/capture_bench_server.py [--output FILE | --no-record] [--upstream URL]``
"""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from pathlib import Path

from toolscope.core.capture.app import CaptureSettings
from toolscope.core.capture.server import CaptureServer
from toolscope.core.capture.writer import CaptureWriter


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="bench_server")
    parser.add_argument("--output", type=Path)
    parser.add_argument("--no-record", action="store_true")
    parser.add_argument("--upstream")
    args = parser.parse_args(argv)
    settings = CaptureSettings(
        writer=CaptureWriter(None if args.no_record else args.output),
        upstream=args.upstream,
        record=not args.no_record,
    )
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    with CaptureServer(settings) as server:
        print(server.url, flush=True)
        stop.wait()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
