"""A hand-written stdio MCP server that answers wrongly on purpose (the SDK's server cannot).

Usage: ``python raw_mcp_server.py MODE`` with MODE one of
  badlist  ``tools/list`` answers ``{"tools": "not a list"}``
  loop     ``tools/list`` answers a page whose ``nextCursor`` is always the same
  nonutf8  ``initialize`` is answered with bytes that are not UTF-8
  banner   a banner line on stdout first, then correct answers (servers do this)
"""

import json
import sys

mode = sys.argv[1]
out = sys.stdout.buffer


def send(message: dict) -> None:
    out.write(json.dumps(message).encode() + b"\n")
    out.flush()


if mode == "banner":
    out.write(b"Starting server v1.0 ...\n")
    out.flush()
for raw in sys.stdin.buffer:
    request = json.loads(raw)
    if "id" not in request:
        continue
    if request["method"] == "initialize":
        if mode == "nonutf8":
            out.write(b"\xff\xfe\xfd not utf-8 \x80\n")
            out.flush()
            continue
        result = {
            "protocolVersion": request["params"]["protocolVersion"],
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "raw", "version": "1"},
        }
        send({"jsonrpc": "2.0", "id": request["id"], "result": result})
    elif request["method"] == "tools/list":
        tools = [{"name": "t", "inputSchema": {"type": "object"}}]
        if mode == "badlist":
            send({"jsonrpc": "2.0", "id": request["id"], "result": {"tools": "not a list"}})
        elif mode == "loop":
            send({"jsonrpc": "2.0", "id": request["id"], "result": {"tools": tools, "nextCursor": "same"}})
        else:
            send({"jsonrpc": "2.0", "id": request["id"], "result": {"tools": tools}})
    else:
        send({"jsonrpc": "2.0", "id": request["id"], "result": {}})
