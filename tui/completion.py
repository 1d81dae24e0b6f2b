"""Fuzzy completion over tool names, fast enough to run on every keystroke for 50,000 names."""

from __future__ import annotations

import re
from collections.abc import Sequence


def complete(query: str, names: Sequence[str], limit: int = 8) -> list[str]:
    """Names that match ``query``: exact, then prefix, then substring, then in-order letters.

    Case-insensitive; ``-`` and ``_`` are treated alike because tool names are normalized
    that way by the systems toolscope models. Within the substring tier a match at the start
    of a word (after ``_``) ranks first, then the earlier match; within the letters tier the
    tighter match (fewer letters between the first and the last) ranks first; then shorter
    names, then alphabetical order.
    """
    needle = _fold(query.strip())
    if not needle:
        return []
    # Letters in order with anything between: "ntfusr" finds "notify_user".
    subsequence = re.compile(".*?".join(re.escape(ch) for ch in needle))
    ranked: list[tuple[int, int, int, str]] = []
    seen: set[str] = set()
    for name in names:
        if name in seen:
            continue
        folded = _fold(name)
        closeness = 0
        if folded == needle:
            tier = 0
        elif folded.startswith(needle):
            tier = 1
        elif (at := folded.find(needle)) >= 0:
            word_start = folded.find("_" + needle) + 1 if folded.find("_" + needle) >= 0 else -1
            tier, closeness = (2, word_start) if word_start > 0 else (3, at)
        elif (found := subsequence.search(folded)) is not None:
            # The tightest span ending anywhere: a regex finds the leftmost, good enough to rank.
            tier, closeness = 4, found.end() - found.start()
        else:
            continue
        seen.add(name)
        ranked.append((tier, closeness, len(name), name))
    ranked.sort()
    return [entry[-1] for entry in ranked[:limit]]


def _fold(text: str) -> str:
    return text.lower().replace("-", "_")
