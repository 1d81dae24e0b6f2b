"""The pipeline view's rows: ordering, filtering and grouping of verdicts (no Textual here).

Kept apart from the widget so it can be tested and benchmarked on its own, and because a
filter keystroke on 50,000 tools must stay well under 100 ms: every tool's search text is
lower-cased once per evaluation, and a keystroke is a substring scan over those strings.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from toolscope.core.counts import count_of
from toolscope.core.enums import StageId, Verdict
from toolscope.core.verdicts import STAGE_TITLES, Evaluation, ToolVerdict, empty_counts

ToolKey = tuple[str, str]
"""(namespace, name): a tool's identity across evaluations of the same subject."""


def tool_key(tool: ToolVerdict) -> ToolKey:
    """The identity used to match a tool between two modes."""
    return (tool.namespace, tool.name)


def is_registered_but_hidden(tool: ToolVerdict) -> bool:
    """The notify_user case: the tool exists (registered) yet a later gate hides it."""
    failing = tool.first_failing
    return failing is not None and failing.passed is False and failing.name != StageId.REGISTERED


def priority(tool: ToolVerdict) -> int:
    """Sort rank: registered-but-hidden first, then other hidden, unknown, visible."""
    verdict = tool.verdict
    if verdict == Verdict.HIDDEN:
        return 0 if is_registered_but_hidden(tool) else 1
    return 2 if verdict == Verdict.UNKNOWN else 3


@dataclass(frozen=True, slots=True)
class GroupRow:
    """A namespace heading when rows are grouped."""

    namespace: str
    total: int
    hidden: int


Row = ToolVerdict | GroupRow


@dataclass(frozen=True, slots=True)
class RowQuery:
    """What the user asked the pipeline view to show."""

    text: str = ""
    """Space-separated terms; each must appear in the name, namespace, ``namespace:name``, the
    verdict or the title of the stage that decided it (``allow-listed``)."""
    only_hidden: bool = False
    """Show only tools whose verdict is not visible."""
    grouped: bool = False
    """Group rows under a heading per namespace / group."""
    only_changed: bool = False
    """Show only tools whose verdict changed with the last mode switch (Δ)."""


def search_text(tool: ToolVerdict) -> str:
    """What the filter searches for one tool, lower-cased: the columns as shown, plus the
    config's own ``namespace:name`` spelling. NUL separators keep a term from matching across
    the end of one field."""
    failing = tool.first_failing
    decided = STAGE_TITLES.get(failing.name, failing.name) if failing is not None else ""
    return _search_text(tool, tool.verdict, decided)


def _search_text(tool: ToolVerdict, verdict: str, decided: str) -> str:
    return f"{tool.name}\0{tool.namespace}\0{tool.namespace}:{tool.name}\0{verdict}\0{decided}".lower()


class RowIndex:
    """One evaluation's tools in display order, with precomputed search text."""

    def __init__(self, evaluation: Evaluation, changed: frozenset[ToolKey] = frozenset()) -> None:
        # Rank, verdict and deciding stage depend on the stages only: decided once per distinct
        # row (tools decided by the same rules share their stage tuple; 50,000 tools have a few
        # hundred), so opening a large universe costs one pass over its tools.
        facts: dict[int, tuple[int, str, str]] = {}
        tools = list(evaluation.tools)
        per_tool = []
        for tool in tools:
            fact = facts.get(id(tool.stages))
            if fact is None:
                failing = tool.first_failing
                decided = STAGE_TITLES.get(failing.name, failing.name) if failing is not None else ""
                fact = facts[id(tool.stages)] = (priority(tool), tool.verdict, decided)
            per_tool.append(fact)
        keys = [(fact[0], tool.namespace, tool.name) for fact, tool in zip(per_tool, tools, strict=True)]
        order = sorted(range(len(tools)), key=keys.__getitem__)  # stable, as sorting the tools was
        ordered = [tools[i] for i in order]
        self.tools: tuple[ToolVerdict, ...] = tuple(ordered)
        self._haystacks: tuple[str, ...] = tuple(_search_text(tools[i], per_tool[i][1], per_tool[i][2]) for i in order)
        self._hidden_positions: list[int] = [
            position for position, i in enumerate(order) if per_tool[i][1] != Verdict.VISIBLE
        ]
        self._changed_positions: list[int] = (
            [i for i, t in enumerate(ordered) if tool_key(t) in changed] if changed else []
        )
        # (lower-cased text, only_hidden, only_changed, positions) of the previous query.
        self._last: tuple[str, bool, bool, list[int]] = ("", False, False, list(range(len(ordered))))

    def select(self, query: RowQuery) -> list[Row]:
        """The rows to show for this query, group headings included."""
        picked = [self.tools[i] for i in self._matching(query.text, query.only_hidden, query.only_changed)]
        return _grouped(picked) if query.grouped else list(picked)

    def _matching(self, text: str, only_hidden: bool, only_changed: bool) -> list[int]:
        """Positions of the tools matching; narrows the previous answer while the user types."""
        terms = text.lower().split()
        last_text, last_hidden, last_changed, last_positions = self._last
        if (only_hidden, only_changed) == (last_hidden, last_changed) and text.lower().startswith(last_text):
            # Typing on: every old term is part of a new term, so matches can only shrink.
            candidates: Iterable[int] = last_positions
        elif only_changed:
            hidden = set(self._hidden_positions) if only_hidden else None
            candidates = [i for i in self._changed_positions if hidden is None or i in hidden]
        elif only_hidden:
            candidates = self._hidden_positions
        else:
            candidates = range(len(self.tools))
        haystacks = self._haystacks
        positions = list(candidates)
        for term in terms:
            positions = [i for i in positions if term in haystacks[i]]
        self._last = (text.lower(), only_hidden, only_changed, positions)
        return positions


def _grouped(tools: list[ToolVerdict]) -> list[Row]:
    """Tools under one heading per namespace; namespaces with hidden tools first."""
    by_namespace: dict[str, list[ToolVerdict]] = {}
    for tool in tools:
        by_namespace.setdefault(tool.namespace, []).append(tool)

    def rank(namespace: str) -> tuple[int, str]:
        members = by_namespace[namespace]
        return (min(priority(t) for t in members), namespace)

    rows: list[Row] = []
    for namespace in sorted(by_namespace, key=rank):
        members = by_namespace[namespace]
        hidden = sum(1 for t in members if t.verdict != Verdict.VISIBLE)
        rows.append(GroupRow(namespace, len(members), hidden))
        rows.extend(members)
    return rows


@dataclass(frozen=True)
class ModeChange:
    """How verdicts moved when the mode changed."""

    changed: frozenset[ToolKey]
    became_hidden: int
    became_visible: int
    became_unknown: int

    def summary(self, old_mode: str | None, new_mode: str | None) -> str:
        """E.g. ``mode build → run: 3 tools became hidden, 1 visible`` (counts as ``1,234``)."""
        moves = [
            (count, verdict)
            for count, verdict in (
                (self.became_hidden, "hidden"),
                (self.became_visible, "visible"),
                (self.became_unknown, "unknown"),
            )
            if count
        ]
        if not moves:
            return f"mode {old_mode} → {new_mode}: no verdict changed"
        first_count, first_verdict = moves[0]
        parts = [f"{count_of(first_count, 'tool')} became {first_verdict}"]
        parts += [f"{count:,} {verdict}" for count, verdict in moves[1:]]
        return f"mode {old_mode} → {new_mode}: " + ", ".join(parts)


def compare(before: Evaluation | None, after: Evaluation) -> ModeChange:
    """Which tools changed verdict between two evaluations of the same subject."""
    if before is None:
        return ModeChange(frozenset(), 0, 0, 0)
    old = {tool_key(t): t.verdict for t in before.tools}
    changed: set[ToolKey] = set()
    counts = empty_counts()
    for tool in after.tools:
        key = tool_key(tool)
        previous = old.get(key)
        verdict = tool.verdict
        if previous is not None and previous != verdict:
            changed.add(key)
            counts[verdict] += 1
    return ModeChange(frozenset(changed), counts["hidden"], counts["visible"], counts["unknown"])
