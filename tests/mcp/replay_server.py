"""Replays a recorded answer to ``initialize`` (``recorded/*.json``) on stdio, with the id of
the request it answers; any other request gets "method not found". No mcp import: it runs
in every lane, mcp 1.x included.

Usage: ``python replay_server.py RECORDING``
"""

import json
import sys

recording = json.loads(open(sys.argv[1], encoding="utf-8").read())
for raw in sys.stdin:
    request = json.loads(raw)
    if "id" not in request:
        continue
    if request.get("method") == recording["request"]["method"]:
        answer = {**recording["response"], "id": request["id"]}
    else:
        answer = {"jsonrpc": "2.0", "id": request["id"], "error": {"code": -32601, "message": "Method not found"}}
    sys.stdout.write(json.dumps(answer) + "\n")
    sys.stdout.flush()
