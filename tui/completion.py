"""Fuzzy completion over tool names, fast enough to run on every keystroke for 50,000 names."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence


def complete(query: str, names: Sequence[str], limit: int = 8) -> list[str]:
    """Names that match ``query``, best first, in tiers as IDE and fzf users expect them:

    0. the exact name;
    1. names that start with the text;
    2. names in which each typed word starts a word, in order (``pulse_st`` finds
       ``get_pulse_module_state``);
    3. names holding the text mid-word (``xpulse_stop``);
    4. names holding the letters in order with anything between (``ntfusr``: ``notify_user``).

    Within a tier the closer name by rapidfuzz's weighted ratio first, then the names' own
    order. Case-insensitive; ``-`` and ``_`` are treated alike because tool names
    are normalized that way by the systems toolscope models.
    """
    needle = _fold(query.strip())
    if not needle:
        return []
    tier_of = _tiering(needle)
    tiers: list[list[tuple[str, str]]] = [[], [], [], [], []]
    seen: set[str] = set()
    for name in names:
        if name in seen:
            continue
        folded = _fold(name)
        tier = tier_of(folded)
        if tier is not None:
            seen.add(name)
            tiers[tier].append((folded, name))
    return _best_first(needle, tiers, limit)


def _tiering(needle: str) -> Callable[[str], int | None]:
    """The tier of a folded name for this folded query (None: no match), patterns compiled once."""
    words = [re.escape(word) for word in needle.split("_") if word]
    starts_words: Callable[[str], object]
    if len(words) == 1 and not needle.startswith("_"):
        # One typed word: a plain substring test does it (the regex costs as much again per name).
        one_word_start = "_" + needle
        starts_words = one_word_start.__contains__
    elif words:
        # Each typed word at the start of a name's word, in order, anything between.
        starts_words = re.compile(r"(?:^|_)" + r".*?_".join(words)).search
    else:
        starts_words = lambda folded: False  # noqa: E731
    # Letters in order with anything between.
    subsequence = re.compile(".*?".join(re.escape(ch) for ch in needle)).search

    def tier_of(folded: str) -> int | None:
        if folded == needle:
            return 0
        if folded.startswith(needle):
            return 1
        if starts_words(folded):
            return 2
        if needle in folded:
            return 3
        return 4 if subsequence(folded) else None

    return tier_of


def _best_first(needle: str, tiers: list[list[tuple[str, str]]], limit: int) -> list[str]:
    """Up to ``limit`` names, tier by tier, each tier's names by their score."""
    from rapidfuzz import fuzz, process

    chosen: list[str] = []
    for bucket in tiers:
        wanted = limit - len(chosen)
        if wanted <= 0:
            break
        if not bucket:
            continue
        # Scored in one rapidfuzz batch, and only the tiers that fill the list: 50,000 names
        # with the same prefix cost one C call, not 50,000 Python ones. Equal scores keep the
        # names' order (the box's names are sorted).
        best = process.extract(needle, [folded for folded, _ in bucket], scorer=fuzz.WRatio, limit=wanted)
        chosen += [bucket[at][1] for _, _, at in best]
    return chosen


def _fold(text: str) -> str:
    return text.lower().replace("-", "_")
