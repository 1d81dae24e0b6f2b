"""Whole-workflow benchmark: ``check`` and ``tools`` of every step, without ``--step``.

Generates a universe (``engine_bench.make_registry``) and a step config of STEPS steps,
each with its own filters, and measures loading the workflow (one registry, one universe
for all steps) and answering every step (its four stages and its checks), for STEPS/10 and
STEPS steps in the same run (CPU time). Near linear means the ratio of the two per-step
times stays close to 1; each is also printed as a ratio to ``json.loads`` of the registry.

    python benchmarks/workflow_bench.py [--steps 200] [--tools 50000] [--servers 300]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

from toolscope.core.systems.agentworks.load_request import StepConfigLoad

sys.path.insert(0, str(Path(__file__).resolve().parent))

from engine_bench import make_registry, make_step  # noqa: E402


def _workflow(directory: Path, registry: dict, steps: int) -> Path:
    document = {"steps": [{**make_step(registry, seed=i), "id": f"step-{i:03d}"} for i in range(steps)]}
    path = directory / f"steps_{steps}.json"
    path.write_text(json.dumps(document))
    return path


def _answer_all(path: Path) -> float:
    from toolscope.core.systems.agentworks.subject import load_workflow_subjects

    start = time.process_time()
    subjects = load_workflow_subjects(StepConfigLoad(path))
    for subject in subjects:
        subject.evaluate("build").counts()
        subject.findings(["build"])
        subject.release()  # as check and tools do once a step is answered
    return time.process_time() - start


def main() -> None:
    """Run the benchmark and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--tools", type=int, default=50_000)
    parser.add_argument("--servers", type=int, default=300)
    args = parser.parse_args()
    registry = make_registry(args.tools, args.servers)
    small_steps = max(1, args.steps // 10)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        text = json.dumps(registry)
        (folder / "toolscope.registry.json").write_text(text)
        start = time.process_time()
        json.loads(text)
        baseline = time.process_time() - start
        small = _answer_all(_workflow(folder, registry, small_steps))
        large = _answer_all(_workflow(folder, registry, args.steps))
    per_small, per_large = small / small_steps, large / args.steps
    print(f"universe: {args.tools} tools, {args.servers} servers; json.loads(registry): {baseline * 1000:.1f} ms")
    print(
        f"{small_steps} steps: {small:.2f} s ({per_small * 1000:.1f} ms a step = {per_small / baseline:.1f}x json.loads)"
    )
    print(
        f"{args.steps} steps: {large:.2f} s ({per_large * 1000:.1f} ms a step = {per_large / baseline:.1f}x json.loads)"
    )
    print(
        f"ratio per-step time {args.steps} / {small_steps} steps: {per_large / per_small:.2f} (near linear: close to 1)"
    )


if __name__ == "__main__":
    main()
