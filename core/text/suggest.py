""" "Did you mean": candidates for a name that is not known, on rapidfuzz.

The one fuzzy matcher of toolscope. Two measures, both rapidfuzz's: the Levenshtein
distance (typos in tool names: a letter dropped, added or changed), and the similarity
ratio ``2·M / T`` over the longest common subsequence (``fuzz.ratio``; small vocabularies such
as modes, and typos that both add and drop letters). rapidfuzz compares one name with
50,000 in a few milliseconds, so ``explain`` of an unknown name costs about what a known one
does (``benchmarks/cli_bench.py --only explain`` prints the ratio).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence


def edit_distance(a: str, b: str, limit: int | None = None) -> int:
    """Levenshtein distance; once it exceeds ``limit``, ``limit + 1``."""
    from rapidfuzz.distance import Levenshtein

    return Levenshtein.distance(a, b, score_cutoff=limit)


def _most_similar(name: str, candidates: list[str], n: int, cutoff: float) -> list[str]:
    """The ``n`` candidates with the highest ratio (at least ``cutoff``, 0 to 1), best first;
    among equals the later in alphabetical order first (the order difflib gave, kept)."""
    from rapidfuzz import fuzz, process

    found = process.extract(name, candidates, scorer=fuzz.ratio, score_cutoff=cutoff * 100, limit=None)
    found.sort(key=lambda match: (match[1], match[0]), reverse=True)
    return [match[0] for match in found[:n]]


def did_you_mean(
    name: str,
    candidates: Iterable[str],
    normalize: Callable[[str], str] = str.lower,
    limit: int = 5,
    normalize_all: Callable[[list[str]], Sequence[str]] | None = None,
) -> tuple[str, ...]:
    """Names with the same normalized form first, then small edit distances, then substrings,
    then (when fewer than ``limit``) the most similar by ratio. ``normalize_all``: ``normalize``
    of a whole list at once, when there is a faster way (a 50,000-tool universe)."""
    wanted = normalize(name)
    unique = set(candidates)
    unique.discard(name)
    names = sorted(unique)  # the order every tie below falls back on
    forms = list(normalize_all(names) if normalize_all else map(normalize, names))
    found = _near_names(wanted, names, forms)[:limit]
    if len(found) < limit and len(wanted) >= 4:
        taken = set(found)
        found += [n for n in _similar_names(wanted, names, forms) if n not in taken][: limit - len(found)]
    return tuple(found[:limit])


def _near_names(wanted: str, names: list[str], forms: list[str]) -> list[str]:
    """Names whose form is ``wanted`` or a few edits from it, closest first, then (for 4
    letters or more) forms containing it or contained in it."""
    from rapidfuzz import process
    from rapidfuzz.distance import Levenshtein

    max_distance = max(1, min(3, len(wanted) // 4))
    # (score, name): 0 for the same form, else the edit distance, then substrings after those.
    near = process.extract(wanted, forms, scorer=Levenshtein.distance, score_cutoff=max_distance, limit=None)
    scored = [(int(distance), names[index]) for _, distance, index in near]
    if len(wanted) >= 4:
        close = {index for _, _, index in near}
        scored += [
            (max_distance + 1, names[index])
            for index, form in enumerate(forms)
            if (wanted in form or form in wanted) and index not in close
        ]
    scored.sort()
    return [candidate for _, candidate in scored]


def _similar_names(wanted: str, names: list[str], forms: list[str]) -> list[str]:
    """The last resort, for typos that both add and drop letters ("notfyx" → notify_user):
    names by the similarity ratio of their form, best first."""
    from rapidfuzz import fuzz, process

    similar = process.extract(wanted, forms, scorer=fuzz.ratio, score_cutoff=55, limit=None)
    # Best ratio first; among equals the later form first (the order difflib gave, kept),
    # a form's names in alphabetical order (names is sorted, sort is stable).
    similar.sort(key=lambda match: (match[1], match[0]), reverse=True)
    return [names[index] for _, _, index in similar]


def close_matches(name: str, candidates: Iterable[str], n: int, cutoff: float = 0.6) -> tuple[str, ...]:
    """The ``n`` candidates most similar to ``name`` (ratio >= ``cutoff``), best first.

    For small, fixed vocabularies (modes, group names, attributes) where the plain similarity
    ratio reads well; ``did_you_mean`` is the one for large tool universes.
    """
    # The ratio can never exceed 2·min(len)/(sum of len): a candidate too short or too long for
    # the cutoff is left out before rapidfuzz sees it (a 50 MB "group name" from a recorded
    # session made rapidfuzz allocate gigabytes to score it against five-letter names).
    size = len(name)
    possible = [c for c in candidates if size + len(c) and 2 * min(size, len(c)) >= cutoff * (size + len(c))]
    return tuple(_most_similar(name, possible, n, cutoff)) if possible else ()
