"""The pipeline view's rows as sequences of tool indices (no Textual here).

``display_order`` sorts a table's tool indices once; ``RowList`` turns positions into rows
(``ToolVerdict`` or ``GroupRow``), building a verdict only when its row is read. The grid
reads the rows it paints and the one under the cursor.
"""

from __future__ import annotations

from collections.abc import Container, Iterator, Sequence
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


def display_order(table: ToolTable) -> list[int]:
    """Every tool index in display order: rank after rank (registered-but-hidden first, visible
    last), each rank's tools by (namespace, name), ties in universe order (the sort is stable)."""
    keys = list(zip(table.ranks(), table.namespaces, table.names, strict=True))
    return sorted(range(len(keys)), key=keys.__getitem__)


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
    """The rows a query shows: tool indices (with group headings when grouped) turned into
    ``ToolVerdict``s as they are read."""

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
