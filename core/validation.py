"""Frozen dataclasses validated by pydantic-core directly, for the files every command reads.

The registry and the step config are plain frozen dataclasses; their field annotations
are turned into a pydantic-core schema once, and validating gives pydantic's own errors
(same types, messages and locations, turned into ``Problem`` lines by
``documents.validation_problems``). Why not pydantic models: defining the first
``BaseModel`` class of a process costs about 60 ms of imports and schema building, more
than the rest of ``toolscope explain`` together; pydantic-core is already loaded by
``import pydantic``.

Supported annotations: ``str``, ``bool``, ``int``, ``X | None``, ``tuple[X, ...]``,
``dict[str, X]`` and nested validated dataclasses. A field's ``metadata`` may hold
``before`` (a function applied to the raw value first, like a pydantic ``mode="before"``
validator) and ``min_length`` (strings). A class sets ``__extra__`` to ``"forbid"`` (unknown keys are
errors, the default), ``"ignore"``, or ``"allow"``: unknown keys are kept in its field
whose metadata has ``extras`` (a ``dict[str, Any]``, like pydantic's ``model_extra``).
"""

from __future__ import annotations

import dataclasses
import types
import typing
from functools import cache
from typing import Any, TypeVar

from pydantic_core import SchemaValidator, ValidationError

from toolscope.core.errors import InputError

T = TypeVar("T")

__all__ = ["ValidationError", "validate", "validator"]


def _schema(annotation: Any) -> dict[str, Any]:
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if annotation is str:
        return {"type": "str"}
    if annotation is bool:
        return {"type": "bool"}
    if annotation is int:
        return {"type": "int"}
    if origin in (typing.Union, types.UnionType):
        others = [a for a in args if a is not type(None)]
        if len(others) != 1 or len(args) != 2:
            raise TypeError(f"only X | None unions are supported, got {annotation!r}")
        return {"type": "nullable", "schema": _schema(others[0])}
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        return {"type": "tuple", "items_schema": [_schema(args[0])], "variadic_item_index": 0}
    if origin is dict:
        return {"type": "dict", "keys_schema": _schema(args[0]), "values_schema": _schema(args[1])}
    if dataclasses.is_dataclass(annotation):
        return _class_schema(annotation)  # type: ignore[arg-type]
    raise TypeError(f"unsupported annotation {annotation!r}")


def _field_schema(field: dataclasses.Field[Any], annotation: Any) -> dict[str, Any]:
    schema = _schema(annotation)
    if "min_length" in field.metadata:
        schema = {**schema, "min_length": field.metadata["min_length"]}
    before = field.metadata.get("before")
    if before is not None:
        schema = {"type": "function-before", "function": {"type": "no-info", "function": before}, "schema": schema}
    has_default = field.default is not dataclasses.MISSING or field.default_factory is not dataclasses.MISSING
    return {"type": "typed-dict-field", "schema": schema, "required": not has_default}


def _constructor(cls: type, names: frozenset[str], extras_field: str | None) -> Any:
    if extras_field is None:
        return lambda data: cls(**data)

    def construct(data: dict[str, Any]) -> Any:
        known = {k: v for k, v in data.items() if k in names}
        known[extras_field] = {k: v for k, v in data.items() if k not in names}
        return cls(**known)

    return construct


@cache
def _class_schema(cls: type) -> dict[str, Any]:
    hints = typing.get_type_hints(cls)
    declared = dataclasses.fields(cls)
    extras_field = next((f.name for f in declared if f.metadata.get("extras")), None)
    fields = {f.name: _field_schema(f, hints[f.name]) for f in declared if f.name != extras_field}
    extra = getattr(cls, "__extra__", "forbid")
    if (extra == "allow") != (extras_field is not None):
        raise TypeError(f"{cls.__name__}: __extra__ = 'allow' needs exactly one field with metadata extras")
    # Keys absent from the input are absent from the dict: the dataclass supplies its defaults.
    return {
        "type": "function-after",
        "function": {"type": "no-info", "function": _constructor(cls, frozenset(fields), extras_field)},
        "schema": {"type": "typed-dict", "fields": fields, "extra_behavior": extra, "total": False},
    }


@cache
def validator(cls: type[T]) -> SchemaValidator:
    """The pydantic-core validator of a dataclass (built once per process)."""
    return SchemaValidator(_class_schema(cls))


def validate(cls: type[T], data: Any, source: str, what: str, prefix: str = "") -> T:
    """Validate data into ``cls``; errors become one InputError naming the file and each place."""
    from toolscope.core.documents import validation_problems

    try:
        result: T = validator(cls).validate_python(data)
    except ValidationError as exc:
        raise InputError(source, f"not a valid {what}", validation_problems(exc, prefix, model=cls)) from None
    return result
