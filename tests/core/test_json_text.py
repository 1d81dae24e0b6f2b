"""``core.outputs.json_text``: orjson's bytes are exactly ``json.dumps``'s for toolscope's values
(and ``json`` writes what orjson refuses), and ``OneLinePerItem`` puts each item on its own line."""

from __future__ import annotations

import json

import pytest

from toolscope.core.outputs.json_text import OneLinePerItem, compact, indented, reindent

TEXTS = ['quoted "x" \\ and \u2026 \u5de5', "tab\tnewline\n\x1b[31m bidi \u202e \x7f \u2028", "", "\U0001f600"]
DOCUMENTS = [
    {"name": "registered", "passed": True, "code": "filter.x", "rule": TEXTS[0], "entry": None, "n": -3},
    [{"message": text, "count": 3, "ok": False} for text in TEXTS],
    {"empty": {}, "none": [], "nested": {"a": [[], [1, [2]], {"b": {}}]}},
    {"lone surrogate": "\ud800x", "key \udfff": 1},  # orjson refuses: json writes it
    {"beyond 64 bits": 2**70},  # likewise
]


@pytest.mark.parametrize("document", DOCUMENTS)
def test_the_bytes_are_json_dumps_bytes(document: object) -> None:
    assert compact(document) == json.dumps(document, ensure_ascii=False, separators=(",", ":"))
    assert indented(document) == json.dumps(document, indent=2, ensure_ascii=False)
    if "beyond 64 bits" not in document:  # reindent is for toolscope's documents: they have none
        assert reindent(compact(document)) == json.dumps(document, indent=2, ensure_ascii=False)


@pytest.mark.parametrize("depth", [0, 1, 3])
def test_one_line_per_item_at_any_depth(depth: int) -> None:
    items = [{"tool": text, "stages": [0, 1]} for text in TEXTS]
    lines = OneLinePerItem(json.dumps(item, ensure_ascii=False) for item in items)
    document: object = {"before": [1], "tools": lines, "after": {"a": TEXTS[1]}}
    plain: object = {"before": [1], "tools": items, "after": {"a": TEXTS[1]}}
    for _ in range(depth):
        document, plain = {"key": [document]}, {"key": [plain]}
    text = indented(document)
    assert json.loads(text) == plain
    pad = "  " * (2 * depth + 2)
    for line in lines:
        assert f"\n{pad}{line}" in text  # each item whole, on its own line
    # Everything else is laid out as json.dumps lays it out.
    assert text.replace(",\n" + pad, ", ").count("\n") < json.dumps(plain, indent=2).count("\n")


def test_an_empty_one_line_list_is_an_empty_array() -> None:
    assert indented({"tools": OneLinePerItem()}) == json.dumps({"tools": []}, indent=2)
