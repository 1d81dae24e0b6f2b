"""Cost of one replayed ``reset_tools`` call, with and without the meta tool's template cache.

The real recording (``sample_configs/agentscope/session_typo.json``) tiled until it holds
CALLS ``reset_tools`` calls, replayed on both lanes (stock and guarded) the way
``step --session`` replays it. The baseline is the stock AgentScope meta tool, which
compiles its Jinja response template and rebuilds its input schema's pydantic model on every
call; the other run uses toolscope's caches
(``core/systems/agentscope/meta_tool_cache.py``). Runs alternate, best of REPEAT each, CPU time of
this process. Prints both costs per call and the ratio (cached / stock; lower is better).

    python benchmarks/replay_bench.py [--calls 400] [--repeat 3]
"""

from __future__ import annotations

import argparse
import asyncio
import copy
import json
import sys
import tempfile
import time
from pathlib import Path

from toolscope.core.systems.agentscope.ids import AgentScopeInput

REPO = Path(__file__).resolve().parent.parent
SAMPLES = REPO / "sample_configs" / "agentscope"


def tiled_session(path: Path, calls: int) -> Path:
    """The real recording's reply repeated until it holds ``calls`` reset_tools calls (fresh ids)."""
    state = json.loads((SAMPLES / "session_typo.json").read_text())
    reply = state["context"][1]
    blocks = reply["content"]
    per_tile = sum(1 for b in blocks if b.get("type") == "tool_call" and b.get("name") == "reset_tools")
    tiles = max(1, calls // per_tile)
    reply["content"] = [dict(copy.deepcopy(b), id=f"{b['id']}-{i}") for i in range(tiles) for b in blocks]
    path.write_text(json.dumps(state))
    return path


def replay_cpu(built: object, recorded: object) -> float:
    """CPU seconds for one whole replay."""
    from toolscope.core.systems.agentscope.session_replay import areplay_session, starting_point

    start_built, starting_from = starting_point(built, recorded, False)
    started = time.process_time()
    asyncio.run(areplay_session(start_built, recorded, starting_from))
    return time.process_time() - started


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print the ratio."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=400)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)

    import importlib

    import jinja2

    from toolscope.core.systems.agentscope import meta_tool_cache
    from toolscope.core.systems.agentscope.session_source import load_session
    from toolscope.core.systems.agentscope.subject import load_toolkit_subject

    if not meta_tool_cache.install():
        import agentscope

        print(f"the cache is not installed on agentscope {agentscope.__version__}: nothing to compare")
        return 1
    module = importlib.import_module(meta_tool_cache.PRIVATE_TEMPLATE[0])
    cached = getattr(module, meta_tool_cache.PRIVATE_TEMPLATE[1])
    cached_schema = module.ResetTools.__dict__["input_schema"]
    [stock_schema] = meta_tool_cache.ORIGINAL_SCHEMA
    with tempfile.TemporaryDirectory() as folder:
        recorded = load_session(tiled_session(Path(folder) / "long.json", args.calls))
    built = load_toolkit_subject(str(SAMPLES / "toolkit.yaml"), kind=AgentScopeInput.TOOLKIT_SPEC).built
    calls = len(recorded.resets)
    best = {"stock": float("inf"), "cached": float("inf")}
    for run in range(args.repeat):
        order = ("stock", "cached") if run % 2 == 0 else ("cached", "stock")
        for which in order:
            # areplay_session installs the cache (a no-op now); the baseline puts the stock name back
            setattr(module, meta_tool_cache.PRIVATE_TEMPLATE[1], jinja2.Template if which == "stock" else cached)
            module.ResetTools.input_schema = stock_schema if which == "stock" else cached_schema
            best[which] = min(best[which], replay_cpu(built, recorded))
    setattr(module, meta_tool_cache.PRIVATE_TEMPLATE[1], cached)
    module.ResetTools.input_schema = cached_schema
    stock_ms, cached_ms = (best[k] / calls * 1000 for k in ("stock", "cached"))
    print(f"reset_tools calls replayed (both lanes): {calls}")
    print(f"stock meta tool:  {stock_ms:.2f} ms per call")
    print(f"meta tool cached: {cached_ms:.2f} ms per call")
    print(f"ratio cached/stock: {cached_ms / stock_ms:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
