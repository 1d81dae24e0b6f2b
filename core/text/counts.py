"""A count and its noun, in the singular when it is one: ``1 request``, ``2,000 requests``.

"1 request(s)" and "1 calls" read as a program's, not a person's; every message that counts
something says it through here.
"""

from __future__ import annotations


def counted(count: int, noun: str, plural: str | None = None) -> str:
    """``count`` with thousands separators and ``noun`` (``plural``, default ``noun + "s"``, unless it is 1)."""
    return f"{count:,} {noun if count == 1 else plural or noun + 's'}"


def counted_phrase(count: int, phrase: str) -> str:
    """``count`` and a phrase whose first ``(s)`` marks the noun that agrees with it:
    ``counted_phrase(1, "span(s) without a traceId")`` is ``1 span without a traceId``, 2 gives ``2 spans …``.
    For tallies keyed by their phrase (what a trace reader skipped, and why)."""
    return f"{count:,} " + phrase.replace("(s)", "" if count == 1 else "s", 1)
