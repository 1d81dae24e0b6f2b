"""A stdio MCP server on the official SDK (MCPServer, mcp 2.x) for the #32 experiments.

usage: sdk_server.py OUT_JSON DELAY_SECONDS TOOL...  Writes {"started": epoch, "env_keys": [...],
"env_values_of": {...}} to OUT_JSON at once (values only for keys starting with ``XPROBE``), sleeps
DELAY_SECONDS, then serves the named tools over stdio.
"""

import json
import os
import sys
import time

out, delay, *tools = sys.argv[1:]
record = {
    "started": time.time(),
    "argv": sys.argv[1:],
    "env_keys": sorted(os.environ),
    "env_values_of": {k: v for k, v in os.environ.items() if k.startswith("XPROBE")},
}
with open(out, "w", encoding="utf-8") as fh:
    json.dump(record, fh)
time.sleep(float(delay))

from mcp.server.mcpserver import MCPServer  # noqa: E402  (after the sleep: the start-up cost is the delay)

app = MCPServer("sdk", log_level="CRITICAL")
for name in tools or ["x"]:

    def tool() -> str:
        return "called"

    app.tool(name=name, description=f"tool {name}")(tool)
with open(out + ".ready", "w", encoding="utf-8") as fh:
    fh.write(str(time.time()))
app.run("stdio")
