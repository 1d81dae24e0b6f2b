"""The server's accepted connections send at once (TCP_NODELAY): no Nagle stall on replies."""

from __future__ import annotations

import socket
import time

import httpx


def _accepted_sockets(server) -> list[socket.socket]:  # noqa: ANN001 - a CaptureServer
    # uvicorn keeps each open connection's protocol, whose transport holds the accepted socket.
    connections = server._server.server_state.connections
    return [conn.transport.get_extra_info("socket") for conn in connections]


def test_an_accepted_connection_has_tcp_nodelay(start_server) -> None:
    # Without it uvicorn's two writes of a reply (head, then body) wait for the client's
    # delayed ACK: about 40 ms added to every request (found by benchmarks/capture_bench.py).
    server = start_server()
    with httpx.Client() as client:  # keep-alive: the connection stays open after the reply
        assert client.get(f"{server.url}/v1/models").status_code == 200
        deadline = time.monotonic() + 10
        while not (accepted := _accepted_sockets(server)) and time.monotonic() < deadline:
            time.sleep(0.01)
        assert accepted, "the server holds no open connection"
        for sock in accepted:
            assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) != 0
