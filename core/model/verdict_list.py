"""Every tool's verdict of an evaluation, stored compactly: each distinct row of stages once, and
a row number per tool.

A 50,000-tool universe has a few hundred distinct rows, so counting, bucketing by verdict and
writing JSON work once per row and then by index; a ``ToolVerdict`` is built only when one is
asked for (a screen shows a few dozen).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from typing import overload

from .enums import Verdict
from .tool_verdict import Stage, ToolLabels, ToolVerdict, empty_counts, row_verdict


class VerdictList(Sequence[ToolVerdict]):
    """Every tool's verdict as distinct rows of stages and a row number per tool.

    The engine decides every stage of every tool up front, and tools decided by the same
    rules have the same row: a 50,000-tool universe has a few hundred distinct rows.
    ``rows`` holds each distinct row once, ``row_of[i]`` is tool ``i``'s row, so counting,
    bucketing by verdict and writing JSON work once per row and then by index. A
    ``ToolVerdict`` is built only when one is asked for (a screen shows a few dozen).
    """

    __slots__ = ("_entries", "rows", "row_of", "_built", "_row_verdicts", "_counts")

    def __init__(self, entries: Sequence[ToolLabels], rows: Sequence[tuple[Stage, ...]], row_of: Sequence[int]) -> None:
        if len(entries) != len(row_of):
            raise ValueError(f"{len(entries)} tools but {len(row_of)} row numbers")
        self._entries = entries
        self.rows: Sequence[tuple[Stage, ...]] = rows
        """Each distinct row of stages once, in order of first use."""
        self.row_of: Sequence[int] = row_of
        """Tool index → its row's index in ``rows``."""
        self._built: list[ToolVerdict | None] = [None] * len(row_of)
        self._row_verdicts: list[Verdict] | None = None
        self._counts: dict[str, int] | None = None

    @classmethod
    def of(cls, verdicts: Sequence[ToolVerdict]) -> VerdictList:
        """The rows of already built verdicts (e.g. an AgentScope toolkit's): equal rows numbered once."""
        if isinstance(verdicts, VerdictList):
            return verdicts
        numbers: dict[tuple[Stage, ...], int] = {}
        row_of = [numbers.setdefault(v.stages, len(numbers)) for v in verdicts]
        made = cls(verdicts, list(numbers), row_of)
        made._built = list(verdicts)
        return made

    def __len__(self) -> int:
        return len(self.row_of)

    @property
    def entries(self) -> Sequence[ToolLabels]:
        """The tools without their stages, in order (the universe's tools)."""
        return self._entries

    def _build(self, index: int) -> ToolVerdict:
        verdict = self._built[index]
        if verdict is None:
            entry = self._entries[index]
            stages = self.rows[self.row_of[index]]
            verdict = ToolVerdict(entry.name, entry.namespace, entry.kind, stages, entry.description)
            self._built[index] = verdict
        return verdict

    @overload
    def __getitem__(self, index: int) -> ToolVerdict: ...
    @overload
    def __getitem__(self, index: slice) -> list[ToolVerdict]: ...
    def __getitem__(self, index: int | slice) -> ToolVerdict | list[ToolVerdict]:
        if isinstance(index, slice):
            return [self._build(i) for i in range(*index.indices(len(self.row_of)))]
        if index < 0:
            index += len(self.row_of)
        if not 0 <= index < len(self.row_of):
            raise IndexError(index)
        return self._build(index)

    def __iter__(self) -> Iterator[ToolVerdict]:
        for index in range(len(self.row_of)):
            yield self._build(index)

    def row_verdicts(self) -> list[Verdict]:
        """Each distinct row's verdict, by row index (decided once)."""
        if self._row_verdicts is None:
            self._row_verdicts = [row_verdict(row) for row in self.rows]
        return self._row_verdicts

    def verdict_counts(self) -> dict[str, int]:
        """visible / hidden / unknown counts without building ToolVerdicts (one look per distinct row)."""
        if self._counts is None:
            verdicts = self.row_verdicts()
            counts = empty_counts()
            for row, count in Counter(self.row_of).items():
                counts[verdicts[row]] += count
            self._counts = counts
        return dict(self._counts)

    def order_by_verdict(self) -> list[int]:
        """Tool indexes: hidden, then unknown, then visible, each in the tools' own order (stable)."""
        rank = {Verdict.HIDDEN: 0, Verdict.UNKNOWN: 1, Verdict.VISIBLE: 2}
        row_rank = [rank[v] for v in self.row_verdicts()]
        tool_rank = [row_rank[row] for row in self.row_of]
        return sorted(range(len(tool_rank)), key=tool_rank.__getitem__)
