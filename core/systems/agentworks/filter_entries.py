"""A step's ``selected_tools`` and ``selected_servers``, parsed into the lookups mcpagent's
``NewToolFilter`` builds (``agent/tool_filter.go``, reference §1.3).

Go keeps three sets keyed by both the normalized and the raw namespace; the dicts here keep
the same keys and remember the first entry (list order) behind each, so every decision can
name the entry that made it. ``tool_filter`` asks these lookups; it never parses an entry.
"""

from __future__ import annotations

from collections.abc import Sequence

from .filter_decisions import quote_list
from .names import normalize_server_name, normalize_tool_name


class SelectedEntries:
    """The entries of both lists, and where each namespace, tool and server is named."""

    def __init__(self, selected_tools: Sequence[str], selected_servers: Sequence[str]) -> None:
        """Parse both lists once (entries in list order: the first entry behind a key names it)."""
        self.selected_tools: tuple[str, ...] = tuple(selected_tools)
        self.selected_servers: tuple[str, ...] = tuple(selected_servers)
        self.all_tools: dict[str, str] = {}  # serversWithAllTools
        self.specific_ns: dict[str, str] = {}  # serversWithSpecificTools
        self.tool_keys: dict[str, str] = {}  # normalizedToolSet
        self.parsed: list[tuple[str, str, str, bool]] = []
        """(entry, raw namespace, normalized namespace, is wildcard), for explanations."""
        bare: list[str] = []
        for entry in self.selected_tools:
            namespace, sep, tool = entry.partition(":")
            if not sep:
                bare.append(entry)  # selects nothing, but still counts in len(selectedTools)
                continue
            self._add_tool_entry(entry, namespace, tool)
        self.bare_entries: tuple[str, ...] = tuple(bare)
        # selected_servers: normalized and raw forms -> index of the first entry with it
        self._server_norm: dict[str, int] = {}
        self._server_raw: dict[str, int] = {}
        for index, server in enumerate(self.selected_servers):
            self._server_norm.setdefault(normalize_server_name(server), index)
            self._server_raw.setdefault(server, index)
        self._specific_index: dict[str, list[int]] | None = None
        self._servers_text: str | None = None

    def _add_tool_entry(self, entry: str, namespace: str, tool: str) -> None:
        """One ``namespace:tool`` or ``namespace:*`` entry, under its raw and normalized namespace."""
        norm_ns = normalize_server_name(namespace)
        if tool == "*":
            self.all_tools.setdefault(norm_ns, entry)
            self.all_tools.setdefault(namespace, entry)
        else:
            self.specific_ns.setdefault(norm_ns, entry)
            self.specific_ns.setdefault(namespace, entry)
            self.tool_keys.setdefault(norm_ns + ":" + normalize_tool_name(tool), entry)
            self.tool_keys.setdefault(entry, entry)
        self.parsed.append((entry, namespace, norm_ns, tool == "*"))

    def entries_for(self, package: str) -> tuple[str, ...]:
        """Verbatim selected_tools entries (wildcard or specific) that address ``package``.

        An entry addresses a package when its raw or normalized namespace equals the raw or
        normalized package name, the same keys the Go lookup maps use.
        """
        keys = {package, normalize_server_name(package)}
        return tuple(entry for entry, ns, norm_ns, _ in self.parsed if ns in keys or norm_ns in keys)

    def specific_entries_for(self, package: str) -> tuple[str, ...]:
        """The ``namespace:tool`` entries (no wildcards) that address ``package``, in list order."""
        # Indexed once: scanning every entry per package made a 300-server universe
        # with hundreds of entries quadratic.
        index = self._specific_index
        if index is None:
            index = {}
            for position, (_entry, ns, norm_ns, wildcard) in enumerate(self.parsed):
                if not wildcard:
                    for key in {ns, norm_ns}:
                        index.setdefault(key, []).append(position)
            self._specific_index = index
        positions = sorted(set(index.get(package, ())) | set(index.get(normalize_server_name(package), ())))
        return tuple(self.parsed[p][0] for p in positions)

    def selected_server_entry(self, package: str, norm_package: str) -> str | None:
        """First selected_servers entry s with normalize(s) == nP or s == P (Go's loop)."""
        hits = [
            index for index in (self._server_norm.get(norm_package), self._server_raw.get(package)) if index is not None
        ]
        return self.selected_servers[min(hits)] if hits else None

    def quoted_servers(self) -> str:
        """selected_servers as a reason sentence quotes it."""
        # Built once: every package outside selected_servers quotes the same list.
        if self._servers_text is None:
            self._servers_text = quote_list(self.selected_servers)
        return self._servers_text
