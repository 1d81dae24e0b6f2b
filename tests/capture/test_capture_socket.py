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


def _endless_header(port: int, megabytes: int) -> tuple[int, bytes]:
    """Send one header line that never ends; (MiB sent before the server closed, what it answered)."""
    sent = 0
    with socket.create_connection(("127.0.0.1", port), timeout=20) as sock:
        sock.sendall(b"POST /v1/messages HTTP/1.1\r\nHost: x\r\nX-Long: ")
        try:
            while sent < megabytes:
                sock.sendall(b"a" * (1 << 20))
                sent += 1
        except OSError:
            pass  # closed by the server
        try:
            answer = sock.recv(200)
        except OSError:
            answer = b""
    return sent, answer


def test_an_endless_header_line_is_refused_with_memory_bounded(start_server) -> None:
    import psutil

    server = start_server()
    before = psutil.Process().memory_info().rss
    sent, answer = _endless_header(server.port, 60)
    grown = psutil.Process().memory_info().rss - before
    assert answer.startswith(b"HTTP/1.1 431 "), (sent, answer)
    assert sent < 60 and grown < 16 * 1024 * 1024, (sent, grown)  # it grew by more than was sent
    # A large but ordinary head (32 KiB of headers) is still served.
    ordinary = httpx.get(f"{server.url}/v1/models", headers={f"x-h{i}": "v" * 1000 for i in range(32)})
    assert ordinary.status_code == 200
