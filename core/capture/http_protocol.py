"""uvicorn's httptools protocol with a limit on a request's head (request line and headers).

httptools (llhttp) has no limit of its own, and uvicorn's protocol gathers the URL and each
header value as they come: a client that sends one header line that never ends grew the
capture server by as many bytes as it sent (hundreds of MB). Here the bytes received while
a request's head is incomplete are counted, and past ``MAX_HEAD_BYTES`` the connection gets
a 431 and is closed. The body is not counted (``wire_errors.MAX_BODY_BYTES`` bounds it).
"""

from __future__ import annotations

from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

__all__ = ["MAX_HEAD_BYTES", "BoundedHttpToolsProtocol"]

MAX_HEAD_BYTES = 64 * 1024
"""The most bytes of a request line and headers together (Node's and nginx's defaults are 16-64 KiB;
a Claude Code or Codex request's head is about 1 KiB)."""
_REFUSAL = b"request line and headers are over 65,536 bytes"


class BoundedHttpToolsProtocol(HttpToolsProtocol):
    """``HttpToolsProtocol`` refusing a request head over ``MAX_HEAD_BYTES`` (431, connection closed)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._head_bytes = 0
        self._in_head = True

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if not self._in_head or self.transport.is_closing():
            return
        # One read (at most 256 KiB) is parsed before it is counted: a head that ends in it is not refused.
        self._head_bytes += len(data)
        if self._head_bytes > MAX_HEAD_BYTES:
            self._refuse()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._in_head = True

    def on_headers_complete(self) -> None:
        self._in_head = False
        self._head_bytes = 0
        super().on_headers_complete()

    def _refuse(self) -> None:
        self.logger.warning("A request head over %d bytes was refused.", MAX_HEAD_BYTES)
        self.transport.write(
            b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-type: text/plain; charset=utf-8\r\n"
            b"content-length: %d\r\nconnection: close\r\n\r\n%s" % (len(_REFUSAL), _REFUSAL)
        )
        self.transport.close()
