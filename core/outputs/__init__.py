"""Writing what toolscope produces: every output file through one set of rules (``output_file``:
never an input, atomic, links and special files handled), stdout written whole (``stdout``),
and the fast ``tools --json`` writer (``tools_json``)."""
