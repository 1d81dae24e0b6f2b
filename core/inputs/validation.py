"""Immutable records validated by pydantic-core directly, for the files every command reads.

The registry and the step config are named tuples; their field annotations are turned
into a pydantic-core schema once, and validating gives pydantic's own errors (same types,
messages and locations, turned into ``Problem`` lines by ``validation_errors.validation_problems``).
Why not pydantic models: defining the first ``BaseModel`` class of a process costs about
60 ms of imports and schema building, more than the rest of ``toolscope explain``
together, while pydantic-core is already loaded by ``import pydantic``. Measured again
(issue 24, CPU time in a fresh interpreter, loaded 2-core machine): after ``import
pydantic`` (134 ms), importing the registry and step-config records and building their
validators costs 43 ms; the same shapes as pydantic models cost 226 ms, which would take
``explain`` (358 ms) from 1.07x to about 1.6x its import baseline (goal 1.3x). Why named tuples
rather than frozen dataclasses: a dataclass compiles its methods when it is defined
(about 0.4 ms each, every run); a named tuple costs a tenth of that.

Supported annotations: ``str``, ``bool``, ``int``, ``Any`` (not validated), ``X | None``,
``tuple[X, ...]``, ``Mapping[str, X]`` / ``dict[str, X]`` and nested validated records.
A record's ``__validation__`` maps field names to options: ``before`` (a function applied
to the raw value first, like a pydantic ``mode="before"`` validator), ``min_length``
(strings), ``extras`` (this field receives the unknown keys); and ``__extra__`` is
``"forbid"`` (unknown keys are errors, the default), ``"ignore"`` or ``"allow"`` (kept in
the ``extras`` field, like pydantic's ``model_extra``).
"""

from __future__ import annotations

import collections.abc
import types
import typing
from functools import cache
from typing import Any, TypeVar

from pydantic_core import SchemaValidator, ValidationError

from ..model.errors import InputError

T = TypeVar("T")

__all__ = ["EMPTY", "ValidationError", "is_record", "record_fields", "validate", "validator"]

EMPTY: collections.abc.Mapping[str, Any] = types.MappingProxyType({})
"""The default of a mapping field: empty and read-only (a default is shared by every record)."""


def is_record(value: Any) -> bool:
    """A validated record class (a named tuple with annotations)."""
    return isinstance(value, type) and issubclass(value, tuple) and hasattr(value, "_fields")


def record_fields(cls: type) -> dict[str, Any]:
    """Field name → annotation, in order."""
    hints = typing.get_type_hints(cls)
    return {name: hints[name] for name in cls._fields}  # type: ignore[attr-defined]


def _schema(annotation: Any) -> dict[str, Any]:
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    simple = {str: "str", bool: "bool", int: "int", Any: "any"}.get(annotation)
    if simple is not None:
        return {"type": simple}
    if origin in (typing.Union, types.UnionType):
        others = [a for a in args if a is not type(None)]
        if len(others) != 1 or len(args) != 2:
            raise TypeError(f"only X | None unions are supported, got {annotation!r}")
        return {"type": "nullable", "schema": _schema(others[0])}
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        return {"type": "tuple", "items_schema": [_schema(args[0])], "variadic_item_index": 0}
    if origin in (dict, collections.abc.Mapping):
        return {"type": "dict", "keys_schema": _schema(args[0]), "values_schema": _schema(args[1])}
    if is_record(annotation):
        return _record_schema(annotation)
    raise TypeError(f"unsupported annotation {annotation!r}")


def _field_schema(annotation: Any, options: dict[str, Any], required: bool) -> dict[str, Any]:
    schema = _schema(annotation)
    if "min_length" in options:
        schema = {**schema, "min_length": options["min_length"]}
    before = options.get("before")
    if before is not None:
        schema = {"type": "function-before", "function": {"type": "no-info", "function": before}, "schema": schema}
    return {"type": "typed-dict-field", "schema": schema, "required": required}


def _constructor(cls: Any, names: frozenset[str], extras_field: str | None) -> Any:
    if extras_field is None:
        return lambda data: cls(**data)

    def construct(data: dict[str, Any]) -> Any:
        known = {k: v for k, v in data.items() if k in names}
        known[extras_field] = {k: v for k, v in data.items() if k not in names}
        return cls(**known)

    return construct


@cache
def _record_schema(cls: type) -> dict[str, Any]:
    options: dict[str, dict[str, Any]] = getattr(cls, "__validation__", {})
    extras_field = next((name for name, o in options.items() if o.get("extras")), None)
    defaults = cls._field_defaults  # type: ignore[attr-defined]
    fields = {
        name: _field_schema(annotation, options.get(name, {}), required=name not in defaults)
        for name, annotation in record_fields(cls).items()
        if name != extras_field
    }
    extra = getattr(cls, "__extra__", "forbid")
    if (extra == "allow") != (extras_field is not None):
        raise TypeError(f"{cls.__name__}: __extra__ = 'allow' needs exactly one field with the extras option")
    # Keys absent from the input are absent from the dict: the record supplies its defaults.
    return {
        "type": "function-after",
        "function": {"type": "no-info", "function": _constructor(cls, frozenset(fields), extras_field)},
        "schema": {"type": "typed-dict", "fields": fields, "extra_behavior": extra, "total": False},
    }


@cache
def validator(cls: type[T]) -> SchemaValidator:
    """The pydantic-core validator of a record class (built once per process)."""
    return SchemaValidator(_record_schema(cls))  # type: ignore[arg-type]  # classes are hashable


def validate(cls: type[T], data: Any, source: str, what: str, prefix: str = "") -> T:
    """Validate data into ``cls``; errors become one InputError naming the file and each place."""
    from .validation_errors import validation_problems

    try:
        result: T = validator(cls).validate_python(data)  # type: ignore[arg-type]  # classes are hashable
    except ValidationError as exc:
        raise InputError(source, f"not a valid {what}", validation_problems(exc, prefix, model=cls)) from None
    return result
