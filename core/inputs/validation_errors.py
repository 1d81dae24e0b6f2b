"""Validation errors in the user's words: pydantic errors as Problems naming the place in the
document (``steps[0].agent_configs.selected_tools[2]``), the fields allowed there and the
closest one to an unknown key.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from pydantic_core import ValidationError

from ..model.errors import InputError, Problem

if TYPE_CHECKING:
    # Only for annotations: importing BaseModel costs every command pydantic's model machinery.
    from pydantic import BaseModel

ModelT = TypeVar("ModelT", bound="BaseModel")


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
    from ..text.suggest import did_you_mean

    allowed = allowed_keys(model, loc[:-1])
    if not allowed:
        return ""
    close = did_you_mean(str(loc[-1]), allowed, limit=1)
    hint = f"; did you mean {close[0]}?" if close else ""
    return f"{hint} (allowed here: {', '.join(sorted(allowed))})"


def allowed_keys(model: type, path: Sequence[int | str]) -> tuple[str, ...]:
    """The field names (aliases where set) of the object at ``path`` inside ``model`` (a pydantic
    model or a ``core.inputs.validation`` record); () if unknown."""
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
    from .validation import is_record

    return is_record(value) or (isinstance(value, type) and hasattr(value, "model_fields"))


def _model_fields(model: type) -> dict[str, Any]:
    """Key as written in the document (alias where set) → annotation."""
    from .validation import is_record, record_fields

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
