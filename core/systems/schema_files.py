"""``python -m toolscope.core.systems.schema_files [FOLDER]``: write every committed JSON Schema.

The models are in ``core.schemas``; the enums of their open string types (stage ids, finding
kinds, input kinds) are what the registry's systems declare, so the schemas are generated
here, above both (default FOLDER: next to the models, where they ship as package data).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from .. import schemas
from ..schemas import ENVELOPES, Vocabularies, generate_schema, schema_file_name, schema_text
from . import registry

__all__ = ["generated_schema", "main", "vocabularies"]


def vocabularies() -> Vocabularies:
    """Each open string type's values, from the registry (in registry order)."""
    return {
        "StageId": registry.stage_ids(),
        "FindingKind": registry.finding_kinds(),
        "InputKind": registry.input_kinds(),
    }


def generated_schema(schema_id: str) -> dict[str, Any]:
    """The schema of ``schema_id`` with the registry's vocabularies."""
    return generate_schema(schema_id, vocabularies())


def main(argv: list[str]) -> int:
    """Write each ``*.schema.json`` that differs; print the files written."""
    folder = Path(argv[0]) if argv else Path(schemas.__file__).resolve().parent
    words = vocabularies()
    for schema_id in ENVELOPES:
        path = folder / schema_file_name(schema_id)
        text = schema_text(schema_id, words)
        if not path.exists() or path.read_text("utf-8") != text:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
