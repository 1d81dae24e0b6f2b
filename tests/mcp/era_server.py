"""A stdio MCP server of one protocol era, built from the SDK's own server classes (mcp >= 2).

Usage: ``python era_server.py ERA [--ttl-ms N] [--scope public|private] [--tools a,b]``

  both    ``Server.run``: the SDK's dual-era loop (the client's first request decides)
  legacy  ``serve_loop``: the handshake era only (``server/discover`` before ``initialize``
          is refused, as by any server older than 2026-07-28)
  modern  the 2026-07-28 era only: every request served by ``modern_on_request``;
          ``initialize`` refused with -32022 naming the versions it speaks

``--ttl-ms``/``--scope`` set the cache hints of every tools/list page (``ttlMs``,
``cacheScope``); ``--page-size`` splits the listing into pages.
"""

from __future__ import annotations

import argparse
from typing import Any


def build(args: argparse.Namespace) -> Any:
    import mcp_types as types
    from mcp.server.lowlevel import Server

    names = [n for n in args.tools.split(",") if n]

    async def list_tools(ctx: Any, params: Any) -> Any:
        start = int(params.cursor) if params and params.cursor else 0
        page = names[start : start + args.page_size]
        end = start + len(page)
        hints: dict[str, Any] = {}
        if args.ttl_ms is not None:
            hints["ttl_ms"] = args.ttl_ms
        if args.scope is not None:
            hints["cache_scope"] = args.scope
        return types.ListToolsResult(
            tools=[
                types.Tool(name=n, description=f"{args.era} tool {n}", input_schema={"type": "object"}) for n in page
            ],
            next_cursor=str(end) if end < len(names) else None,
            **hints,
        )

    return Server(f"era-{args.era}", on_list_tools=list_tools)


async def serve(args: argparse.Namespace) -> None:
    from mcp.server.stdio import stdio_server

    server = build(args)
    async with stdio_server() as (read, write):
        if args.era == "both":
            await server.run(read, write, server.create_initialization_options())
            return
        async with server.lifespan(server) as state:
            if args.era == "legacy":
                from mcp.server.runner import serve_loop

                await serve_loop(
                    server, read, write, lifespan_state=state, init_options=server.create_initialization_options()
                )
                return
            await serve_modern(server, read, write, state)


async def serve_modern(server: Any, read: Any, write: Any, state: Any) -> None:
    from mcp.server.runner import modern_on_request
    from mcp.shared.exceptions import MCPError
    from mcp.shared.jsonrpc_dispatcher import JSONRPCDispatcher
    from mcp_types import UNSUPPORTED_PROTOCOL_VERSION
    from mcp_types.version import MODERN_PROTOCOL_VERSIONS

    modern = modern_on_request(server, state)

    async def on_request(dctx: Any, method: str, params: Any) -> Any:
        if method == "initialize":
            requested = (params or {}).get("protocolVersion")
            raise MCPError(
                UNSUPPORTED_PROTOCOL_VERSION,
                "this server speaks only the 2026-07-28 protocol: no initialize handshake",
                {"supported": list(MODERN_PROTOCOL_VERSIONS), "requested": requested},
            )
        return await modern(dctx, method, params)

    async def on_notify(dctx: Any, method: str, params: Any) -> None:
        return None

    await JSONRPCDispatcher(read, write).run(on_request, on_notify)


def main() -> None:
    import anyio

    parser = argparse.ArgumentParser()
    parser.add_argument("era", choices=["both", "legacy", "modern"])
    parser.add_argument("--ttl-ms", type=int)
    parser.add_argument("--scope", choices=["public", "private"])
    parser.add_argument("--tools", default="alpha,beta")
    parser.add_argument("--page-size", type=int, default=100)
    anyio.run(serve, parser.parse_args())


if __name__ == "__main__":
    main()
