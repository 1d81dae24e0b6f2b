"""The JSON report writes its large arrays itself, in exactly the layout ``json.dumps(indent=2)`` gives."""

from __future__ import annotations

import json

import pytest

from toolscope.core.report.json_report import _flat_objects

ITEMS = [
    {
        "name": "registered",
        "passed": True,
        "code": "filter.x",
        "rule": 'quoted "x" \\ and \u2026 \u5de5',
        "entry": None,
    },
    {"kind": "dead_rule", "count": 3, "passed": False, "message": "tab\tnewline\n\x1b[31m bidi \u202e"},
    {},
    {"name": ""},
]


@pytest.mark.parametrize("depth", [0, 1, 3])
def test_flat_objects_are_written_as_json_dumps_indents_them(depth: int) -> None:
    document: object = ITEMS
    for _ in range(depth):
        document = {"key": document}
    expected = json.dumps(document, indent=2, ensure_ascii=False)
    marker = '"MARKER"'
    holder: object = "MARKER"
    for _ in range(depth):
        holder = {"key": holder}
    before, _, after = json.dumps(holder, indent=2, ensure_ascii=False).partition(marker)
    assert before + _flat_objects(ITEMS, 2 * depth + 2) + after == expected
    assert _flat_objects([], 4) == json.dumps([], indent=2)


@pytest.mark.parametrize("value", [1.5, [1], {"a": 1}, ("t",)])
def test_objects_with_other_values_are_left_to_json_dumps(value: object) -> None:
    assert _flat_objects([{"a": "b", "c": value}], 4) is None
