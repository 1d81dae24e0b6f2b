"""Writing what toolscope produces: every output file through one set of rules (``output_file``:
never an input, atomic, links and special files handled), stdout written whole (``stdout``),
the fast ``tools --json`` writer (``tools_json``), and JSON text as every writer lays it out
(``json_text``: orjson where its bytes are json's)."""
