"""Reading JSON and YAML input files into Python data, with errors users can act on.

Every failure is an ``InputError`` that names the file and, for syntax errors, the line
and column. Reading the file (limits, encoding) is ``input_files``; parsing it is
``strict_json`` and ``safe_yaml``; schema errors are ``validation_errors``; each parsed
document is kept in ``document_cache``. Input files are only ever read.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..model.errors import InputError
from .document_cache import remember_document
from .input_files import read_text
from .safe_yaml import parse_yaml
from .strict_json import parse_json

YAML_SUFFIXES = {".yaml", ".yml"}


@dataclass(frozen=True)
class Document:
    """A parsed input file: its path, raw bytes' sha256 and data."""

    path: Path
    data: Any
    sha256: str

    @property
    def name(self) -> str:
        """The file name as shown to users (no directories: keeps screens machine-independent)."""
        return self.path.name


def load_document(path: Path | str, what: str = "file") -> Document:
    """Parse a JSON or YAML file (by suffix; unknown suffixes try JSON, then YAML)."""
    path = Path(path)
    document = _parse_document(path, what)
    remember_document(path, document)
    return document


def _parse_document(path: Path, what: str) -> Document:
    text, digest = read_text(path, what)
    suffix = path.suffix.lower()
    try:
        if suffix == ".json":
            data = parse_json(text, str(path))
        elif suffix in YAML_SUFFIXES:
            data = parse_yaml(text, str(path))
        else:
            data = _parse_unknown_suffix(text, str(path))
    except RecursionError:
        raise InputError(str(path), "is nested too deeply to read (thousands of levels)") from None
    return Document(path=path, data=data, sha256=digest)


def _parse_unknown_suffix(text: str, source: str) -> Any:
    """JSON first; if that fails, YAML; if both fail, report the error of the likelier one."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        pass
    try:
        return parse_yaml(text, source)
    except InputError:
        if text.lstrip()[:1] in ("{", "["):
            return parse_json(text, source)  # looks like JSON: its error is the useful one
        raise
