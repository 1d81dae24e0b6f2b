"""Reading JSON and YAML input files into Python data, with errors users can act on.

Every failure is an ``InputError`` that names the file and, for syntax errors, the line
and column; for schema errors, the path inside the document
(``steps[0].agent_configs.selected_tools[2]``). Input files are only ever read.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from toolscope.core.errors import InputError, Problem

ModelT = TypeVar("ModelT", bound=BaseModel)

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


def read_text(path: Path, what: str = "file") -> tuple[str, str]:
    """Read a UTF-8 text file; return (text, sha256). Raises InputError for anything wrong."""
    shown = str(path)
    if not path.exists():
        raise InputError(shown, f"no such {what}")
    if path.is_dir():
        raise InputError(shown, f"is a directory, expected a {what}")
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise InputError(shown, f"cannot read it: {exc.strerror or exc}") from None
    if not raw.strip():
        raise InputError(shown, f"is empty, expected a {what}")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(shown, f"is not UTF-8 text (byte {exc.start})") from None
    return text, hashlib.sha256(raw).hexdigest()


def load_document(path: Path | str, what: str = "file") -> Document:
    """Parse a JSON or YAML file (by suffix; unknown suffixes try JSON, then YAML)."""
    path = Path(path)
    text, digest = read_text(path, what)
    suffix = path.suffix.lower()
    if suffix == ".json":
        data = parse_json(text, str(path))
    elif suffix in YAML_SUFFIXES:
        data = parse_yaml(text, str(path))
    else:
        try:
            data = json.loads(text)
        except json.JSONDecodeError:
            data = parse_yaml(text, str(path))
    return Document(path=path, data=data, sha256=digest)


def parse_json(text: str, source: str) -> Any:
    """Parse JSON text; a syntax error becomes an InputError with line:column."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(
            source, "invalid JSON", [Problem(f"line {exc.lineno}, column {exc.colno}", exc.msg)]
        ) from None


def parse_yaml(text: str, source: str) -> Any:
    """Parse YAML text safely; a syntax error becomes an InputError with line:column."""
    import yaml  # deferred: only YAML inputs pay for it

    try:
        return yaml.safe_load(text)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = f"line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        what = exc.problem or exc.context or "syntax error"
        raise InputError(source, "invalid YAML", [Problem(where, what)]) from None
    except yaml.YAMLError as exc:
        raise InputError(source, "invalid YAML", [Problem("", str(exc))]) from None


def format_location(loc: Sequence[int | str], prefix: str = "") -> str:
    """Turn a pydantic error location into ``a.b[2].c``."""
    out = prefix
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out or "(top level)"


def validation_problems(
    exc: ValidationError, prefix: str = "", drop: Iterable[str] = ()
) -> list[Problem]:
    """Pydantic errors as Problems; ``drop`` removes tagged-union noise from paths."""
    dropped = set(drop)
    problems = []
    for error in exc.errors(include_url=False):
        loc = [p for p in error["loc"] if p not in dropped]
        message = error["msg"]
        if error["type"] in {"missing"}:
            message = "required field is missing"
        elif error["type"] == "extra_forbidden":
            message = "unknown field"
        got = error.get("input")
        if error["type"] not in {"missing", "extra_forbidden"} and _is_short_scalar(got):
            message += f" (got {json.dumps(got)})"
        problems.append(Problem(format_location(loc, prefix), message))
    return problems


def _is_short_scalar(value: Any) -> bool:
    return isinstance(value, (str, int, float, bool)) and len(str(value)) <= 60


def validate_model(model: type[ModelT], data: Any, source: str, what: str, prefix: str = "") -> ModelT:
    """Validate data against a pydantic model; errors become one InputError naming the file."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise InputError(source, f"not a valid {what}", validation_problems(exc, prefix)) from None
