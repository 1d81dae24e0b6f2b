"""Requests a web page makes the browser send are refused, unless the user allows that page.

A page the user opens can make the browser POST to any local port; a ``text/plain`` body needs
no CORS preflight, so a page could inject fake requests into a capture. The browser marks what
a page sends: an ``Origin`` header (on every POST, and on every cross-origin request), and
``Sec-Fetch-Site`` other than ``none`` (``none``: the user typed the address). Real clients
send neither: the openai and anthropic SDKs (httpx; the Node ones and Claude Code through Node's
fetch, Codex through reqwest). Node's fetch does send ``Sec-Fetch-Mode: cors`` (measured, Node
20), so that header alone says nothing. ``--allow-origin ORIGIN`` lets that one page in, with
the CORS headers its browser needs.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from starlette.datastructures import Headers
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Receive, Scope, Send

ORIGIN = re.compile(r"^https?://[A-Za-z0-9.\-]+(:[0-9]{1,5})?$|^https?://\[[0-9A-Fa-f:.]+\](:[0-9]{1,5})?$")
"""What ``--allow-origin`` takes: a scheme, a host and maybe a port, as browsers send ``Origin``."""
SHOWN_CHARS = 100
ALLOW_HINT = "toolscope capture --allow-origin ORIGIN lets one page use it"


def normal_origin(origin: str) -> str | None:
    """An ``--allow-origin`` value as browsers send it (lowercase, no trailing slash); None: not an origin."""
    value = origin.strip().rstrip("/").lower()
    return value if ORIGIN.match(value) else None


def _shown(value: str) -> str:
    return repr(value if len(value) <= SHOWN_CHARS else value[:SHOWN_CHARS] + "…")


def browser_refusal(headers: Headers, allowed: frozenset[str]) -> str | None:
    """Why a request is refused as a web page's (None: it is not one, or its origin is allowed)."""
    origins = headers.getlist("origin")
    if len(origins) == 1 and origins[0].lower() in allowed:
        return None
    if origins:
        return f"the web page {_shown(origins[0])} may not send requests to the capture server ({ALLOW_HINT})"
    site = headers.get("sec-fetch-site")
    if site is not None and site.lower() != "none":
        return f"a web page's request (Sec-Fetch-Site: {_shown(site)}) is refused by the capture server ({ALLOW_HINT})"
    return None


Refuse = Callable[[Request, str], Response]
"""Records the refused request and builds the reply (the app's ``refused`` and error shape)."""


class BrowserGuard:
    """ASGI middleware: a web page's request is answered by ``refuse`` and never reaches the app."""

    def __init__(self, app: ASGIApp, allowed: Sequence[str], refuse: Refuse) -> None:
        self.app = app
        self.allowed = frozenset(allowed)
        self.refuse = refuse

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            reason = browser_refusal(Headers(scope=scope), self.allowed)
            if reason is not None:
                response = self.refuse(Request(scope), reason)
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)
