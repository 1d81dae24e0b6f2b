"""Reading JSON and YAML input files into Python data, with errors users can act on.

Every failure is an ``InputError`` that names the file and, for syntax errors, the line
and column; for schema errors, the path inside the document
(``steps[0].agent_configs.selected_tools[2]``). Input files are only ever read.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from pydantic_core import ValidationError

from toolscope.core.errors import InputError, Problem

try:  # CPython's own SHA-256: importing hashlib loads OpenSSL (~2 ms of every run) for one digest
    from _sha256 import sha256 as _sha256
except ImportError:  # other Pythons (3.12+: _sha2)
    from hashlib import sha256 as _sha256

if TYPE_CHECKING:
    # Only for annotations: importing BaseModel costs every command pydantic's model machinery.
    from pydantic import BaseModel

ModelT = TypeVar("ModelT", bound="BaseModel")

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


MAX_INPUT_BYTES = 128 * 1024 * 1024
"""The largest input file toolscope reads (128 MiB): more is refused, never read into memory."""

_FILES_READ: dict[Path, None] = {}


def files_read() -> tuple[Path, ...]:
    """Every file this process has read as an input (or imported as user code), in order.

    The output writer refuses all of them: an input is never overwritten by an output.
    """
    return tuple(_FILES_READ)


def record_input(path: Path) -> None:
    """Remember ``path`` as an input of this command (see ``files_read``)."""
    try:
        _FILES_READ.setdefault(Path(path).resolve(), None)
    except (OSError, RuntimeError):
        _FILES_READ.setdefault(Path(path).absolute(), None)


_NOT_REGULAR = (
    (stat.S_ISDIR, "is a directory"),
    (stat.S_ISFIFO, "is a named pipe (FIFO)"),
    (stat.S_ISCHR, "is a character device"),
    (stat.S_ISBLK, "is a block device"),
    (stat.S_ISSOCK, "is a socket"),
)


def read_bytes(path: Path, what: str = "file") -> bytes:
    """Read a regular file of at most ``MAX_INPUT_BYTES``; anything else is an InputError.

    Pipes, devices (``/dev/zero``, ``/dev/urandom``) and sockets are refused before they
    are opened for reading, so nothing waits forever or reads without end.
    """
    shown = str(path)
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise InputError(shown, f"no such {what}") from None
    except OSError as exc:
        raise InputError(shown, f"cannot read it: {exc.strerror or exc}") from None
    for test, description in _NOT_REGULAR:
        if test(info.st_mode):
            raise InputError(shown, f"{description}, expected a {what} (a regular file)")
    limit = MAX_INPUT_BYTES
    if info.st_size > limit:
        raise InputError(shown, f"is {info.st_size:,} bytes; toolscope reads input files of at most {_mib(limit)}")
    record_input(path)
    try:
        # O_NONBLOCK: should the file have been swapped for a pipe since the check, the
        # open does not wait for a writer.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
        with os.fdopen(fd, "rb") as handle:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                raise InputError(shown, f"is not a regular file, expected a {what}")
            raw = handle.read(limit + 1)
    except OSError as exc:
        raise InputError(shown, f"cannot read it: {exc.strerror or exc}") from None
    if len(raw) > limit:
        raise InputError(shown, f"is larger than toolscope's input limit of {_mib(limit)}")
    return raw


def _mib(size: int) -> str:
    return f"{size // (1024 * 1024)} MiB"


def read_text(path: Path, what: str = "file") -> tuple[str, str]:
    """Read a UTF-8 text file; return (text, sha256). Raises InputError for anything wrong."""
    shown = str(path)
    raw = read_bytes(path, what)
    if not raw.strip():
        raise InputError(shown, f"is empty, expected a {what}")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(shown, f"is not UTF-8 text (byte {exc.start})") from None
    return text, _sha256(raw).hexdigest()


_PARSED: dict[Path, Document] = {}
"""Resolved path → the last Document parsed from it; the most recent ``_PARSED_KEPT`` files only."""
_PARSED_KEPT = 16


def parsed_document(path: Path | str) -> Document | None:
    """The Document this process last parsed from ``path`` (one of the last 16 files parsed), or None.

    For readers that need the same data again (a report's secret scan): a 50,000-tool
    registry is a megabyte of JSON, and this is the data the loader actually read. Keeping
    it costs little: its strings are the ones the loaded subject holds anyway.
    """
    try:
        return _PARSED.get(Path(path).resolve())
    except (OSError, RuntimeError):
        return None


def load_document(path: Path | str, what: str = "file") -> Document:
    """Parse a JSON or YAML file (by suffix; unknown suffixes try JSON, then YAML)."""
    path = Path(path)
    document = _parse_document(path, what)
    try:
        key = path.resolve()
    except (OSError, RuntimeError):
        return document  # an unresolvable path is simply not remembered
    _PARSED.pop(key, None)
    _PARSED[key] = document
    if len(_PARSED) > _PARSED_KEPT:
        del _PARSED[next(iter(_PARSED))]
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
        raise InputError(source, "invalid JSON", [Problem("", str(exc))]) from None
    except ValueError as exc:
        if not isinstance(exc, json.JSONDecodeError):
            # int() over Python's digit limit: a number of thousands of digits.
            raise InputError(source, "invalid JSON", [Problem("", _too_long(exc))]) from None
        raise _json_error(exc, source) from None
    except _DuplicateKey as exc:
        raise InputError(
            source, "invalid JSON", [Problem("", f"key {str(exc)!r} appears twice in one object")]
        ) from None
    except RecursionError:
        raise InputError(source, "is nested too deeply to read (thousands of levels)") from None


def _too_long(exc: ValueError) -> str:
    import sys

    limit = sys.get_int_max_str_digits()
    return f"a number with more than {limit} digits is too long to read" if limit else str(exc)


def _json_error(exc: json.JSONDecodeError, source: str) -> InputError:
    return InputError(source, "invalid JSON", [Problem(f"line {exc.lineno}, column {exc.colno}", exc.msg)])


MAX_YAML_NODES = 1_000_000
"""How many nodes a YAML document may have once its aliases are expanded (billion laughs)."""


def parse_yaml(text: str, source: str) -> Any:
    """Parse YAML text safely; a syntax error becomes an InputError with line:column.

    libyaml parses when it is installed (several times faster); on any error the file is
    parsed again by PyYAML's own parser, whose messages and positions the errors quote.
    """
    import yaml  # deferred: only YAML inputs pay for it

    fast = _strict_loader(fast=True)
    if fast is not None:
        try:
            return yaml.load(text, Loader=fast)  # a SafeLoader subclass
        except (yaml.YAMLError, RecursionError):
            pass  # reported below, in PyYAML's words
    try:
        return yaml.load(text, Loader=_strict_loader())  # a SafeLoader subclass
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = f"line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        what = exc.problem or exc.context or "syntax error"
        raise InputError(source, "invalid YAML", [Problem(where, what)]) from None
    except yaml.YAMLError as exc:
        raise InputError(source, "invalid YAML", [Problem("", str(exc))]) from None
    except RecursionError:
        raise InputError(source, "is nested too deeply to read (thousands of levels)") from None


def _expanded_size(root: Any, limit: int) -> int:
    """Nodes in the document with every alias expanded, counted without expanding them
    (each distinct node once, memoized); stops counting past ``limit``."""
    import yaml

    sizes: dict[int, int] = {}
    stack: list[tuple[Any, bool]] = [(root, False)]
    while stack:
        node, children_done = stack.pop()
        if id(node) in sizes:
            continue
        if isinstance(node, yaml.SequenceNode):
            children = list(node.value)
        elif isinstance(node, yaml.MappingNode):
            children = [part for pair in node.value for part in pair]
        else:
            sizes[id(node)] = 1
            continue
        if not children_done:
            stack.append((node, True))
            stack.extend((child, False) for child in children if id(child) not in sizes)
            continue
        sizes[id(node)] = min(limit + 1, 1 + sum(sizes.get(id(child), 1) for child in children))
    return sizes[id(root)]


_STRICT_LOADERS: dict[bool, Any] = {}
_KEY_TYPES = (str, int, float, bool, type(None))


def _strict_loader(fast: bool = False):  # type: ignore[no-untyped-def]
    """yaml.SafeLoader (``fast``: libyaml's CSafeLoader, None without libyaml) made strict
    and bounded for files others wrote.

    Rejected with the line and column: a key repeated in one mapping, a key that is not a
    plain scalar (``? [a, b]``), ``!!binary``, an integer over Python's digit limit, and a
    document whose aliases expand to more than ``MAX_YAML_NODES`` nodes.
    """
    if fast not in _STRICT_LOADERS:
        import yaml
        from yaml.constructor import ConstructorError

        base = getattr(yaml, "CSafeLoader", None) if fast else yaml.SafeLoader
        if base is None:
            _STRICT_LOADERS[fast] = None
            return None

        class StrictSafeLoader(base):  # type: ignore[misc, valid-type]
            def construct_document(self, node):  # type: ignore[no-untyped-def]
                if _expanded_size(node, MAX_YAML_NODES) > MAX_YAML_NODES:
                    raise ConstructorError(
                        None,
                        None,
                        f"its aliases expand to more than {MAX_YAML_NODES:,} values (a YAML alias bomb?)",
                        node.start_mark,
                    )
                return super().construct_document(node)

            def construct_mapping(self, node, deep=False):  # type: ignore[no-untyped-def]
                seen = set()
                for key_node, _ in node.value:
                    key = self.construct_object(key_node, deep=deep)
                    if not isinstance(key, _KEY_TYPES):
                        raise ConstructorError(
                            None,
                            None,
                            f"a mapping key must be a plain value (text or a number), not a {type(key).__name__}",
                            key_node.start_mark,
                        )
                    if key in seen:
                        raise ConstructorError(
                            None, None, f"key {key!r} appears twice in one mapping", key_node.start_mark
                        )
                    seen.add(key)
                return super().construct_mapping(node, deep=deep)

            def construct_yaml_int(self, node):  # type: ignore[no-untyped-def]
                try:
                    return super().construct_yaml_int(node)
                except ValueError as exc:
                    raise ConstructorError(None, None, _too_long(exc), node.start_mark) from None

            def construct_binary(self, node):  # type: ignore[no-untyped-def]
                raise ConstructorError(
                    None, None, "!!binary values are not accepted in toolscope inputs", node.start_mark
                )

        StrictSafeLoader.add_constructor("tag:yaml.org,2002:int", StrictSafeLoader.construct_yaml_int)
        StrictSafeLoader.add_constructor("tag:yaml.org,2002:binary", StrictSafeLoader.construct_binary)
        _STRICT_LOADERS[fast] = StrictSafeLoader
    return _STRICT_LOADERS[fast]


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
    exc: ValidationError, prefix: str = "", drop: Iterable[str] = (), model: type | None = None
) -> list[Problem]:
    """Pydantic errors as Problems; ``drop`` removes tagged-union noise from paths.

    With ``model``, an unknown field also names the fields allowed there and the closest one.
    """
    dropped = set(drop)
    problems = []
    for error in exc.errors(include_url=False):
        loc = [p for p in error["loc"] if p not in dropped]
        message = _FRIENDLY.get(error["type"], error["msg"])
        got = error.get("input")
        if error["type"] not in {"missing", "extra_forbidden"} and _is_short_scalar(got):
            message += f" (got {json.dumps(got)})"
        if error["type"] == "extra_forbidden" and model is not None and loc:
            message += _allowed_hint(model, loc)
        problems.append(Problem(format_location(loc, prefix), message))
    return problems


def _allowed_hint(model: type, loc: Sequence[int | str]) -> str:
    """ "; did you mean X? (allowed: a, b, c)" for an unknown key at ``loc``."""
    from toolscope.core.suggest import did_you_mean

    allowed = allowed_keys(model, loc[:-1])
    if not allowed:
        return ""
    close = did_you_mean(str(loc[-1]), allowed, limit=1)
    hint = f"; did you mean {close[0]}?" if close else ""
    return f"{hint} (allowed here: {', '.join(sorted(allowed))})"


def allowed_keys(model: type, path: Sequence[int | str]) -> tuple[str, ...]:
    """The field names (aliases where set) of the object at ``path`` inside ``model`` (a pydantic
    model or a ``core.validation`` record); () if unknown."""
    import types
    import typing

    current: Any = model
    parts = list(path)
    while True:
        origin = typing.get_origin(current)
        if origin in (typing.Union, types.UnionType):
            members = [m for m in typing.get_args(current) if m is not type(None)]
            current = next((m for m in members if _is_model(m) or typing.get_origin(m) is not None), None)
            if current is None:
                return ()
            continue
        if not parts:
            break
        part = parts.pop(0)
        if _is_model(current):
            current = _model_fields(current).get(str(part))
            if current is None:
                return ()
        elif origin in (dict, typing.Mapping) or origin is not None and str(origin).endswith("Mapping'>"):
            current = typing.get_args(current)[-1]
        elif origin in (tuple, list, typing.Sequence) and isinstance(part, int):
            current = typing.get_args(current)[0]
        else:
            return ()
    if _is_model(current):
        return tuple(_model_fields(current))
    return ()


def _is_model(value: Any) -> bool:
    # Duck-typed, so that checking never imports pydantic's BaseModel.
    from toolscope.core.validation import is_record

    return is_record(value) or (isinstance(value, type) and hasattr(value, "model_fields"))


def _model_fields(model: type) -> dict[str, Any]:
    """Key as written in the document (alias where set) → annotation."""
    from toolscope.core.validation import is_record, record_fields

    if is_record(model):
        options = getattr(model, "__validation__", {})
        return {k: v for k, v in record_fields(model).items() if not options.get(k, {}).get("extras")}
    return {f.alias or n: f.annotation for n, f in model.model_fields.items()}  # type: ignore[attr-defined]


# Pydantic's wording names Python types ("instance of McpServer", "valid tuple"); users
# wrote JSON or YAML, so say it in those terms.
_FRIENDLY = {
    "missing": "required field is missing",
    "extra_forbidden": "unknown field",
    "model_type": "expected an object",
    "model_attributes_type": "expected an object",
    "dict_type": "expected an object",
    "tuple_type": "expected a list",
    "list_type": "expected a list",
    "string_type": "expected a string",
    "bool_type": "expected true or false",
    "bool_parsing": "expected true or false",
    "int_type": "expected a whole number",
    "int_parsing": "expected a whole number",
    "float_type": "expected a number",
}


def _is_short_scalar(value: Any) -> bool:
    return isinstance(value, (str, int, float, bool)) and len(str(value)) <= 60


def validate_model(model: type[ModelT], data: Any, source: str, what: str, prefix: str = "") -> ModelT:
    """Validate data against a pydantic model; errors become one InputError naming the file."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise InputError(source, f"not a valid {what}", validation_problems(exc, prefix, model=model)) from None
