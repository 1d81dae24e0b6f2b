"""JSON text as every toolscope document writes it: orjson where it gives the same bytes.

orjson writes exactly what ``json.dumps(ensure_ascii=False)`` writes (compact, or with
two-space indentation) for the values toolscope's documents hold: strings, integers,
booleans, null, lists and objects (no schema has a ``number``; floats are where the two
differ, ``1e-07`` against ``1e-7``). It is 5-10x faster. It refuses what ``json`` accepts: a
lone surrogate in a string (a name read from JSON can hold one) and integers beyond 64
bits; those documents are written by ``json`` instead, so the bytes are the same either way.

``OneLinePerItem`` marks a list whose items are already JSON text: ``indented`` writes each
on a line of its own, so a report of 50,000 tools stays a readable, diffable file.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import orjson


def compact(value: Any) -> str:
    """``value`` as ``json.dumps(value, ensure_ascii=False, separators=(",", ":"))`` writes it."""
    try:
        return orjson.dumps(value).decode()
    except orjson.JSONEncodeError:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _indented(value: Any) -> str:
    try:
        return orjson.dumps(value, option=orjson.OPT_INDENT_2).decode()
    except orjson.JSONEncodeError:
        return json.dumps(value, ensure_ascii=False, indent=2)


def reindent(text: str) -> str:
    """Compact JSON text with two-space indentation, as ``json.dumps(indent=2)`` lays it out.

    For toolscope's documents: orjson reads an integer beyond 64 bits as a float (they hold
    none; their integers are counts and indexes).
    """
    try:
        value = orjson.loads(text)
    except orjson.JSONDecodeError:  # a lone surrogate's escape: json reads it
        value = json.loads(text)
    return _indented(value)  # json.dumps with indent runs its pure-Python encoder: 20x slower


class OneLinePerItem(list[str]):
    """Items that are JSON text already, each written on its own line by ``indented``."""


def indented(value: Any, finish: Callable[[str], str] = str) -> str:
    """``value`` as ``json.dumps(value, indent=2, ensure_ascii=False)`` writes it, except that
    each ``OneLinePerItem`` list has one item per line.

    ``finish`` is applied to each piece of text (an item, or the JSON of a value holding no
    such list) before the pieces are joined once: short pieces, so ``inert_json``'s ASCII
    test decides most of a large report without a regex pass over all of it.
    """
    pieces: list[str] = []
    _write(value, 0, finish, pieces.append)
    return "".join(pieces)


def _write(value: Any, level: int, finish: Callable[[str], str], out: Callable[[str], Any]) -> None:
    if isinstance(value, OneLinePerItem):
        _write_lines(value, level, finish, out)
    elif isinstance(value, dict) and _holds_lines(value):
        _write_dict(value, level, finish, out)
    elif isinstance(value, list) and _holds_lines(value):
        _write_list(value, level, finish, out)
    else:
        text = _indented(value)
        end = "  " * level
        out(finish(text if level == 0 or "\n" not in text else text.replace("\n", "\n" + end)))


def _write_lines(value: OneLinePerItem, level: int, finish: Callable[[str], str], out: Callable[[str], Any]) -> None:
    """One item per line, each item's JSON on one line."""
    if not value:
        out("[]")
        return
    pad = "  " * (level + 1)
    out("[\n" + pad)
    for index, item in enumerate(value):
        out(f",\n{pad}" if index else "")
        out(finish(item))
    out("\n" + "  " * level + "]")


def _write_dict(value: dict[Any, Any], level: int, finish: Callable[[str], str], out: Callable[[str], Any]) -> None:
    pad = "  " * (level + 1)
    out("{\n")
    for index, (key, item) in enumerate(value.items()):
        out(f"{pad}{finish(compact(key))}: ")
        _write(item, level + 1, finish, out)
        out(",\n" if index < len(value) - 1 else "\n")
    out("  " * level + "}")


def _write_list(value: list[Any], level: int, finish: Callable[[str], str], out: Callable[[str], Any]) -> None:
    pad = "  " * (level + 1)
    out("[\n")
    for index, item in enumerate(value):
        out(pad)
        _write(item, level + 1, finish, out)
        out(",\n" if index < len(value) - 1 else "\n")
    out("  " * level + "]")


def _holds_lines(value: Any) -> bool:
    if isinstance(value, OneLinePerItem):
        return True
    if isinstance(value, dict):
        return any(_holds_lines(v) for v in value.values())
    if isinstance(value, list):
        return any(_holds_lines(v) for v in value)
    return False
