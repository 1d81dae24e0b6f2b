""" "Did you mean": candidates for a name that is not in the universe."""

from __future__ import annotations

from collections.abc import Callable, Iterable


def edit_distance(a: str, b: str, limit: int) -> int:
    """Levenshtein distance, giving up (returning limit + 1) once it exceeds ``limit``."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    previous = list(range(len(b) + 1))
    for i, char_a in enumerate(a, 1):
        current = [i]
        best = i
        for j, char_b in enumerate(b, 1):
            value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (char_a != char_b))
            current.append(value)
            best = min(best, value)
        if best > limit:
            return limit + 1
        previous = current
    return previous[-1]


def did_you_mean(
    name: str,
    candidates: Iterable[str],
    normalize: Callable[[str], str] = str.lower,
    limit: int = 5,
) -> tuple[str, ...]:
    """Names with the same normalized form first, then small edit distances, then substrings."""
    wanted = normalize(name)
    max_distance = max(1, min(3, len(wanted) // 4))
    scored: list[tuple[int, str]] = []
    for candidate in set(candidates):
        if candidate == name:
            continue
        form = normalize(candidate)
        if form == wanted:
            scored.append((0, candidate))
            continue
        distance = edit_distance(wanted, form, max_distance)
        if distance <= max_distance:
            scored.append((distance, candidate))
        elif len(wanted) >= 4 and (wanted in form or form in wanted):
            scored.append((max_distance + 1, candidate))
    scored.sort()
    found = [candidate for _, candidate in scored[:limit]]
    if len(found) < limit and len(wanted) >= 4:
        # Last resort for typos that both add and drop letters ("notfyx" → notify_user).
        import difflib

        forms: dict[str, list[str]] = {}
        for candidate in set(candidates):
            if candidate != name and candidate not in found:
                forms.setdefault(normalize(candidate), []).append(candidate)
        for form in difflib.get_close_matches(wanted, list(forms), n=limit - len(found), cutoff=0.55):
            found.extend(sorted(forms[form]))
    return tuple(found[:limit])


def close_matches(name: str, candidates: Iterable[str], n: int, cutoff: float = 0.6) -> tuple[str, ...]:
    """The ``n`` candidates most similar to ``name`` (difflib's ratio >= ``cutoff``), best first.

    For small, fixed vocabularies (modes, group names, attributes) where the plain similarity
    ratio reads well; ``did_you_mean`` is the one for large tool universes.
    """
    import difflib

    return tuple(difflib.get_close_matches(name, list(candidates), n=n, cutoff=cutoff))
