"""Keep secrets out of reports: secret values found in the inputs become ``***``.

A report is meant to be pasted into an issue, so no credential from the inputs may reach
it, whatever part of toolscope quoted it (a rule sentence, a note, a fact). What is a
secret and how free text is scrubbed is decided by ``toolscope.core.mcp.redact`` (its
module doc has the rule); this module only collects the secret values of the input files
and applies them to every string of a report:

* every string is scrubbed of the secret-looking values and of every env and headers
  value (``redact.scrub``'s rule);
* names the report must show — tools, servers/namespaces, modes — are public: a value
  occurring inside one of them is not masked anywhere (masking it elsewhere would hide
  nothing and garble the sentences that quote the name);
* facts whose name looks secret are masked whole.
"""

from __future__ import annotations

import dataclasses
from array import array
from collections.abc import Callable, Iterable, Sequence
from enum import Enum
from pathlib import Path
from typing import Any

from ..mcp.redact import (
    MASK,
    collect_env_values,
    collect_secrets,
    is_secret_key,
    replace_secrets,
    scrubbable,
)
from ..model.verdicts import VerdictList

__all__ = ["MASK", "Redactor", "is_secret_key", "secret_values_in", "secret_values_in_files"]


def secret_values_in(data: Any) -> set[str]:
    """The secret values inside parsed input data that free-text scrubbing would mask
    (every env and headers value among them, whatever it looks like)."""
    return set(scrubbable(collect_secrets(data), collect_env_values(data)))


def secret_values_in_files(paths: Iterable[Path]) -> set[str]:
    """Secret values inside every readable JSON/YAML input file; other files are skipped.

    A file the loaders parsed is scanned in the data they read (``parsed_document``), not
    parsed a second time.
    """
    from ..inputs.document_cache import parsed_document
    from ..inputs.documents import load_document
    from ..model.errors import InputError

    found: set[str] = set()
    for path in paths:
        if path.suffix.lower() not in {".json", ".yaml", ".yml"} or not path.is_file():
            continue
        try:
            document = parsed_document(path) or load_document(path)
        except InputError:
            continue  # the loaders already accepted what they needed; nothing to scan
        found |= secret_values_in(document.data)
    return found


class Redactor:
    """Replaces known secret values in strings and masks secret-named facts.

    ``public`` are the names the report shows as they are (tool, namespace, mode names):
    a secret value occurring inside one of them is dropped from the values to mask.
    """

    def __init__(self, secrets: Iterable[str] = (), public: Iterable[str] = ()) -> None:
        names = [name for name in public if name]
        # The values come chosen (``secret_values_in``): only ordered here, longest first.
        chosen = sorted({s for s in secrets if s}, key=lambda s: (-len(s), s))
        self._ordered = tuple(s for s in chosen if not any(s in name for name in names))

    def text(self, value: str) -> str:
        """The string with every known secret value (longest first) replaced by ``***``."""
        return replace_secrets(value, self._ordered) if self._ordered else value

    def pair(self, key: str, value: str) -> tuple[str, str]:
        """A (name, value) fact: the value is masked whole when the name looks secret."""
        return self.text(key), MASK if is_secret_key(key) else self.text(value)

    def deep(self, obj: Any) -> Any:
        """A copy of obj (dataclasses, tuples, lists, dicts, strings) with secrets masked."""
        if not self._ordered:
            return obj  # nothing to mask: facts were already handled by pair()
        return self._deep(obj, {})

    def _deep(self, obj: Any, memo: dict[int, Any]) -> Any:
        # A deep-copy memo, as copy.deepcopy keeps one: Stage objects are shared by many rows
        # and copied once. Keyed by id() safely: every object it names is reachable from the
        # report being copied, so alive (and its id unique) for the whole walk.
        key = id(obj)
        if key in memo:
            return memo[key]
        result = self._copy(obj, memo)
        if not isinstance(obj, str):
            memo[key] = result
        return result

    def _copy(self, obj: Any, memo: dict[int, Any]) -> Any:
        if isinstance(obj, (Enum, array)):
            # A closed vocabulary (core.model.enums) must stay a member and is never a secret;
            # an array holds numbers (a section's tool order), no text.
            return obj
        if isinstance(obj, str):
            return self.text(obj)
        deep = lambda item: self._deep(item, memo)  # noqa: E731
        if isinstance(obj, VerdictList):
            # Each distinct row of stages once, the tools' labels, the same row numbers.
            return VerdictList([deep(entry) for entry in obj.entries], [deep(row) for row in obj.rows], obj.row_of)
        if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
            return _copy_dataclass(obj, deep)
        return self._copy_container(obj, deep)

    @staticmethod
    def _copy_container(obj: Any, deep: Callable[[Any], Any]) -> Any:
        """A tuple, list or dict with each item copied; a dict's value under a secret-looking key masked."""
        if isinstance(obj, tuple):
            items = (deep(item) for item in obj)
            # A named tuple (the engine's ToolEntry) stays one.
            return type(obj)(*items) if hasattr(obj, "_fields") else tuple(items)
        if isinstance(obj, (list, Sequence)) and not isinstance(obj, (str, bytes)):
            return [deep(item) for item in obj]
        if isinstance(obj, dict):
            return _copy_dict(obj, deep)
        return obj


def _copy_dataclass(obj: Any, deep: Callable[[Any], Any]) -> Any:
    """A new instance of the dataclass with each field set in ``__init__`` copied."""
    return type(obj)(**{f.name: deep(getattr(obj, f.name)) for f in dataclasses.fields(obj) if f.init})


def _copy_dict(obj: dict[Any, Any], deep: Callable[[Any], Any]) -> dict[Any, Any]:
    """Each key and value copied; the value under a secret-looking key masked whole."""
    return {deep(k): (MASK if isinstance(k, str) and is_secret_key(k) else deep(v)) for k, v in obj.items()}
