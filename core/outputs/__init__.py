"""Writing what toolscope produces: every output file through one set of rules (``output_file``:
never an input, atomic, links and special files handled), stdout written whole (``stdout``),
and JSON text as every writer lays it out (``json_text``: orjson where its bytes are json's).
The fast ``tools --json`` writer follows its model, so it lives beside it (``core.schemas.tools_json``)."""
