"""Validate toolscope's ``--json`` documents against their committed JSON Schemas.

``validated(text)`` parses a document and validates it against the schema its ``schema``
field names; ``validate_document(data)`` does the same for parsed data. ``conftest.py``
runs every ``CliRunner`` output of the suite through ``validate_output``, so a command
printing a document its schema does not allow fails the test that ran it. Call
``validated`` yourself for documents read from a subprocess or a written file.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import jsonschema

from toolscope.core.schemas import ENVELOPES, committed_schema


@cache
def _validator(schema_id: str) -> jsonschema.Draft202012Validator:
    schema = committed_schema(schema_id)
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER)


def validate_document(document: Any) -> dict[str, Any]:
    """Raise jsonschema.ValidationError unless the document matches its own schema id."""
    assert isinstance(document, dict), f"a toolscope document is a JSON object, got {type(document).__name__}"
    schema_id = document.get("schema")
    assert schema_id in ENVELOPES, f"unknown schema id {schema_id!r}"
    _validator(schema_id).validate(document)
    return document


def validated(text: str) -> dict[str, Any]:
    """Parse a printed or written document and validate it; returns the data."""
    return validate_document(json.loads(text))


def validate_output(stdout: str) -> None:
    """Validate stdout when it is a toolscope document (anything else is left alone)."""
    if not stdout.lstrip().startswith("{"):
        return
    try:
        document = json.loads(stdout)
    except ValueError:
        return
    schema_id = document.get("schema") if isinstance(document, dict) else None
    # A toolscope schema id the registry does not know fails too: new documents get a model.
    if isinstance(schema_id, str) and schema_id.startswith("toolscope."):
        validate_document(document)
