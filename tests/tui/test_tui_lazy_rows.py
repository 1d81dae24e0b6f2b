"""The pipeline view on a large universe: rows in the same order and with the same filter
answers as sorting every verdict would give, while only the rows on screen become verdicts."""

from __future__ import annotations

import gc
import sys
from pathlib import Path

import pytest
from tui_helpers import REPO, make_app

from toolscope.cli.inputs import open_subject
from toolscope.core.model.enums import SharedStage, Verdict
from toolscope.core.model.verdicts import Evaluation, ToolVerdict
from toolscope.core.systems.registry import STAGE_TITLES
from toolscope.tui.rows import GroupRow, RowIndex, RowQuery, compare, tool_key

sys.path.insert(0, str(REPO / "benchmarks"))
from engine_bench import make_universe_files  # noqa: E402


@pytest.fixture(scope="module")
def large(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """20,005 generated tools over 60 servers (the benchmark's universe, smaller)."""
    return make_universe_files(tmp_path_factory.mktemp("large"), 20_000, 60)


@pytest.fixture(scope="module")
def medium(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """3,005 generated tools over 30 servers (a few change verdict between the modes)."""
    return make_universe_files(tmp_path_factory.mktemp("medium"), 3_000, 30)


# -- a reference: every verdict built, sorted and searched the plain way -----------------


def _rank(tool: ToolVerdict) -> int:
    failing = tool.first_failing
    if failing is None:
        return 3
    if failing.passed is None:
        return 2
    return 1 if failing.name == SharedStage.REGISTERED else 0


def _haystack(tool: ToolVerdict) -> str:
    failing = tool.first_failing
    decided = STAGE_TITLES.get(failing.name, failing.name) if failing is not None else ""
    return f"{tool.name}\0{tool.namespace}\0{tool.namespace}:{tool.name}\0{tool.verdict}\0{decided}".lower()


def reference(evaluation: Evaluation, query: RowQuery, changed: frozenset = frozenset()) -> list:
    tools = sorted(evaluation.tools, key=lambda t: (_rank(t), t.namespace, t.name))
    terms = query.text.lower().split()
    picked = [
        t
        for t in tools
        if all(term in _haystack(t) for term in terms)
        and (not query.only_hidden or t.verdict != Verdict.VISIBLE)
        and (not query.only_changed or tool_key(t) in changed)
    ]
    if not query.grouped:
        return picked
    groups: dict[str, list[ToolVerdict]] = {}
    for tool in picked:
        groups.setdefault(tool.namespace, []).append(tool)
    rows: list = []
    for namespace in sorted(groups, key=lambda ns: (min(_rank(t) for t in groups[ns]), ns)):
        members = groups[namespace]
        rows.append(GroupRow(namespace, len(members), sum(t.verdict != Verdict.VISIBLE for t in members)))
        rows += members
    return rows


def test_rows_match_sorting_and_searching_every_verdict(medium: Path) -> None:
    subject = open_subject(str(medium))
    before = subject.evaluate(subject.mode_names[0])
    after = subject.evaluate(subject.mode_names[1])
    change = compare(before, after)
    assert change.changed, "the generated universe changes verdicts between modes"
    # The mode switch's changes, as comparing verdicts one by one gives them.
    was = {tool_key(t): t.verdict for t in before.tools}
    assert change.changed == {tool_key(t) for t in after.tools if was[tool_key(t)] != t.verdict}
    index = RowIndex(after, change.changed)
    queries = [
        RowQuery(),
        RowQuery("sync"),
        RowQuery("SYNC issue"),
        RowQuery("sync issue_1"),
        RowQuery("server_0"),
        RowQuery("server-001:"),
        RowQuery("-001:sync"),
        RowQuery("allow-listed"),
        RowQuery("hidden"),
        RowQuery("visible"),
        RowQuery("hidden", grouped=True),
        RowQuery(only_hidden=True),
        RowQuery("get", only_hidden=True),
        RowQuery(grouped=True),
        RowQuery(only_changed=True),
        RowQuery("list", only_changed=True, only_hidden=True),
        RowQuery("li"),
        RowQuery("lis"),
        RowQuery("list"),
        RowQuery("l"),
        RowQuery("nothing-like-this"),
    ]
    for query in queries:
        rows = index.select(query)
        assert list(rows) == reference(after, query, change.changed), query
        assert rows.tool_count == sum(isinstance(row, ToolVerdict) for row in rows), query


def _built_verdicts(known: set[int]) -> int:
    """ToolVerdicts alive now that were not alive when ``known`` was taken (frozen ones included)."""
    gc.unfreeze()  # the screen freezes what it holds; frozen objects are not listed
    return sum(1 for o in gc.get_objects() if isinstance(o, ToolVerdict) and id(o) not in known)


async def test_the_view_builds_verdicts_only_for_the_rows_it_shows(large: Path) -> None:
    app = make_app(large)
    gc.unfreeze()
    alive = [o for o in gc.get_objects() if isinstance(o, ToolVerdict)]  # kept alive: ids stay theirs
    known = {id(o) for o in alive}
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        screen = app.screen
        grid = screen.pipeline.grid
        assert len(screen.evaluation.tools) == 20_005
        first_paint = _built_verdicts(known)
        assert first_paint <= 60, f"the first screen built {first_paint} verdicts"
        # The whole way through the list, filtering, toggles, grouping, a mode switch and Δ.
        await pilot.press("end")
        await pilot.pause()
        last = grid.selected_tool
        await pilot.press("home", "slash", *"sync", "enter", "h", "g", "g", "h")
        await pilot.press("escape", "m")
        await pilot.pause()
        await pilot.press("right_square_bracket", "right_square_bracket", "left_square_bracket", "d", "d", "end")
        await pilot.pause()
        built = _built_verdicts(known)
        assert built <= 600, f"{built} verdicts built for a few screens of 20,005 tools"
        # The rows are the ones sorting every verdict gives (built now, after the count).
        assert last is not None and tool_key(last) == tool_key(reference(screen.previous, RowQuery())[-1])
        assert tool_key(grid.selected_tool) == tool_key(reference(screen.evaluation, RowQuery())[-1])
