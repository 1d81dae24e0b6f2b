"""Fuzzy completion over tool names, fast enough to run on every keystroke for 50,000 names."""

from __future__ import annotations

import re
from collections.abc import Sequence


def complete(query: str, names: Sequence[str], limit: int = 8) -> list[str]:
    """Names that match ``query``: exact, then prefix, then substring, then in-order letters.

    Case-insensitive; ``-`` and ``_`` are treated alike because tool names are normalized
    that way by the systems toolscope models. Shorter names rank first within a tier.
    """
    needle = _fold(query.strip())
    if not needle:
        return []
    # Letters in order with anything between: "ntfusr" finds "notify_user".
    subsequence = re.compile(".*?".join(re.escape(ch) for ch in needle))
    ranked: list[tuple[int, int, str]] = []
    seen: set[str] = set()
    for name in names:
        if name in seen:
            continue
        folded = _fold(name)
        if folded == needle:
            tier = 0
        elif folded.startswith(needle):
            tier = 1
        elif needle in folded:
            tier = 2
        elif subsequence.search(folded):
            tier = 3
        else:
            continue
        seen.add(name)
        ranked.append((tier, len(name), name))
    ranked.sort()
    return [name for _tier, _length, name in ranked[:limit]]


def _fold(text: str) -> str:
    return text.lower().replace("-", "_")
