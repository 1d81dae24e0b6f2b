"""The ``--upstream`` URL: where proxy mode forwards to, and how it is shown.

The URL may carry credentials: userinfo (``http://user:PASS@host``, sent as Basic auth) and
query values (``?key=…``, ``?api-version=…``). Wherever it is written or shown (the capture
file, stderr, the 502 a client gets, and so every report read from the capture) it appears as
``shown``: userinfo and every query value ``***``. Error text from the HTTP library, which may
quote the URL, goes through ``scrub``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from urllib.parse import parse_qsl, quote, unquote, urlencode, urlsplit, urlunsplit

MASK = "***"
_VERSIONS = ("/v1", "/v1beta", "/v1alpha")
MIN_SCRUB_CHARS = 4
"""Shorter userinfo or query values are not searched for in error text (they would mask ordinary words)."""


@dataclass(frozen=True)
class Upstream:
    """An ``--upstream`` URL split for forwarding and for showing."""

    url: str = field(repr=False)
    """The URL as given (never written or shown)."""
    base: str = field(repr=False)
    """Scheme, userinfo, host, port and path, without a trailing slash, query or fragment."""
    query: tuple[tuple[str, str], ...] = field(repr=False)
    """The URL's own query parameters, sent with every forwarded request before the client's."""
    shown: str
    """The URL with userinfo and query values masked: the only form ever written or shown."""
    secrets: tuple[str, ...] = field(repr=False)
    """The masked parts (longest first), to scrub from error text."""

    def target(self, path: str, client_query: str) -> str:
        """The upstream URL of a client's request to ``path?client_query``.

        A base ending in the path's version (``/v1``, or Gemini's ``/v1beta``) is not given it a second time.
        """
        version = path[: path.find("/", 1)] if path.count("/") > 1 else ""
        if version in _VERSIONS and self.base.endswith(version):
            path = path[len(version) :]
        query = "&".join(part for part in (urlencode(self.query), client_query) if part)
        return f"{self.base}{path}" + (f"?{query}" if query else "")

    def scrub(self, text: str) -> str:
        """Text (an error message) with the shown URL in place of the real one and no secret left."""
        text = text.replace(self.url, self.shown)
        for secret in self.secrets:
            text = text.replace(secret, MASK)
        return text


def shown_url(url: str) -> str:
    """Any URL with its userinfo and query values masked (a URL that does not parse: all masked)."""
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises ValueError on a bad port
    except ValueError:
        return MASK
    netloc = parts.netloc
    if "@" in netloc:
        netloc = f"{MASK}@{netloc.rsplit('@', 1)[1]}"
    pairs = parse_qsl(parts.query, keep_blank_values=True)
    query = "&".join(f"{quote(key, safe='')}={MASK}" for key, _ in pairs)
    return urlunsplit((parts.scheme, netloc, parts.path, query, ""))


def parse_upstream(url: str) -> Upstream:
    """The parts of an ``--upstream`` URL; ValueError when it is not an http(s) URL with a host."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError("not an http:// or https:// URL with a host")
    parts.port  # noqa: B018 - raises ValueError on a bad port
    pairs = tuple(parse_qsl(parts.query, keep_blank_values=True))
    userinfo = parts.netloc.rsplit("@", 1)[0] if "@" in parts.netloc else ""
    found = {urlunsplit(parts._replace(fragment="")), userinfo, *userinfo.split(":", 1)}
    found.update(value for _, value in pairs)
    found |= {unquote(value) for value in found} | {quote(value, safe="") for value in found}
    secrets = sorted((s for s in found if len(s) >= MIN_SCRUB_CHARS), key=len, reverse=True)
    base = urlunsplit((parts.scheme, parts.netloc, parts.path.rstrip("/"), "", ""))
    return Upstream(url=url, base=base, query=pairs, shown=shown_url(url), secrets=tuple(secrets))
