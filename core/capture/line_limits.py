"""What a capture line may hold: the one set of limits the writer keeps and the reader reads by.

A line the reader cannot read is never written. The reader parses each line with
pydantic-core's JSON parser, which refuses nesting over ``PARSER_DEPTH`` and lone
surrogates (``"\\ud800"``); the follower reads at most ``MAX_LINE_BYTES`` per line and the
reader at most ``MAX_FILE_BYTES`` per file. ``encode_line(record)`` therefore writes:

* each free-form value (``tool_choice``, a reply call's ``arguments``, the ``kept`` text)
  nested deeper than ``MAX_VALUE_DEPTH`` as a marker string saying so;
* a lone surrogate in any string as U+FFFD (``str is not valid UTF-8`` otherwise);
* a line over ``MAX_LINE_BYTES`` without its kept text, then with every tool name and call
  name clipped (``core.text.clip``).

Public API::

    encode_line(record: dict) -> bytes     # one line, newline included, readable by ``reader``
"""

from __future__ import annotations

import re
from typing import Any

import orjson

from ..inputs.input_files import MAX_INPUT_BYTES
from ..text.clip import clip

__all__ = ["MAX_FILE_BYTES", "MAX_LINE_BYTES", "MAX_VALUE_DEPTH", "PARSER_DEPTH", "encode_line", "too_deep"]

PARSER_DEPTH = 200
"""pydantic-core's JSON parser (the reader's) refuses a document nested deeper than this."""
MAX_VALUE_DEPTH = 128
"""Nesting kept of one free-form value; the record's own nesting (at most 5 around it) stays under ``PARSER_DEPTH``."""
MAX_LINE_BYTES = 16 * 1024 * 1024
"""The longest line written, and the most bytes the follower reads for one line."""
MAX_FILE_BYTES = MAX_INPUT_BYTES
"""The largest capture file the reader opens: a line that would pass it is not written (it is counted lost)."""
_DUMPS = orjson.OPT_NON_STR_KEYS
_SURROGATE = re.compile("[\ud800-\udfff]")


def too_deep(value: Any, limit: int = MAX_VALUE_DEPTH) -> bool:
    """Whether ``value`` (JSON-like) nests lists and objects deeper than ``limit`` (bounded walk)."""
    level = [value]
    for _ in range(limit):  # level i + 1 holds the values nested i + 2 deep
        nested = [v for item in level for v in _members(item)]
        if not nested:
            return False
        level = nested
    return True


def _members(item: Any) -> list[Any]:
    if isinstance(item, dict):
        return [v for v in item.values() if isinstance(v, dict | list)]
    if isinstance(item, list):
        return [v for v in item if isinstance(v, dict | list)]
    return []


def _marker(value: Any) -> Any:
    if isinstance(value, dict | list) and too_deep(value):
        return f"not recorded: nested deeper than {MAX_VALUE_DEPTH} levels"
    return value


def encode_line(record: dict[str, Any]) -> bytes:
    """``record`` as one line the reader reads back (see the module's rules), newline included."""
    record = _bounded(record)
    line = _dumps(record)
    if len(line) > MAX_LINE_BYTES and record.get("kept") is not None:
        record = {**record, "kept": None}
        line = _dumps(record)
    if len(line) > MAX_LINE_BYTES:
        line = _dumps(_clipped_names(record))
    return line


def _bounded(record: dict[str, Any]) -> dict[str, Any]:
    out = {**record, "tool_choice": _marker(record.get("tool_choice"))}
    reply = record.get("reply")
    if isinstance(reply, dict):
        calls = [{**c, "arguments": _marker(c.get("arguments"))} for c in reply.get("tool_calls") or []]
        out["reply"] = {**reply, "tool_calls": calls}
    kept = record.get("kept")
    if isinstance(kept, dict):
        out["kept"] = {k: _marker(v) for k, v in kept.items()}
    return out


def _clipped_names(record: dict[str, Any]) -> dict[str, Any]:
    tools = [{**t, "name": clip(t["name"])} for t in record.get("tools") or []]
    out = {**record, "tools": tools, "deferred_names": [clip(n) for n in record.get("deferred_names") or []]}
    reply = record.get("reply")
    if isinstance(reply, dict):
        calls = [{**c, "name": clip(c["name"]), "arguments": None} for c in reply.get("tool_calls") or []]
        out["reply"] = {**reply, "tool_calls": calls}
    return out


def _dumps(record: dict[str, Any]) -> bytes:
    try:
        return orjson.dumps(record, option=_DUMPS) + b"\n"
    except TypeError:
        # A lone surrogate (a client's ``"\\ud800"``): not UTF-8, so written as U+FFFD.
        return orjson.dumps(_valid_text(record), option=_DUMPS) + b"\n"


def _valid_text(value: Any, depth: int = 0) -> Any:
    if isinstance(value, str):
        return _SURROGATE.sub("\ufffd", value)
    if depth > PARSER_DEPTH:
        return None
    if isinstance(value, dict):
        return {_valid_text(k, depth + 1): _valid_text(v, depth + 1) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_valid_text(v, depth + 1) for v in value]
    return value
