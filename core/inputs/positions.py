"""Where each value of a parsed JSON or YAML document starts: ``("chat", "run", "tools", 3)`` → (line, column).

For findings and errors that must say line:column about a place the parser accepted (a
duplicate tool name, an entry of the wrong type). Built only for small manifests
(``product.yaml``, ``workflow.json``); both files have already parsed without error.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

Path_ = tuple[str | int, ...]
MAX_POSITIONS = 200_000
"""Values located in one document; past this the rest are simply not located."""

_NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?")
_WORDS = {"t": "true", "f": "false", "n": "null"}


def yaml_positions(text: str) -> dict[Path_, tuple[int, int]]:
    """1-based (line, column) of every value of a YAML document that ``parse_yaml`` accepted."""
    import yaml

    out: dict[Path_, tuple[int, int]] = {}
    root = _compose(text)
    if root is None:
        return out
    stack: list[tuple[Any, Path_]] = [(root, ())]
    seen: set[int] = set()
    while stack and len(out) < MAX_POSITIONS:
        node, path = stack.pop()
        out.setdefault(path, (node.start_mark.line + 1, node.start_mark.column + 1))
        if id(node) in seen:  # an alias: located where it is defined
            continue
        seen.add(id(node))
        if isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                if isinstance(key, yaml.ScalarNode):
                    stack.append((value, (*path, key.value)))
        elif isinstance(node, yaml.SequenceNode):
            stack.extend((item, (*path, index)) for index, item in enumerate(node.value))
    return out


def _compose(text: str) -> Any:
    """The document's node tree (nothing constructed; libyaml's composer when installed), or None
    when there is none or it nests deeper than this second parser can follow (then the places are
    named without a line: never a crash)."""
    import yaml

    try:
        return yaml.compose(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except (RecursionError, yaml.YAMLError):
        return None


def json_positions(text: str) -> dict[Path_, tuple[int, int]]:
    """1-based (line, column) of every value of a JSON document that ``parse_json`` accepted."""
    offsets, _repeated, _stopped = _json_offsets(text)
    return _lines_and_columns(text, offsets)


def json_repeated_key(text: str) -> tuple[Path_, tuple[int, int]] | None:
    """The path and 1-based (line, column) of the value of the first key that repeats in its object
    (where ``parse_json`` refuses it: the message can then say where); None when no key repeats."""
    _offsets, repeated, _stopped = _json_offsets(text)
    if repeated is None:
        return None
    return repeated[0], _lines_and_columns(text, {repeated[0]: repeated[1]})[repeated[0]]


def json_constant_value(text: str) -> tuple[Path_, tuple[int, int]] | None:
    """The path and 1-based (line, column) of the first value that is not JSON although Python's
    parser reads it (``NaN``, ``Infinity``, ``-Infinity``); None when there is none."""
    _offsets, _repeated, stopped = _json_offsets(text)
    if stopped is None:
        return None
    return stopped[0], _lines_and_columns(text, {stopped[0]: stopped[1]})[stopped[0]]


def _json_offsets(text: str) -> tuple[dict[Path_, int], tuple[Path_, int] | None, tuple[Path_, int] | None]:
    """Offsets of every value, the first value whose key repeats in its object, and the value the
    walk stopped at (one that is not JSON)."""
    offsets: dict[Path_, int] = {}
    repeated: tuple[Path_, int] | None = None
    stopped: tuple[Path_, int] | None = None
    scan = json.decoder.scanstring  # type: ignore[attr-defined]

    def skip(i: int) -> int:
        while i < len(text) and text[i] in " \t\r\n":
            i += 1
        return i

    # An explicit stack: (path, kind, index) with kind "o"/"a"; bounded by the text length.
    i = skip(0)
    stack: list[list[Any]] = []
    path: Path_ = ()
    steps = 0
    while i < len(text) and len(offsets) < MAX_POSITIONS and steps < 4 * len(text) + 8:
        steps += 1
        # Each value is met once, at its own path; a path met again is a key its object repeats.
        if path in offsets and repeated is None and path:
            repeated = (path, i)
        offsets.setdefault(path, i)
        char = text[i]
        if char == "{" or char == "[":
            kind = "o" if char == "{" else "a"
            i = skip(i + 1)
            if i < len(text) and text[i] == ("}" if kind == "o" else "]"):
                i += 1
            else:
                stack.append([path, kind, 0])
                if kind == "o":
                    key, i = scan(text, skip(i) + 1)
                    i = skip(skip(i) + 1)  # past ':'
                    path = (*path, key)
                else:
                    path = (*path, 0)
                continue
        elif char == '"':
            _value, i = scan(text, i + 1)
        elif char in _WORDS:
            i += len(_WORDS[char])
        else:
            match = _NUMBER.match(text, i)
            if match is None:
                stopped = (path, i)
                break
            i = match.end()
        # After a value: a comma continues the container, a bracket closes it.
        while stack:
            i = skip(i)
            parent, kind, index = stack[-1]
            if i < len(text) and text[i] == ",":
                i = skip(i + 1)
                if kind == "o":
                    key, i = scan(text, i + 1)
                    i = skip(skip(i) + 1)
                    path = (*parent, key)
                else:
                    stack[-1][2] = index + 1
                    path = (*parent, index + 1)
                break
            i += 1  # the closing bracket
            stack.pop()
            path = parent
        else:
            break
    return offsets, repeated, stopped


def _lines_and_columns(text: str, offsets: Mapping[Path_, int]) -> dict[Path_, tuple[int, int]]:
    import bisect

    line_starts = [0] + [m.end() for m in re.finditer("\n", text)]
    out = {}
    for key, offset in offsets.items():
        line = bisect.bisect_right(line_starts, offset)
        out[key] = (line, offset - line_starts[line - 1] + 1)
    return out


def place(positions: Mapping[Path_, tuple[int, int]], path: Path_) -> str:
    """``chat.run.tools[3] (line 12, column 7)``; the nearest located parent's line when the value itself is not."""
    shown = ""
    for part in path:
        shown += f"[{part}]" if isinstance(part, int) else (f".{part}" if shown else str(part))
    probe = path
    while probe and probe not in positions:
        probe = probe[:-1]
    found = positions.get(probe)
    return f"{shown or '(top level)'} (line {found[0]}, column {found[1]})" if found else shown or "(top level)"
