"""Keep secrets out of reports: values found in the inputs are replaced by ``***``.

A report is meant to be pasted into an issue, so nothing that looks like a credential
may reach it, whatever part of toolscope quoted it (a rule sentence, a note, a fact).
The input files are scanned once for secret values — every value of the ``env`` and
``headers`` of MCP server configs, anything under a key that looks secret (token, key,
secret, password, authorization, …; the rule of ``core.mcp.redact``), the value after a
secret-looking command-line flag, and URL passwords — and every string of the report is
scrubbed of them. Facts whose name looks secret are masked whole.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from toolscope.core.mcp.redact import MASK, is_secret_key, scrub

__all__ = ["MASK", "MIN_SECRET_LENGTH", "Redactor", "is_secret_key", "secret_values_in", "secret_values_in_files"]

# Shorter values would blank out ordinary words ("1", "true") all over the report.
MIN_SECRET_LENGTH = 4
# Mappings whose every value is a secret in MCP server configs.
_SECRET_CONTAINERS = {"env", "headers"}


def _add(value: str, out: set[str]) -> None:
    out.add(value)
    # "Bearer abc…": the credential alone may be quoted elsewhere too.
    parts = value.split()
    if len(parts) > 1:
        out.add(parts[-1])


def _scan_args(args: list[Any], out: set[str]) -> None:
    for index, arg in enumerate(args):
        if isinstance(arg, str) and arg.startswith("-"):
            flag, eq, value = arg.partition("=")
            if is_secret_key(flag):
                if eq:
                    _add(value, out)
                elif index + 1 < len(args) and isinstance(args[index + 1], str):
                    _add(args[index + 1], out)


def _scan_url(url: str, out: set[str]) -> None:
    try:
        parts = urlsplit(url)
        if parts.password:
            _add(parts.password, out)
        out.update(v for k, v in parse_qsl(parts.query) if is_secret_key(k) and v)
    except ValueError:
        return


def _collect(data: Any, out: set[str], everything: bool = False) -> None:
    if isinstance(data, dict):
        for key, value in data.items():
            name = str(key)
            if isinstance(value, (str, int, float)) and not isinstance(value, bool):
                if everything or is_secret_key(name):
                    _add(str(value), out)
                elif name.lower() == "url" and isinstance(value, str):
                    _scan_url(value, out)
            elif isinstance(value, list) and name.lower() == "args":
                _scan_args(value, out)
            _collect(value, out, everything=name.lower() in _SECRET_CONTAINERS and isinstance(value, dict))
    elif isinstance(data, list):
        for item in data:
            if everything and isinstance(item, str):
                _add(item, out)
            else:
                _collect(item, out)


def secret_values_in(data: Any) -> set[str]:
    """Every secret value inside parsed input data (long enough to scrub safely)."""
    found: set[str] = set()
    _collect(data, found)
    return {value for value in found if len(value) >= MIN_SECRET_LENGTH}


def secret_values_in_files(paths: Iterable[Path]) -> set[str]:
    """Secret values inside every readable JSON/YAML input file; other files are skipped."""
    from toolscope.core.documents import load_document
    from toolscope.core.errors import InputError

    found: set[str] = set()
    for path in paths:
        if path.suffix.lower() not in {".json", ".yaml", ".yml"} or not path.is_file():
            continue
        try:
            document = load_document(path)
        except InputError:
            continue  # the loaders already accepted what they needed; nothing to scan
        found |= secret_values_in(document.data)
    return found


class Redactor:
    """Replaces known secret values in strings and masks secret-named facts."""

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        self._secrets = {s for s in secrets if len(s) >= MIN_SECRET_LENGTH}

    def text(self, value: str) -> str:
        """The string with every known secret value (longest first) replaced by ``***``."""
        return scrub(value, self._secrets) if self._secrets else value

    def pair(self, key: str, value: str) -> tuple[str, str]:
        """A (name, value) fact: the value is masked whole when the name looks secret."""
        return self.text(key), MASK if is_secret_key(key) else self.text(value)

    def deep(self, obj: Any) -> Any:
        """A copy of obj (dataclasses, tuples, lists, dicts, strings) with secrets masked."""
        if not self._secrets:
            return obj  # nothing to mask: facts were already handled by pair()
        return self._deep(obj, {})

    def _deep(self, obj: Any, memo: dict[int, Any]) -> Any:
        # memo: stage tuples are shared by thousands of verdicts; copy each once.
        key = id(obj)
        if key in memo:
            return memo[key]
        result = self._copy(obj, memo)
        if not isinstance(obj, str):
            memo[key] = result
        return result

    def _copy(self, obj: Any, memo: dict[int, Any]) -> Any:
        deep = lambda item: self._deep(item, memo)  # noqa: E731
        if isinstance(obj, str):
            return self.text(obj)
        if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
            changes = {f.name: deep(getattr(obj, f.name)) for f in dataclasses.fields(obj) if f.init}
            return type(obj)(**changes)
        if isinstance(obj, tuple):
            return tuple(deep(item) for item in obj)
        if isinstance(obj, (list, Sequence)) and not isinstance(obj, (str, bytes)):
            return [deep(item) for item in obj]
        if isinstance(obj, dict):
            return {
                deep(k): (MASK if isinstance(k, str) and is_secret_key(k) else deep(v))
                for k, v in obj.items()
            }
        return obj
