"""Counts read as a person writes them: "1 request", "2 requests", never "1 request(s)"."""

from __future__ import annotations

from toolscope.core.text.counts import counted, counted_phrase


def test_one_is_singular_and_every_other_count_plural() -> None:
    assert counted(1, "request") == "1 request"
    assert counted(0, "request") == "0 requests"
    assert counted(2_000, "tool list") == "2,000 tool lists"
    assert counted(2, "entry", "entries") == "2 entries"


def test_a_phrase_agrees_with_its_count_at_its_first_marked_noun() -> None:
    assert counted_phrase(1, "span(s) without a traceId and spanId") == "1 span without a traceId and spanId"
    assert (
        counted_phrase(3, "model-call span(s) whose tool list(s) are cut")
        == "3 model-call spans whose tool list(s) are cut"
    )
