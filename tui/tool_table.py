"""One evaluation's tools as columns, for the pipeline view (no Textual here).

The view shows a screenful of a universe that may hold 50,000 tools. It orders, filters,
groups, counts and compares tools on these columns (names, namespaces, and per tool the
stage row that decided it), and builds a ``ToolVerdict`` only for a tool it paints or
selects. What the view derives from a tool's stages (verdict, sort rank, the deciding
stage's title) is decided once per stage row: tools decided by the same rules share one.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..core.model.attention import Attention, attention
from ..core.model.enums import Verdict
from ..core.model.verdicts import Evaluation, Stage, ToolVerdict, VerdictList, first_failing
from ..core.systems.registry import STAGE_TITLES

ToolKey = tuple[str, str]
"""(namespace, name): a tool's identity across evaluations of the same subject."""

RANKS = len(Attention)
"""Sort ranks (``core.model.attention.Attention``): 0 registered-but-blocked with a fix (``!``),
1 not registered, 2 unknown, 3 hidden by design (``·``), 4 visible."""
VISIBLE_RANK = int(Attention.NONE)


def stage_facts(stages: Sequence[Stage]) -> tuple[int, Verdict, str]:
    """(sort rank, verdict, title of the deciding stage or ``""``) of one stage row.

    The rank puts the real problems first (the notify_user case: the tool exists yet a later
    gate hides it, and a config change fixes it), then tools that are not registered, unknown,
    hidden by design (an inactive group, a virtual tool code-execution mode leaves out), visible.
    """
    failing = first_failing(stages)
    if failing is None:
        return VISIBLE_RANK, Verdict.VISIBLE, ""
    decided = STAGE_TITLES.get(failing.name, failing.name)
    verdict = Verdict.UNKNOWN if failing.passed is None else Verdict.HIDDEN
    return int(attention(stages)), verdict, decided


class ToolTable:
    """One evaluation's tools as columns; ``tool(i)`` builds the verdict of tool ``i`` when asked."""

    def __init__(self, evaluation: Evaluation) -> None:
        tools = VerdictList.of(evaluation.tools)
        self.tools: Sequence[ToolVerdict] = tools
        self._universe = tools.entries
        self.row_of: Sequence[int] = tools.row_of
        """Tool index → its stage row (see ``VerdictList``)."""
        self.names: list[str] = [entry.name for entry in tools.entries]
        self.namespaces: list[str] = [entry.namespace for entry in tools.entries]
        facts = [stage_facts(row) for row in tools.rows]
        self.row_rank: list[int] = [fact[0] for fact in facts]
        self.row_verdict: list[Verdict] = [fact[1] for fact in facts]
        self.row_decided: list[str] = [fact[2] for fact in facts]
        self._ranks: list[int] | None = None
        self._sort_keys: list[ToolKey] | None = None
        self._lower_names: list[str] | None = None
        self._namespace_ids: tuple[list[str], list[int]] | None = None
        self._keyed: tuple[frozenset[ToolKey], frozenset[int]] | None = None

    def __len__(self) -> int:
        return len(self.row_of)

    def tool(self, index: int) -> ToolVerdict:
        """The verdict of tool ``index`` (built now if nobody asked for it before)."""
        return self.tools[index]

    def key(self, index: int) -> ToolKey:
        """(namespace, name) of tool ``index``."""
        return (self.namespaces[index], self.names[index])

    def rank(self, index: int) -> int:
        """Sort rank of tool ``index`` (see ``RANKS``)."""
        return self.row_rank[self.row_of[index]]

    def same_universe(self, other: ToolTable) -> bool:
        """Both evaluate the same tools in the same order (two modes of one step config)."""
        return self._universe is other._universe

    def ranks(self) -> list[int]:
        """Every tool's sort rank, in universe order."""
        if self._ranks is None:
            self._ranks = list(map(self.row_rank.__getitem__, self.row_of))
        return self._ranks

    def verdicts(self) -> list[Verdict]:
        """Every tool's verdict, in universe order."""
        return list(map(self.row_verdict.__getitem__, self.row_of))

    def sort_keys(self) -> list[ToolKey]:
        """(namespace, name) per tool: the order within one rank."""
        if self._sort_keys is None:
            self._sort_keys = list(zip(self.namespaces, self.names, strict=True))
        return self._sort_keys

    def lower_names(self) -> list[str]:
        """Lower-cased names, for the filter (built on its first keystroke)."""
        if self._lower_names is None:
            self._lower_names = [name.lower() for name in self.names]
        return self._lower_names

    def namespace_ids(self) -> tuple[list[str], list[int]]:
        """The distinct namespaces lower-cased, and per tool the index of its namespace."""
        if self._namespace_ids is None:
            ids: dict[str, int] = {}
            per_tool = [ids.setdefault(namespace, len(ids)) for namespace in self.namespaces]
            self._namespace_ids = ([namespace.lower() for namespace in ids], per_tool)
        return self._namespace_ids

    def search_text(self, index: int) -> str:
        """What the filter searches for one tool, lower-cased: the columns as shown, plus the
        config's own ``namespace:name`` spelling. NUL separators keep a term from matching
        across the end of one field."""
        row = self.row_of[index]
        name, namespace = self.names[index], self.namespaces[index]
        return f"{name}\0{namespace}\0{namespace}:{name}\0{self.row_verdict[row]}\0{self.row_decided[row]}".lower()

    def indices_of(self, keys: frozenset[ToolKey]) -> frozenset[int]:
        """The tools with these keys (the answer for the last set is kept: the Δ keys ask again)."""
        if not keys:
            return frozenset()
        if self._keyed is None or self._keyed[0] != keys:
            found = frozenset(i for i, key in enumerate(self.sort_keys()) if key in keys)
            self._keyed = (keys, found)
        return self._keyed[1]

    def matching_key(self, key: ToolKey) -> list[int]:
        """Indices of the tools with this (namespace, name), in universe order."""
        namespace, name = key
        names, namespaces = self.names, self.namespaces
        found: list[int] = []
        start = 0
        while True:
            try:
                index = names.index(name, start)
            except ValueError:
                return found
            if namespaces[index] == namespace:
                found.append(index)
            start = index + 1
