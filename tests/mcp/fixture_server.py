"""An MCP server (official SDK, low-level ``Server``) that misbehaves on request.

Usage: ``python fixture_server.py [--mode MODE] [--tools a,b,c] [--count N] [--page-size K]
[--spawn-child PIDFILE] [--ignore-sigterm] [--http PORT]``

Modes:
  ok          answer normally (tools from ``--tools``, or ``tool_0000``… for ``--count``)
  exit        exit with code 3 before reading anything
  hang        never answer ``initialize`` (sleeps without reading stdin)
  fail-list   answer ``initialize``, fail every ``tools/list`` with an error
  crash-list  answer ``initialize``, then die (exit 4) when asked for ``tools/list``
  markup      tool names and descriptions full of Rich markup and ANSI escapes
  env         one tool whose description is the value of $FIXTURE_ECHO (leak tests), and of
              every variable named by --echo (comma-separated)

``--marker FILE`` appends a line to FILE as soon as the server starts (the opt-in tests: a server
toolscope must not start leaves no FILE), then ``NAME=value`` (or ``NAME unset``) for each
variable ``--marker-env A,B`` names, and ``argv ARG`` for each argument: what the server got. ``--spawn-child PIDFILE`` starts a grandchild (``sleep``) and writes its PID to PIDFILE,
so tests can check that the whole process group is reaped. ``--http PORT`` serves
streamable HTTP on 127.0.0.1:PORT at ``/mcp`` instead of stdio; ``--sse PORT`` serves the
legacy SSE transport at ``/sse``.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import time

MARKUP_NAMES = ["[bold red]boom[/bold red]", "\x1b[31mred\x1b[0m", "<b>html</b>"]


def _tool_names(args: argparse.Namespace) -> list[str]:
    if args.mode == "markup":
        return MARKUP_NAMES
    if args.mode == "env":
        return ["echo_env"]
    if args.count:
        return [f"tool_{i:04d}" for i in range(args.count)]
    return [n for n in args.tools.split(",") if n]


def _description(args: argparse.Namespace, name: str) -> str:
    if args.mode == "markup":
        return "[link=http://evil]click[/link] \x1b]8;;http://evil\x07x\x1b]8;;\x07"
    if args.mode == "env":
        echoed = [os.environ.get(n, "") for n in args.echo.split(",") if n]
        return "echo: " + " ".join([os.environ.get("FIXTURE_ECHO", ""), *echoed])
    return f"Fixture tool {name}."


def build_server(args: argparse.Namespace):  # mcp imported lazily
    """The low-level server: a custom ``tools/list`` handler gives us real cursors."""
    import mcp_types as types
    from mcp.server.lowlevel import Server

    names = _tool_names(args)

    async def list_tools(ctx, params):
        if args.mode == "fail-list":
            from mcp.shared.exceptions import MCPError

            raise MCPError(-32603, "fixture: tools/list refused on purpose")
        if args.mode == "crash-list":
            os._exit(4)
        start = int(params.cursor) if params and params.cursor else 0
        page = names[start : start + args.page_size]
        end = start + len(page)
        tools = [
            types.Tool(name=n, description=_description(args, n), input_schema={"type": "object", "properties": {}})
            for n in page
        ]
        return types.ListToolsResult(tools=tools, next_cursor=str(end) if end < len(names) else None)

    return Server("fixture", on_list_tools=list_tools)


def _serve_sse(args: argparse.Namespace) -> None:
    """The same tools over the legacy SSE transport (high-level MCPServer)."""
    import uvicorn
    from mcp.server.mcpserver import MCPServer

    server = MCPServer("fixture-sse", log_level="CRITICAL")
    for name in _tool_names(args):

        def tool() -> str:
            return "ok"

        server.tool(name=name, description=_description(args, name))(tool)
    uvicorn.run(server.sse_app(), host="127.0.0.1", port=args.sse, log_level="critical")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", default="ok")
    parser.add_argument("--tools", default="alpha,beta")
    parser.add_argument("--count", type=int, default=0)
    parser.add_argument("--page-size", type=int, default=100)
    parser.add_argument("--spawn-child")
    parser.add_argument("--marker")
    parser.add_argument("--echo", default="")
    parser.add_argument("words", nargs="*")  # accepted and ignored: written to --marker, to see what arrived
    parser.add_argument("--marker-env", dest="env_names", type=lambda v: [n for n in v.split(",") if n], default=[])
    parser.add_argument("--ignore-sigterm", action="store_true")
    parser.add_argument("--http", type=int)
    parser.add_argument("--sse", type=int)
    parser.add_argument("--api-key")  # accepted and ignored: secrets-on-the-command-line tests
    parser.add_argument("--pat")  # the same, as a personal access token flag
    parser.add_argument("-t")  # the same, as a short token flag
    args = parser.parse_args()

    if args.marker:
        with open(args.marker, "a") as fh:
            fh.write(f"started {os.getpid()}\n")
            fh.writelines(f"{n}={os.environ[n]}\n" if n in os.environ else f"{n} unset\n" for n in args.env_names)
            fh.writelines(f"argv {a}\n" for a in sys.argv[1:])
    if args.ignore_sigterm:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    if args.spawn_child:
        child = subprocess.Popen(["sleep", "300"])
        with open(args.spawn_child, "w") as fh:
            fh.write(str(child.pid))
    if args.mode == "exit":
        print("fixture: exiting at start on purpose", file=sys.stderr)
        sys.exit(3)
    if args.mode == "hang":
        while True:  # never reads stdin, never answers initialize
            time.sleep(3600)

    if args.sse:
        _serve_sse(args)
        return
    server = build_server(args)
    if args.http:
        import uvicorn

        app = server.streamable_http_app(streamable_http_path="/mcp")
        uvicorn.run(app, host="127.0.0.1", port=args.http, log_level="critical")
        return

    import anyio
    from mcp.server.stdio import stdio_server

    async def serve() -> None:
        async with stdio_server() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())

    anyio.run(serve)


if __name__ == "__main__":
    main()
