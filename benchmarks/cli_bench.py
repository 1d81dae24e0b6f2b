"""Whole-command benchmark: what the user waits for, process start to exit.

Builds the engine benchmark's universe, then runs each command as a fresh process,
interleaved with its baseline (one run of each side by side, the order alternating),
and prints the median ratio with its goal:

- ``tools STEP --json`` (50k tools) vs ``python -c "import json; json.load(open(REGISTRY))"``;
- ``report STEP --format json -o FILE`` (50k tools) vs the same baseline;
- ``explain SEED notify_user --mode build`` vs ``python -c "import typer, pydantic, yaml, rich.console"``;
- ``--help`` vs that baseline;
- ``explain STEP TYPO`` (an unknown name: the did-you-mean search over 50k tools) vs
  ``explain STEP TOOL`` (a known one) on the same universe;
- ``inspect STEP --screenshot F --size 120x40`` on 50k tools vs the same on the seed config.

Beside the times it prints each command's peak RSS (``os.wait4``'s ``ru_maxrss`` of that
process alone), its output size, and the memory per tool: the peak RSS slope between a
universe a fifth the size and the full one (memory is linear in tools when that slope
does not grow with the universe).

    python benchmarks/cli_bench.py [--tools 50000] [--servers 300] [--runs 5] [--only tools,report,...]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from engine_bench import make_universe_files  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
SEED = REPO / "sample_configs" / "seed" / "step_config.json"
RSS_GOAL_MB = 200


@dataclass
class Run:
    """One finished process: wall seconds, CPU seconds (user + system), peak resident set in bytes, exit status."""

    seconds: float
    cpu: float
    peak_rss: int
    status: int


def child_env(pycache: Path) -> dict[str, str]:
    """The environment of measured processes: bytecode caches on, as in a normal install.

    With PYTHONDONTWRITEBYTECODE set, every run would compile toolscope from source; the
    caches go to a folder of their own (PYTHONPYCACHEPREFIX), so the checkout stays clean.
    The warm-up run of each pair fills them.
    """
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(pycache)
    return env


ENV: dict[str, str] = dict(os.environ)


def run_process(argv: list[str], stdout_path: Path | None = None) -> Run:
    """Run argv to completion; its own peak RSS comes from wait4 (not the children's maximum)."""
    out = open(stdout_path, "wb") if stdout_path else subprocess.DEVNULL
    try:
        start = time.perf_counter()
        process = subprocess.Popen(argv, stdout=out, stderr=subprocess.PIPE, cwd=REPO, env=ENV)
        assert process.stderr is not None
        errors = process.stderr.read()
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)
    finally:
        if stdout_path:
            out.close()  # type: ignore[union-attr]
    code = process.returncode
    if code not in (0, 1):  # explain exits 1 on a hidden tool: that is its answer
        raise SystemExit(f"{' '.join(argv)} exited {code}:\n{errors.decode(errors='replace')}")
    return Run(seconds, usage.ru_utime + usage.ru_stime, usage.ru_maxrss * 1024, code)


def toolscope_argv() -> list[str]:
    """The console script installed next to this interpreter (as users run it), else -m."""
    script = Path(sys.executable).parent / "toolscope"
    return [str(script)] if script.exists() else [sys.executable, "-m", "toolscope"]


def side_by_side(candidate: list[str], baseline: list[str], runs: int, stdout_path: Path | None = None):
    """Interleaved runs (order alternating, one warm-up pair first); lists of Run for each side."""
    run_process(baseline)
    run_process(candidate, stdout_path)
    cand, base = [], []
    for index in range(runs):
        if index % 2:
            cand.append(run_process(candidate, stdout_path))
            base.append(run_process(baseline))
        else:
            base.append(run_process(baseline))
            cand.append(run_process(candidate, stdout_path))
    return cand, base


def median_seconds(runs: list[Run]) -> float:
    """Median wall time."""
    return statistics.median(r.seconds for r in runs)


def cpu_note(cand: list[Run], base: list[Run]) -> str:
    """The CPU-time ratio beside the wall-clock one: what the machine's other load cannot inflate."""
    ratio = statistics.median(r.cpu for r in cand) / statistics.median(r.cpu for r in base)
    return f"  (CPU time: {statistics.median(r.cpu for r in cand) * 1000:.0f} ms vs {statistics.median(r.cpu for r in base) * 1000:.0f} ms, CPU ratio {ratio:.2f}x)"


def mb(n: float) -> str:
    """Bytes as MB with one decimal."""
    return f"{n / 1e6:.1f} MB"


def verdict(value: float, goal: float) -> str:
    """'ok' or 'OVER' against a goal (at or under is ok)."""
    return "ok" if value <= goal else "OVER"


def main() -> int:
    """Run the benchmark and print one block per row of the table, then a summary."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tools", type=int, default=50_000)
    parser.add_argument("--servers", type=int, default=300)
    parser.add_argument("--runs", type=int, default=5, help="measured runs per side (median reported)")
    parser.add_argument(
        "--only", default="tools,report,explain,unknown,help,inspect", help="comma-separated rows to run"
    )
    args = parser.parse_args()
    rows = {r.strip() for r in args.only.split(",") if r.strip()}
    toolscope = toolscope_argv()
    py = sys.executable
    failures: list[str] = []

    def check(name: str, value: float, goal: float) -> str:
        result = verdict(value, goal)
        if result != "ok":
            failures.append(name)
        return result

    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        ENV.clear()
        ENV.update(child_env(tmp / "pycache"))
        big, small = tmp / "big", tmp / "small"
        big.mkdir()
        small.mkdir()
        big_step = make_universe_files(big, args.tools, args.servers)
        small_tools = max(args.tools // 5, 100)
        small_step = make_universe_files(small, small_tools, max(args.servers // 5, 3))
        registry = big / "toolscope.registry.json"
        load_json = [py, "-c", f"import json; json.load(open({str(registry)!r}))"]
        import_deps = [py, "-c", "import typer, pydantic, yaml, rich.console"]
        print(
            f"universe: {args.tools} tools ({args.servers} MCP servers), registry {mb(registry.stat().st_size)}; "
            f"{args.runs} interleaved runs per side, medians; python {sys.version.split()[0]}, "
            f"{os.cpu_count()} CPUs"
        )

        def memory_rows(label: str, argv_for, out_name: str) -> tuple[list[Run], list[Run], int]:
            out_big = tmp / f"{out_name}.big"
            cand, base = side_by_side(argv_for(big_step, out_big), load_json, args.runs, out_big)
            small_out = tmp / f"{out_name}.small"
            small_run = min(
                (run_process(argv_for(small_step, small_out), small_out) for _ in range(2)),
                key=lambda r: r.peak_rss,
            )
            size = out_big.stat().st_size
            ratio = median_seconds(cand) / median_seconds(base)
            peak = max(r.peak_rss for r in cand)
            slope = (peak - small_run.peak_rss) / (args.tools - small_tools) if args.tools > small_tools else 0.0
            print(f"\n{label}")
            print(
                f"  {median_seconds(cand) * 1000:.0f} ms vs json.load baseline {median_seconds(base) * 1000:.0f} ms: "
                f"ratio {ratio:.1f}x (goal <= 10x) {check(out_name + ' time', ratio, 10)}"
            )
            print(cpu_note(cand, base))
            print(
                f"  peak RSS {mb(peak)} (goal <= {RSS_GOAL_MB} MB) {check(out_name + ' RSS', peak / 1e6, RSS_GOAL_MB)}"
            )
            print(
                f"  memory per tool: {slope:.0f} bytes (peak RSS {mb(small_run.peak_rss)} at {small_tools} tools, "
                f"{mb(peak)} at {args.tools}); output {mb(size)} = {size / args.tools:.0f} bytes per tool"
            )
            return cand, base, size

        if "tools" in rows:
            memory_rows(
                f"toolscope tools STEP --json ({args.tools} tools, stdout to a file)",
                lambda step, _out: [*toolscope, "tools", str(step), "--json"],
                "tools",
            )
        if "report" in rows:
            memory_rows(
                f"toolscope report STEP --format json -o FILE ({args.tools} tools)",
                lambda step, out: [*toolscope, "report", str(step), "--format", "json", "-o", str(out), "--force"],
                "report",
            )
        if "explain" in rows:
            cand, base = side_by_side(
                [*toolscope, "explain", str(SEED), "notify_user", "--mode", "build"], import_deps, args.runs
            )
            ratio = median_seconds(cand) / median_seconds(base)
            print("\ntoolscope explain SEED notify_user --mode build")
            print(
                f"  {median_seconds(cand) * 1000:.0f} ms vs import typer, pydantic, yaml, rich.console "
                f"{median_seconds(base) * 1000:.0f} ms: ratio {ratio:.2f}x (goal <= 1.3x) "
                f"{check('explain', ratio, 1.3)}"
            )
            print(cpu_note(cand, base))
        if "unknown" in rows:
            known = "notify_user"  # in every generated universe (human_tools)
            typo = "notfy_usr"  # two letters dropped: found by the edit distance
            cand, base = side_by_side(
                [*toolscope, "explain", str(big_step), typo], [*toolscope, "explain", str(big_step), known], args.runs
            )
            ratio = median_seconds(cand) / median_seconds(base)
            print(
                f"\ntoolscope explain STEP {typo} (unknown: did you mean…) vs explain STEP {known} ({args.tools} tools)"
            )
            print(
                f"  {median_seconds(cand) * 1000:.0f} ms vs {median_seconds(base) * 1000:.0f} ms: ratio {ratio:.2f}x "
                f"(goal <= 1.5x) {check('unknown', ratio, 1.5)}"
            )
            print(cpu_note(cand, base))
        if "help" in rows:
            cand, base = side_by_side([*toolscope, "--help"], import_deps, args.runs)
            ratio = median_seconds(cand) / median_seconds(base)
            print("\ntoolscope --help")
            print(
                f"  {median_seconds(cand) * 1000:.0f} ms vs import typer, pydantic, yaml, rich.console "
                f"{median_seconds(base) * 1000:.0f} ms: ratio {ratio:.2f}x (goal <= 1.3x) {check('help', ratio, 1.3)}"
            )
            print(cpu_note(cand, base))
        if "inspect" in rows:
            shot = tmp / "shot.svg"

            def inspect(step: Path) -> list[str]:
                return [*toolscope, "inspect", str(step), "--screenshot", str(shot), "--size", "120x40", "--force"]

            cand, base = side_by_side(inspect(big_step), inspect(SEED), args.runs)
            ratio = median_seconds(cand) / median_seconds(base)
            print(f"\ntoolscope inspect STEP --screenshot F --size 120x40 ({args.tools} tools vs the seed config)")
            print(
                f"  {median_seconds(cand) * 1000:.0f} ms vs {median_seconds(base) * 1000:.0f} ms: ratio {ratio:.2f}x "
                f"(goal <= 1.2x) {check('inspect', ratio, 1.2)}; peak RSS {mb(max(r.peak_rss for r in cand))}"
            )
            print(cpu_note(cand, base))
        shutil.rmtree(tmp, ignore_errors=True)
    print()
    if os.getloadavg()[0] > (os.cpu_count() or 1):
        print(f"note: load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs: wall-clock ratios are noisy")
    print("every wall-clock ratio at or under its goal" if not failures else "over goal: " + ", ".join(failures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
