"""Lazy sequences of the pipeline view's rows (no Textual here).

``ToolOrder`` holds tool indices in display order without sorting what nobody looks at;
``RowList`` turns positions into rows (``ToolVerdict`` or ``GroupRow``), building a verdict
only when its row is read. The grid reads the rows it paints and the one under the cursor.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Container, Iterator, Sequence
from dataclasses import dataclass
from typing import overload

from ..core.model.verdicts import ToolVerdict
from .tool_table import ToolKey, ToolTable


@dataclass(frozen=True, slots=True)
class GroupRow:
    """A namespace heading when rows are grouped."""

    namespace: str
    total: int
    hidden: int


Row = ToolVerdict | GroupRow


class _RankPart:
    """The tools of one rank: found when first needed, sorted when first read in order."""

    __slots__ = ("table", "rank", "size", "_members", "_sorted")

    def __init__(self, table: ToolTable, rank: int, size: int, members: list[int] | None, ordered: bool) -> None:
        self.table = table
        self.rank = rank
        self.size = size
        self._members = members
        self._sorted = ordered

    @property
    def members(self) -> list[int]:
        """The tools, sorted or not yet (filtering keeps either order)."""
        if self._members is None:
            self._members = self.table.rank_members(self.rank)
        return self._members

    @property
    def is_sorted(self) -> bool:
        """Whether ``members`` is in display order already."""
        return self._sorted

    def ordered(self) -> list[int]:
        """The tools in display order (sorted now if they were not)."""
        members = self.members
        if not self._sorted:
            # A stable sort of indices in universe order: ties keep the universe's order.
            namespaces, names = self.table.namespaces, self.table.names
            members.sort(key=lambda i: (namespaces[i], names[i]))
            self._sorted = True
        return members


class ToolOrder(Sequence[int]):
    """Tool indices in display order: rank after rank (registered-but-hidden first, visible
    last), each rank's tools by (namespace, name), ties in universe order.

    A rank's tools are found when first needed and sorted when a position inside the rank is
    first read: the first screen of a 50,000-tool universe looks only at the ranks it shows.
    Filtering keeps each rank's order (sorted or not).
    """

    __slots__ = ("_parts", "_starts")

    def __init__(self, parts: list[_RankPart]) -> None:
        self._parts = [part for part in parts if part.size]
        starts = [0]
        for part in self._parts:
            starts.append(starts[-1] + part.size)
        self._starts = starts

    @classmethod
    def of(cls, table: ToolTable) -> ToolOrder:
        """Every tool of ``table``."""
        return cls([_RankPart(table, rank, size, None, False) for rank, size in enumerate(table.rank_sizes())])

    def __len__(self) -> int:
        return self._starts[-1]

    @overload
    def __getitem__(self, position: int) -> int: ...

    @overload
    def __getitem__(self, position: slice) -> list[int]: ...

    def __getitem__(self, position: int | slice) -> int | list[int]:
        if isinstance(position, slice):
            return [self[p] for p in range(*position.indices(len(self)))]
        if position < 0:
            position += len(self)
        if not 0 <= position < len(self):
            raise IndexError(position)
        k = bisect.bisect_right(self._starts, position) - 1
        return self._parts[k].ordered()[position - self._starts[k]]

    def __iter__(self) -> Iterator[int]:
        for part in self._parts:
            yield from part.ordered()

    def rank_part(self, rank: int) -> ToolOrder:
        """Only the tools of one rank."""
        return ToolOrder([part for part in self._parts if part.rank == rank])

    def without_rank(self, rank: int) -> ToolOrder:
        """Every tool except those of one rank."""
        return ToolOrder([part for part in self._parts if part.rank != rank])

    def filtered(self, keep: Callable[[list[int]], list[int]]) -> ToolOrder:
        """The tools ``keep`` keeps of each rank (``keep`` preserves the order it is given)."""
        parts = []
        for part in self._parts:
            kept = keep(part.members)
            parts.append(_RankPart(part.table, part.rank, len(kept), kept, part.is_sorted))
        return ToolOrder(parts)

    def position_of(self, index: int) -> int | None:
        """Where tool ``index`` is, or None when it is not in this order."""
        for k, part in enumerate(self._parts):
            if part.rank == part.table.rank(index):
                try:
                    return self._starts[k] + part.ordered().index(index)
                except ValueError:
                    return None
        return None


class ToolsAt(Sequence[ToolVerdict]):
    """The tools at these indices of a table, each built when read."""

    __slots__ = ("_table", "_indices")

    def __init__(self, table: ToolTable, indices: Sequence[int]) -> None:
        self._table = table
        self._indices = indices

    def __len__(self) -> int:
        return len(self._indices)

    @overload
    def __getitem__(self, position: int) -> ToolVerdict: ...

    @overload
    def __getitem__(self, position: slice) -> list[ToolVerdict]: ...

    def __getitem__(self, position: int | slice) -> ToolVerdict | list[ToolVerdict]:
        if isinstance(position, slice):
            return [self._table.tool(self._indices[p]) for p in range(*position.indices(len(self)))]
        return self._table.tool(self._indices[position])


class RowList(Sequence[Row]):
    """The rows a query shows: tool indices (``ToolOrder``, or a list with group headings)
    turned into ``ToolVerdict``s as they are read."""

    __slots__ = ("table", "_items", "tool_count")

    def __init__(self, table: ToolTable | None, items: Sequence[int | GroupRow], tool_count: int) -> None:
        self.table = table
        self._items = items
        self.tool_count = tool_count
        """How many of the rows are tools (the rest are headings)."""

    @classmethod
    def empty(cls) -> RowList:
        """No rows (before the first evaluation)."""
        return cls(None, [], 0)

    def __len__(self) -> int:
        return len(self._items)

    def _row(self, item: int | GroupRow) -> Row:
        if isinstance(item, GroupRow):
            return item
        assert self.table is not None
        return self.table.tool(item)

    @overload
    def __getitem__(self, position: int) -> Row: ...

    @overload
    def __getitem__(self, position: slice) -> list[Row]: ...

    def __getitem__(self, position: int | slice) -> Row | list[Row]:
        if isinstance(position, slice):
            return [self._row(self._items[p]) for p in range(*position.indices(len(self)))]
        return self._row(self._items[position])

    def __iter__(self) -> Iterator[Row]:
        for item in self._items:
            yield self._row(item)

    def tool_index(self, position: int) -> int | None:
        """The table index of the tool at ``position``; None for a heading or out of range."""
        if not 0 <= position < len(self._items):
            return None
        item = self._items[position]
        return None if isinstance(item, GroupRow) else item

    def is_tool(self, position: int) -> bool:
        """Whether the row at ``position`` is a tool (not a heading)."""
        return not isinstance(self._items[position], GroupRow)

    def tools(self) -> list[ToolVerdict]:
        """Every tool shown, in display order (builds them all: for exports)."""
        return [row for row in self if isinstance(row, ToolVerdict)]

    def position_of(self, index: int) -> int | None:
        """Where tool ``index`` of this list's table is shown, or None."""
        if isinstance(self._items, ToolOrder):
            return self._items.position_of(index)
        try:
            return self._items.index(index)
        except ValueError:
            return None

    def position_of_key(self, key: ToolKey) -> int | None:
        """Where the first shown tool with this (namespace, name) is, or None."""
        if self.table is None:
            return None
        positions = [p for p in map(self.position_of, self.table.matching_key(key)) if p is not None]
        return min(positions, default=None)

    def positions_of(self, indices: Container[int]) -> list[int]:
        """Positions of the tools in ``indices``, in display order."""
        return [p for p, item in enumerate(self._items) if not isinstance(item, GroupRow) and item in indices]
