"""Reading files others wrote: regular files within the size limit (``input_files``), strict
JSON (``strict_json``) and safe, bounded YAML (``safe_yaml``) into ``Document``s (``documents``,
``document_cache``), and validating them into immutable records (``validation``) with errors
that name the place (``validation_errors``)."""
