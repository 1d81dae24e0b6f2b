"""The pipeline view's rows: ordering, filtering and grouping of verdicts (no Textual here).

Kept apart from the widget so it can be tested and benchmarked on its own. A universe may
hold 50,000 tools and the view shows a screenful: rows are tool indices into a
``ToolTable`` (columns of one evaluation), sorted once per evaluation, and a
``ToolVerdict`` is built only for a row that is painted or selected. A filter keystroke on
50,000 tools stays well under 100 ms: a term is looked for in the lower-cased names (built on
the first keystroke), and once per namespace and per stage row for the other columns.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass

from ..core.model.attention import Attention
from ..core.model.counts import count_of
from ..core.model.verdicts import Evaluation, ToolVerdict, empty_counts
from .row_list import GroupRow, Row, RowList, ToolsAt, display_order
from .tool_table import VISIBLE_RANK, ToolKey, ToolTable, stage_facts

__all__ = [
    "GroupRow",
    "ModeChange",
    "PreviousVerdicts",
    "Row",
    "RowIndex",
    "RowList",
    "RowQuery",
    "ToolKey",
    "compare",
    "count_of",
    "is_hidden_by_design",
    "is_registered_but_hidden",
    "priority",
    "tool_key",
]


def tool_key(tool: ToolVerdict) -> ToolKey:
    """The identity used to match a tool between two modes."""
    return (tool.namespace, tool.name)


def is_registered_but_hidden(tool: ToolVerdict) -> bool:
    """The notify_user case: the tool exists (registered), a later gate hides it, and there is a fix."""
    return stage_facts(tool.stages)[0] == Attention.ALERT


def is_hidden_by_design(tool: ToolVerdict) -> bool:
    """Registered and hidden by a later gate on purpose (an inactive group, a virtual tool left out)."""
    return stage_facts(tool.stages)[0] == Attention.BY_DESIGN


def priority(tool: ToolVerdict) -> int:
    """Sort rank: the real problems first, then not registered, unknown, hidden by design, visible."""
    return stage_facts(tool.stages)[0]


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


class RowIndex:
    """One evaluation's tools in display order, selected by query without building verdicts."""

    def __init__(self, evaluation: Evaluation, changed: frozenset[ToolKey] = frozenset()) -> None:
        self.table = ToolTable(evaluation)
        self.changed = changed
        self._all = display_order(self.table)
        # (lower-cased text, only_hidden, only_changed, tools) of the previous query.
        self._last: tuple[str, bool, bool, list[int]] = ("", False, False, self._all)

    def select(self, query: RowQuery) -> RowList:
        """The rows to show for this query, group headings included."""
        picked = self._matching(query.text, query.only_hidden, query.only_changed)
        if query.grouped:
            items = _grouped(self.table, picked)
            return RowList(self.table, items, len(items) - sum(isinstance(item, GroupRow) for item in items))
        return RowList(self.table, picked, len(picked))

    def alerts(self) -> ToolsAt:
        """The registered-but-blocked tools that have a fix (``!``), in display order."""
        ranks = self.table.ranks()
        return ToolsAt(self.table, [i for i in self._all if ranks[i] == Attention.ALERT])

    def _matching(self, text: str, only_hidden: bool, only_changed: bool) -> list[int]:
        """The tools matching; narrows the previous answer while the user types."""
        terms = text.lower().split()
        last_text, last_hidden, last_changed, last_tools = self._last
        if (only_hidden, only_changed) == (last_hidden, last_changed) and text.lower().startswith(last_text):
            # Typing on: every old term is part of a new term, so matches can only shrink.
            tools = last_tools
        else:
            tools = self._all
            if only_hidden:
                ranks = self.table.ranks()
                tools = [i for i in tools if ranks[i] != VISIBLE_RANK]
            if only_changed:
                changed = self.table.indices_of(self.changed)
                tools = [i for i in tools if i in changed]
        for term in terms:
            tools = self._term_filter(term)(tools)
        self._last = (text.lower(), only_hidden, only_changed, tools)
        return tools

    def _term_filter(self, term: str) -> Callable[[list[int]], list[int]]:
        """Keeps the tools whose search text (``ToolTable.search_text``) contains ``term``."""
        table = self.table
        if ":" in term or "\0" in term:
            # Only these can match across fields (``namespace:name``): the whole text per tool.
            text = table.search_text
            return lambda tools: [i for i in tools if term in text(i)]
        # Otherwise a match lies inside one field: the name, or the namespace and the
        # verdict / deciding stage, which are looked at once per namespace and per stage row.
        names = table.lower_names()
        namespaces, namespace_of = table.namespace_ids()
        in_namespace = [term in namespace for namespace in namespaces]
        in_row = [
            term in verdict or term in decided.lower()
            for verdict, decided in zip(table.row_verdict, table.row_decided, strict=True)
        ]
        row_of = table.row_of
        return lambda tools: [
            i for i in tools if term in names[i] or in_namespace[namespace_of[i]] or in_row[row_of[i]]
        ]


def _grouped(table: ToolTable, tools: Iterable[int]) -> list[int | GroupRow]:
    """Tools under one heading per namespace; namespaces with hidden tools first."""
    namespaces = table.namespaces
    by_namespace: dict[str, list[int]] = {}
    for index in tools:
        by_namespace.setdefault(namespaces[index], []).append(index)
    # Members come in display order: a namespace's first member has its best rank.
    ranks = table.ranks()

    def rank(namespace: str) -> tuple[int, str]:
        return (ranks[by_namespace[namespace][0]], namespace)

    rows: list[int | GroupRow] = []
    for namespace in sorted(by_namespace, key=rank):
        members = by_namespace[namespace]
        hidden = sum(1 for index in members if ranks[index] != VISIBLE_RANK)
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
    old, new = ToolTable(before), ToolTable(after)
    verdicts = new.verdicts()
    if old.same_universe(new):
        # Two modes of one step config: the same tools in the same order.
        moved = [i for i, (was, now) in enumerate(zip(old.verdicts(), verdicts, strict=True)) if was != now]
    else:
        previous = dict(zip(old.sort_keys(), old.verdicts(), strict=True))
        keys = new.sort_keys()
        moved = [
            i for i, verdict in enumerate(verdicts) if (was := previous.get(keys[i])) is not None and was != verdict
        ]
    counts = empty_counts()
    for index in moved:
        counts[verdicts[index]] += 1
    changed = frozenset(new.key(index) for index in moved)
    return ModeChange(changed, counts["hidden"], counts["visible"], counts["unknown"])


class PreviousVerdicts(Mapping[ToolKey, str]):
    """Each tool's verdict before the last change, looked up by (namespace, name) when asked
    (the trace pane asks for one tool, an export for the rows it writes)."""

    def __init__(self, evaluation: Evaluation) -> None:
        self._table = ToolTable(evaluation)
        self._verdicts: dict[ToolKey, str] | None = None

    def _lookup(self) -> dict[ToolKey, str]:
        if self._verdicts is None:
            self._verdicts = dict(zip(self._table.sort_keys(), self._table.verdicts(), strict=True))
        return self._verdicts

    def __getitem__(self, key: ToolKey) -> str:
        return self._lookup()[key]

    def __iter__(self) -> Iterator[ToolKey]:
        return iter(self._lookup())

    def __len__(self) -> int:
        return len(self._lookup())
