"""A real MCP stdio server in the standard library only: tools named on argv, answering in ~50 ms.

usage: rawmcp.py [--fail] [--delay S] [--call-delay S] [--verbatim] NAME[:ro][:always] ...  (``ro``:
annotations.readOnlyHint; ``always``: _meta {"anthropic/alwaysLoad": true}; ``--fail``: exit at once;
``--delay``: sleep before serving; ``--call-delay``: sleep before answering each call; ``--verbatim``:
each NAME whole, ":" included and no flags, for the name-sanitising experiments). It starts faster than
the CLIs wait for servers, so a capture sees its tools on the first request; a call answers "called NAME".
"""

import json
import sys
import time

args = sys.argv[1:]
if "--fail" in args:
    sys.exit(1)
delay = call_delay = 0.0
if "--delay" in args:
    i = args.index("--delay")
    delay = float(args[i + 1])
    del args[i : i + 2]
if "--call-delay" in args:
    i = args.index("--call-delay")
    call_delay = float(args[i + 1])
    del args[i : i + 2]
verbatim = "--verbatim" in args
if verbatim:
    args.remove("--verbatim")
tools = []
for spec in args:
    name, *flags = [spec] if verbatim else spec.split(":")
    t = {"name": name, "description": f"tool {name}", "inputSchema": {"type": "object", "properties": {}}}
    if "ro" in flags:
        t["annotations"] = {"readOnlyHint": True}
    if "always" in flags:
        t["_meta"] = {"anthropic/alwaysLoad": True}
    tools.append(t)

time.sleep(delay)
for line in sys.stdin:
    try:
        msg = json.loads(line)
    except ValueError:
        continue
    if "id" not in msg:
        continue
    m = msg.get("method")
    if m == "initialize":
        res = {
            "protocolVersion": msg.get("params", {}).get("protocolVersion", "2025-06-18"),
            "capabilities": {"tools": {"listChanged": False}},
            "serverInfo": {"name": "rawmcp", "version": "1"},
        }
    elif m == "tools/list":
        res = {"tools": tools}
    elif m == "tools/call":
        time.sleep(call_delay)
        res = {"content": [{"type": "text", "text": "called " + msg["params"]["name"]}]}
    elif m == "ping":
        res = {}
    else:
        sys.stdout.write(
            json.dumps({"jsonrpc": "2.0", "id": msg["id"], "error": {"code": -32601, "message": "no"}}) + "\n"
        )
        sys.stdout.flush()
        continue
    sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": res}) + "\n")
    sys.stdout.flush()
