"""Which requests ``toolscope serve`` answers: those naming the address it printed.

A web page the user opens elsewhere can make the browser connect to any local port: a
websocket carries that page's ``Origin``, and a page reached through DNS rebinding sends its own
name as ``Host``. Both headers must name the server's own address (``HOST:PORT`` as printed;
bound to loopback or to every address, also the ``127.0.0.1``, ``localhost`` and ``[::1]``
spellings of the same port). The websocket, which starts an app process, also needs an
``Origin``: browsers always send one, so a missing one is not the page this server serves.
"""

from __future__ import annotations

import ipaddress

LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")
SHOWN_CHARS = 100
"""A refused header is quoted up to this length (it is the client's text)."""


def url_host(host: str) -> str:
    """The host as written in a URL (IPv6 addresses in brackets)."""
    return f"[{host}]" if ":" in host else host


def _reaches_loopback(host: str) -> bool:
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host == "localhost"
    return address.is_loopback or address.is_unspecified


def allowed_hosts(host: str, port: int) -> frozenset[str]:
    """The ``Host`` header values (lowercase) that name a server bound to ``host:port``."""
    names = {url_host(host).lower()}
    if _reaches_loopback(host):
        names.update(LOOPBACK_NAMES)
    hosts = {f"{name}:{port}" for name in names}
    if port == 80:  # browsers leave the default port out
        hosts.update(names)
    return frozenset(hosts)


def _shown(value: str) -> str:
    return repr(value if len(value) <= SHOWN_CHARS else value[:SHOWN_CHARS] + "…")


def refusal(hosts: list[str], origins: list[str], websocket: bool, allowed: frozenset[str], url: str) -> str | None:
    """Why a request is refused (None: it is answered).

    ``hosts`` and ``origins`` are every value of the request's ``Host`` and ``Origin`` headers;
    ``url`` is the address the server printed, named in the reason."""
    if len(hosts) != 1 or hosts[0].lower() not in allowed:
        shown = _shown(hosts[0]) if len(hosts) == 1 else f"{len(hosts)} Host headers"
        return f"Host {shown} is not this server's address ({url}); open {url}/ instead"
    if len(origins) > 1:
        return f"{len(origins)} Origin headers"
    if not origins:
        return "a websocket without an Origin is not this server's page" if websocket else None
    origin = origins[0].lower()
    if not origin.startswith("http://") or origin.removeprefix("http://") not in allowed:
        return f"Origin {_shown(origins[0])} is not this server's page ({url}): another site cannot use it"
    return None
