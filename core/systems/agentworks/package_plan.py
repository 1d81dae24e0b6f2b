"""How ``ShouldIncludeTool`` decides the tools of one package (``ToolFilter.package_plan``).

Most packages are decided whole (steps 2-4, 6, 7 of reference §1.4 never look at the tool
name); a package with specific ``selected_tools`` entries (step 5) is decided tool by tool,
by looking the tool up among those entries. A plan says which, and numbers the outcomes so
that a caller deciding a run of 50,000 tools can key its caches by small integers.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .filter_decisions import FilterDecision

__all__ = ["PackagePlan"]


class PackagePlan:
    """How ``ShouldIncludeTool`` decides the tools of one package.

    ``uniform`` is the one decision every tool of the package gets (steps 2-4, 6, 7); it is
    None when the package has specific ``selected_tools`` entries (step 5) and each tool is
    looked up. Either way ``decisions`` numbers the distinct outcomes seen so far (the miss
    first, then a match per entry, in order of first use), so a caller deciding a run of
    tools can key its own caches by small integers (``decide_numbers``).
    """

    __slots__ = ("uniform", "decisions", "_norm_prefix", "_raw_prefix", "_tool_keys", "_match", "_numbers")

    def __init__(
        self,
        uniform: FilterDecision | None,
        *,
        miss: FilterDecision | None = None,
        norm_prefix: str = "",
        raw_prefix: str = "",
        tool_keys: dict[str, str] | None = None,
        match: Callable[[str], FilterDecision] | None = None,
    ) -> None:
        self.uniform = uniform
        first = uniform if uniform is not None else miss
        assert first is not None, "a plan needs a uniform decision or a miss"
        self.decisions: list[FilterDecision] = [first]
        """Distinct outcomes in order of first use; number 0 is the uniform decision or the miss."""
        self._norm_prefix = norm_prefix
        self._raw_prefix = raw_prefix
        self._tool_keys = tool_keys or {}
        self._match = match
        self._numbers: dict[str, int] = {}  # deciding entry -> its number in ``decisions``

    def decide(self, tool: str, normalized_tool: str) -> FilterDecision:
        """The decision for one tool of the package (``normalized_tool`` = ``normalize_tool_name(tool)``)."""
        if self.uniform is not None:
            return self.uniform
        return self.decisions[self._number(tool, normalized_tool)]

    def decide_numbers(self, tools: Sequence[str], normalized_tools: Sequence[str]) -> list[int]:
        """Each tool's decision as its number in ``decisions`` (hot path: a run of tools of this package)."""
        if self.uniform is not None:
            return [0] * len(tools)
        norm_prefix, raw_prefix, tool_keys = self._norm_prefix, self._raw_prefix, self._tool_keys
        return [
            self._number(tool, normalized_tool)
            if norm_prefix + normalized_tool in tool_keys or raw_prefix + tool in tool_keys
            else 0
            for tool, normalized_tool in zip(tools, normalized_tools, strict=True)
        ]

    def _number(self, tool: str, normalized_tool: str) -> int:
        entry = self._tool_keys.get(self._norm_prefix + normalized_tool)
        if entry is None:
            # Go's "original format" check; §10.4: never decides on its own in practice.
            entry = self._tool_keys.get(self._raw_prefix + tool)
            if entry is None:
                return 0
        number = self._numbers.get(entry)
        if number is None:
            assert self._match is not None
            number = self._numbers[entry] = len(self.decisions)
            self.decisions.append(self._match(entry))
        return number
