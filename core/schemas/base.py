"""The base of every JSON model: strict shapes, every key always present, one serializer.

``Model`` is for nested objects, ``render`` turns any model into the text a command
prints (indented, UTF-8, a final newline). Models are plain pydantic: builders use
``model_construct`` where a document holds one object per tool (no validation cost on
the hot path; the test suite validates every document against its committed schema),
and normal construction elsewhere.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

__all__ = ["Model", "render"]


class Model(BaseModel):
    """A JSON object of a toolscope document: no extra keys, every key written."""

    model_config = ConfigDict(
        extra="forbid",
        frozen=True,
        # Every field is always written, so every field is required in the schema.
        json_schema_serialization_defaults_required=True,
        # Fields whose JSON name is a keyword or a BaseModel attribute (``schema``, ``from``)
        # use an alias; Python code uses the field name.
        validate_by_name=True,
        validate_by_alias=True,
        serialize_by_alias=True,
        # Field docstrings become the schema's descriptions.
        use_attribute_docstrings=True,
        # Bare NaN is not JSON: a non-finite float (YAML's .nan, .inf) is written as "NaN",
        # "Infinity" or "-Infinity".
        ser_json_inf_nan="strings",
    )


def render(document: BaseModel) -> str:
    """The document as printed and written: 2-space indent, non-ASCII kept, newline-terminated,
    characters a terminal would act on (C1 controls, bidi overrides) as ``\\uXXXX``.

    Byte-identical to ``json.dumps(data, indent=2, ensure_ascii=False)`` except for floats
    below 1e-4 (``1e-05`` is written ``0.00001``).
    """
    from ..text.safe_text import inert_json

    return inert_json(document.model_dump_json(indent=2)) + "\n"
