"""How each MCP server is reached: the SDK's transport for its protocol, and how it is started,
with every secret masked (for output and snapshots)."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

from .config import ServerConfig
from .http_limits import BodyLimit, capped_client
from .redact import (
    redact_args,
    redact_command,
    redact_mapping,
    redact_url,
    replace_secrets,
    scrubbable,
    secret_values,
)


def launch_summary(server: ServerConfig) -> dict[str, Any]:
    """How a server is started, with every secret masked (for output and snapshots)."""
    secrets = secret_values(server)
    # A value that came from the environment (``${VAR}``) is masked whatever it looks like.
    ordered = scrubbable((), server.environ_values)
    protocol = server.effective_protocol
    if protocol == "stdio":
        return {
            "protocol": protocol,
            "command": replace_secrets(redact_command(server.command or "", secrets), ordered),
            "args": [replace_secrets(a, ordered) for a in redact_args(server.args, secrets)],
            "env": redact_mapping(server.env),
            "working_dir": server.directory,
        }
    url = redact_url(server.url)
    return {
        "protocol": protocol,
        "url": replace_secrets(url, ordered) if url else url,
        "headers": redact_mapping(server.headers),
    }


@contextlib.asynccontextmanager
async def open_transport(server: ServerConfig, errlog: Any, timeout: float, limit: BodyLimit) -> AsyncIterator[Any]:
    """The SDK transport for one server, yielding (read_stream, write_stream)."""
    protocol = server.effective_protocol
    if protocol == "stdio":
        from mcp.client.stdio import StdioServerParameters, stdio_client

        params = StdioServerParameters(
            command=server.command or "",
            args=list(server.args),
            # The client's environment (toolscope's own unless a client model set it) plus the entry's env.
            env=server.launch_env,
            cwd=server.directory,
            # Undecodable bytes become U+FFFD and a parse error we report; "strict" would
            # end the SDK's reader and leave the handshake waiting until the timeout.
            encoding_error_handler="replace",
        )
        async with stdio_client(params, errlog=errlog) as streams:
            yield streams
    elif protocol == "http":
        from mcp.client.streamable_http import streamable_http_client

        # Passing our own client is the SDK's documented way to set headers; it also caps bodies.
        async with capped_client(dict(server.headers), limit) as http:
            async with streamable_http_client(server.url or "", http_client=http) as streams:
                yield streams[0], streams[1]
    else:
        from mcp.client.sse import sse_client

        def factory(headers: dict[str, str] | None = None, timeout: Any = None, auth: Any = None) -> Any:
            client = capped_client(dict(headers or {}), limit)
            if timeout is not None:
                client.timeout = timeout
            if auth is not None:
                client.auth = auth
            return client

        async with sse_client(
            server.url or "", headers=dict(server.headers), timeout=timeout, httpx_client_factory=factory
        ) as streams:
            yield streams[0], streams[1]
