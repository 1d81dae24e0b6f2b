"""A hand-written stdio MCP server that answers wrongly on purpose (the SDK's server cannot).

Usage: ``python raw_mcp_server.py MODE`` with MODE one of
  badlist   ``tools/list`` answers ``{"tools": "not a list"}``
  loop      ``tools/list`` answers a page whose ``nextCursor`` is always the same
  nonutf8   ``initialize`` is answered with bytes that are not UTF-8
  banner    a banner line on stdout first, then correct answers (servers do this)
  notjson   a line that is not JSON (with an escape sequence) on stdout first, then silence
  deep      ``tools/list`` answers a tool whose schema is nested 10,000 levels deep
  stray     every request is answered with an id no request had (id + 1000)
  exit0     exits cleanly (code 0) before reading anything
  closeout  closes its stdout at start and keeps running (ignoring SIGTERM)
  sigkill   kills itself with SIGKILL when asked for ``tools/list``
  sigterm   kills itself with SIGTERM when asked for ``tools/list`` (its own -15, not ours)
  strayonce one stray answer (id 999) at start, then correct but slow answers (``tools/list``: 3 s)

It speaks only the handshake era: ``server/discover`` gets "method not found", as from any
server older than the 2026-07-28 protocol.
"""

import json
import os
import signal
import sys
import time

mode = sys.argv[1]
out = sys.stdout.buffer


def send(message: dict) -> None:
    out.write(json.dumps(message).encode() + b"\n")
    out.flush()


if mode == "exit0":
    sys.exit(0)
if mode == "closeout":
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    os.close(1)
    time.sleep(300)
if mode == "banner":
    out.write(b"Starting server v1.0 ...\n")
    out.flush()
if mode == "strayonce":
    send({"jsonrpc": "2.0", "id": 999, "result": {}})
if mode == "notjson":
    out.write(b"Starting \x1b[31mserver\x1b[0m on port 8080\n")
    out.flush()
    time.sleep(300)
for raw in sys.stdin.buffer:
    request = json.loads(raw)
    if "id" not in request:
        continue
    answer_id = request["id"] + 1000 if mode == "stray" else request["id"]
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
        send({"jsonrpc": "2.0", "id": answer_id, "result": result})
    elif request["method"] == "tools/list":
        tools = [{"name": "t", "inputSchema": {"type": "object"}}]
        if mode == "strayonce":
            time.sleep(3)  # longer than the 2 s grace a stray answer gets: forgiven, it answered since
        if mode == "sigkill":
            os.kill(os.getpid(), signal.SIGKILL)
        if mode == "sigterm":
            os.kill(os.getpid(), signal.SIGTERM)
        if mode == "badlist":
            send({"jsonrpc": "2.0", "id": answer_id, "result": {"tools": "not a list"}})
        elif mode == "loop":
            send({"jsonrpc": "2.0", "id": answer_id, "result": {"tools": tools, "nextCursor": "same"}})
        elif mode == "deep":
            depth = 10_000
            schema = '{"type":"object","properties":{"a":' * depth + "{}" + "}}" * depth
            tool = '{"name":"t","inputSchema":' + schema + "}"
            line = '{"jsonrpc":"2.0","id":' + str(answer_id) + ',"result":{"tools":[' + tool + "]}}"
            out.write(line.encode() + b"\n")
            out.flush()
        else:
            send({"jsonrpc": "2.0", "id": answer_id, "result": {"tools": tools}})
    else:
        error = {"code": -32601, "message": f"Method not found: {request['method']}"}
        send({"jsonrpc": "2.0", "id": answer_id, "error": error})
