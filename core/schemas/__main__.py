"""``python -m toolscope.core.schemas [FOLDER]``: write every generated schema (default: next to the models)."""

from __future__ import annotations

import sys
from pathlib import Path

from . import ENVELOPES, schema_file_name, schema_text


def main(argv: list[str]) -> int:
    """Write each ``*.schema.json``; print the files that changed."""
    folder = Path(argv[0]) if argv else Path(__file__).resolve().parent
    for schema_id in ENVELOPES:
        path = folder / schema_file_name(schema_id)
        text = schema_text(schema_id)
        if not path.exists() or path.read_text("utf-8") != text:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
