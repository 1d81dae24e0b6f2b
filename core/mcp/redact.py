"""Keep secrets from MCP configs out of every output, snapshot and report.

What counts as a secret:

* every value of a server's ``env`` and ``headers``;
* anything stored under a key matching ``token|key|secret|passw|auth|credential|cookie``
  (case-insensitive; so also ``password``, ``authorization``, ``api_key``), wherever it appears (extra config keys, URL query);
* a command-line argument following such a flag (``--api-key X``) or attached to it
  (``--api-key=X``);
* userinfo in URLs (``https://user:pass@host``).

Redacted values show as ``***``. ``scrub()`` also removes the literal secret values from
free text a server produced (stderr tails, error messages, tool descriptions): only values
of 4+ characters, so ``DEBUG=1`` does not turn every ``1`` into ``***``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

MASK = "***"
SECRET_KEY = re.compile(r"token|key|secret|passw|auth|credential|cookie", re.IGNORECASE)
_MIN_SCRUB = 4


def is_secret_key(key: str) -> bool:
    """True when a key or flag name looks like it holds a secret."""
    return bool(SECRET_KEY.search(key))


def redact_mapping(values: dict[str, str] | None) -> dict[str, str]:
    """Every value masked (env and headers: all values are secrets)."""
    return {k: MASK for k in (values or {})}


def redact_args(args: Iterable[str], secrets: Iterable[str] = ()) -> list[str]:
    """Mask flag values whose flag name looks secret, and any arg equal to a known secret."""
    known = {s for s in secrets if s}
    out: list[str] = []
    mask_next = False
    for arg in args:
        if mask_next:
            out.append(MASK)
            mask_next = False
            continue
        if arg in known:
            out.append(MASK)
            continue
        if arg.startswith("-"):
            flag, eq, _value = arg.partition("=")
            if is_secret_key(flag):
                if eq:
                    out.append(f"{flag}={MASK}")
                else:
                    out.append(arg)
                    mask_next = True
                continue
        out.append(scrub(arg, known))
    return out


def redact_url(url: str | None) -> str | None:
    """Mask userinfo and secret-looking query parameters of a URL."""
    if not url:
        return url
    try:
        parts = urlsplit(url)
    except ValueError:
        return MASK
    netloc = parts.netloc
    if "@" in netloc:
        netloc = f"{MASK}@{netloc.rsplit('@', 1)[1]}"
    query = parts.query
    if query:
        pairs = parse_qsl(query, keep_blank_values=True)
        query = urlencode([(k, MASK if is_secret_key(k) else v) for k, v in pairs], safe="*")
    return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))


def redact_value(value: Any, key: str = "") -> Any:
    """Recursively mask values under secret-looking keys (for unknown config keys)."""
    if key and is_secret_key(key) and not isinstance(value, (dict, list)):
        return MASK
    if isinstance(value, dict):
        return {k: redact_value(v, str(k)) for k, v in value.items()}
    if isinstance(value, list):
        return [redact_value(v, key) for v in value]
    return value


def scrub(text: str, secrets: Iterable[str]) -> str:
    """Replace every known secret value (4+ chars, longest first) occurring in text."""
    for secret in sorted({s for s in secrets if s and len(s) >= _MIN_SCRUB}, key=len, reverse=True):
        if secret in text:
            text = text.replace(secret, MASK)
    return text


def secret_values(server: Any) -> set[str]:
    """All secret values of one ``ServerConfig``: env, headers, secret-keyed extras, flag values."""
    values = set((server.env or {}).values()) | set((server.headers or {}).values())
    for header in (server.headers or {}).values():
        # "Bearer abc" → also "abc", so a server echoing just the token is caught.
        values.update(part for part in header.split() if len(part) >= _MIN_SCRUB)
    _collect(server.model_extra or {}, "", values)
    args = list(server.args or [])
    for i, arg in enumerate(args):
        if arg.startswith("-"):
            flag, eq, value = arg.partition("=")
            if is_secret_key(flag):
                if eq:
                    values.add(value)
                elif i + 1 < len(args):
                    values.add(args[i + 1])
    if server.url:
        parts = urlsplit(server.url)
        if parts.password:
            values.add(parts.password)
        values.update(v for k, v in parse_qsl(parts.query) if is_secret_key(k))
    return {v for v in values if v}


def _collect(value: Any, key: str, into: set[str]) -> None:
    if isinstance(value, dict):
        for k, v in value.items():
            _collect(v, str(k), into)
    elif isinstance(value, list):
        for v in value:
            _collect(v, key, into)
    elif key and is_secret_key(key) and isinstance(value, str):
        into.add(value)
