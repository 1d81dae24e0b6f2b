"""Parsing JSON strictly: a repeated key, NaN/Infinity or an over-long number is an error.

A syntax error becomes an ``InputError`` naming the file with the line and column.
"""

from __future__ import annotations

import json
from typing import Any

from ..model.errors import InputError, Problem


class _DuplicateKey(Exception):
    pass


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    # json.loads keeps the last of two equal keys without a word; a config where the same
    # key appears twice almost always hides a mistake, so say so.
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _DuplicateKey(key)
        out[key] = value
    return out


class _NotJson(Exception):
    pass


def _no_constants(name: str) -> Any:
    # Python's json accepts NaN and Infinity; JSON does not, and toolscope would echo them
    # into its own JSON output as bare words no strict reader accepts.
    raise _NotJson(f"{name} is not a JSON value (JSON has no NaN or Infinity)")


def parse_json(text: str, source: str) -> Any:
    """Parse JSON text; a syntax error becomes an InputError with line:column."""
    try:
        return json.loads(text, object_pairs_hook=_no_duplicate_keys, parse_constant=_no_constants)
    except _NotJson as exc:
        raise InputError(source, "invalid JSON", [Problem(_constant_place(text), str(exc))]) from None
    except ValueError as exc:
        if not isinstance(exc, json.JSONDecodeError):
            # int() over Python's digit limit: a number of thousands of digits.
            raise InputError(source, "invalid JSON", [Problem("", digit_limit_message(exc))]) from None
        raise _json_error(exc, source) from None
    except _DuplicateKey as exc:
        raise InputError(
            source, "invalid JSON", [Problem(_repeated_place(text), f"key {str(exc)!r} appears twice in one object")]
        ) from None
    except RecursionError:
        raise InputError(source, "is nested too deeply to read (thousands of levels)") from None


def _constant_place(text: str) -> str:
    """Where a NaN or Infinity stands (``a.b (line 2, column 7)``), on that error path only."""
    from .positions import json_constant_value, place

    found = json_constant_value(text)
    return place({found[0]: found[1]}, found[0]) if found is not None else ""


def _repeated_place(text: str) -> str:
    """Where the repeated key's second value starts (``capabilities (line 3, column 19)``); only
    on this error path, so reading valid JSON never pays for it."""
    from .positions import json_repeated_key, place

    found = json_repeated_key(text)
    if found is None:
        return ""
    path, position = found
    return place({path: position}, path)


MAX_NESTING = 128
"""How deep a session document may nest (``load_strict``): AgentScope's own dumps nest about
ten levels; a message nested hundreds deep passed the parser and then broke AgentScope's
validation with a RecursionError."""


def load_strict(text: str, source: str, where: str = "") -> Any:
    """Parse like ``parse_json`` but let a syntax error through as ``json.JSONDecodeError``.

    For readers that tell a truncated file or a JSONL file from a malformed one themselves
    (sessions). Everything else is refused as ``parse_json`` refuses it, and also nesting
    deeper than ``MAX_NESTING`` and lone UTF-16 surrogates (``"\\ud800"``: not text, and
    no UTF-8 output can carry it).
    """
    try:
        value = json.loads(text, object_pairs_hook=_no_duplicate_keys, parse_constant=_no_constants)
    except json.JSONDecodeError:
        raise
    except _NotJson as exc:
        raise InputError(source, "invalid JSON", [Problem(where, str(exc))]) from None
    except ValueError as exc:
        raise InputError(source, "invalid JSON", [Problem(where, digit_limit_message(exc))]) from None
    except _DuplicateKey as exc:
        raise InputError(
            source, "invalid JSON", [Problem(where, f"key {str(exc)!r} appears twice in one object")]
        ) from None
    except RecursionError:
        raise InputError(source, f"is nested too deeply to read (the limit is {MAX_NESTING} levels)") from None
    _check_shape(value, source, where, surrogates="\\ud" in text or "\\uD" in text)
    return value


def _check_shape(value: Any, source: str, where: str, surrogates: bool) -> None:
    """Iteratively: nesting at most MAX_NESTING, and (when the text has \\uD escapes) no lone surrogate."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            if depth > MAX_NESTING:
                raise _too_deep(source, where)
            if surrogates:
                for key in item:
                    _no_surrogate(key, source, where)
            stack.extend((child, depth + 1) for child in item.values())
        elif isinstance(item, list):
            if depth > MAX_NESTING:
                raise _too_deep(source, where)
            stack.extend((child, depth + 1) for child in item)
        elif surrogates and isinstance(item, str):
            _no_surrogate(item, source, where)


def _too_deep(source: str, where: str) -> InputError:
    return InputError(source, f"is nested more than {MAX_NESTING} levels deep" + (f" ({where})" if where else ""))


def _no_surrogate(text: str, source: str, where: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise InputError(
            source,
            "invalid JSON",
            [Problem(where, f"a lone UTF-16 surrogate (\\u{ord(text[exc.start]):04x}) is not text")],
        ) from None


def digit_limit_message(exc: ValueError) -> str:
    """Why int() refused a number: over Python's digit limit (thousands of digits)."""
    import sys

    limit = sys.get_int_max_str_digits()
    return f"a number with more than {limit} digits is too long to read" if limit else str(exc)


def _json_error(exc: json.JSONDecodeError, source: str) -> InputError:
    where, message = f"line {exc.lineno}, column {exc.colno}", exc.msg
    # A file cut short (a copy or a write interrupted) fails at its very end, or inside a
    # string that never closes (json reports where the string starts): say so, with the end.
    lines = exc.doc.rstrip().split("\n")
    end = f"line {len(lines)}, column {len(lines[-1]) + 1}"
    if message == "Unterminated string starting at":
        message = f"a string starts here and is never closed; the file ends at {end} (cut short?)"
    elif exc.pos >= len(exc.doc.rstrip()):
        where, message = f"{end} (the end of the file)", f"{message}: the file ends inside a value (cut short?)"
    else:
        where, message = _trailing_comma(exc) or (where, message)
    return InputError(source, "invalid JSON", [Problem(where, message)])


def _trailing_comma(exc: json.JSONDecodeError) -> tuple[str, str] | None:
    """A comma right before ``]`` or ``}``: json reports the closing bracket (often on the next
    line); the mistake is the comma, so name its place."""
    closing = exc.doc[exc.pos : exc.pos + 1]
    comma = len(exc.doc[: exc.pos].rstrip()) - 1
    if closing not in ("]", "}") or comma < 0 or exc.doc[comma] != ",":
        return None
    line = exc.doc.count("\n", 0, comma) + 1
    column = comma - (exc.doc.rfind("\n", 0, comma) + 1) + 1
    return f"line {line}, column {column}", f"a trailing comma before {closing!r}: JSON allows none; remove it"
