"""OpenCode's config text: JSONC (comments, trailing commas) and ``{env:…}`` / ``{file:…}``, as 1.18.33 reads it.

``{env:VAR}`` is replaced in the raw text by the variable's value (unset: empty), not escaped;
``{file:PATH}`` by the file's text, trimmed and escaped as a JSON string's inside (a path
relative to the config file's folder, ``~/`` the home; one on a ``//`` comment line is left
alone; a missing file makes the binary exit 1: "bad file reference"). Comments become spaces,
so a JSON error still names the line and column of the file as written.

Public API::

    substitute(text, environ, folder, home, source) -> (text, [(placeholder, problem)])
    strip_jsonc(text) -> str
    line_of(text, key) -> int | None
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

ENV = re.compile(r"\{env:([^}]+)\}")
FILE = re.compile(r"\{file:[^}]+\}")
MAX_FILE_BYTES = 1_000_000
MAX_REFERENCES = 200


def substitute(
    text: str, environ: Mapping[str, str], folder: Path, home: Path
) -> tuple[str, list[str], frozenset[str]]:
    """The text the binary parses, the bad ``{file:…}`` references (each fatal), and the values taken from the environment."""
    taken = frozenset(environ[m.group(1)] for m in ENV.finditer(text) if environ.get(m.group(1)))
    text = ENV.sub(lambda m: environ.get(m.group(1), ""), text)
    out: list[str] = []
    bad: list[str] = []
    last = 0
    for number, match in enumerate(FILE.finditer(text)):
        if number >= MAX_REFERENCES:
            break
        start = text.rfind("\n", 0, match.start()) + 1
        out.append(text[last : match.start()])
        last = match.end()
        if text[start : match.start()].lstrip().startswith("//"):
            out.append(match.group(0))
            continue
        out.append(_file_text(match.group(0), folder, home, bad))
    out.append(text[last:])
    return "".join(out), bad, taken


def _file_text(reference: str, folder: Path, home: Path, bad: list[str]) -> str:
    import json

    raw = reference[len("{file:") : -1]
    path = home / raw[2:] if raw.startswith("~/") else Path(raw) if Path(raw).is_absolute() else folder / raw
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_FILE_BYTES)
    except OSError:
        bad.append(f'bad file reference: "{reference}" {path} does not exist')
        return ""
    return json.dumps(data.decode("utf-8", "replace").strip(), ensure_ascii=False)[1:-1]


def strip_jsonc(text: str) -> str:
    """JSON text: comments blanked (newlines kept), trailing commas before ``}`` / ``]`` removed."""
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        char = text[i]
        if char == '"':
            end = _string_end(text, i)
            out.append(text[i:end])
            i = end
        elif text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
            out.append(" " * (end - i))
            i = end
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            out.append(re.sub(r"[^\n]", " ", text[i:end]))
            i = end
        else:
            out.append(char)
            i += 1
    return re.sub(r",(\s*[}\]])", r" \1", "".join(out))


def _string_end(text: str, start: int) -> int:
    i = start + 1
    while i < len(text):
        if text[i] == "\\":
            i += 2
            continue
        if text[i] == '"':
            return i + 1
        i += 1
    return len(text)


def line_of(text: str, key: str) -> int | None:
    """The line (1-based) where ``"key"`` first appears as a key, or None."""
    import json

    match = re.search(re.escape(json.dumps(key, ensure_ascii=False)) + r"\s*:", text)
    return text.count("\n", 0, match.start()) + 1 if match else None
