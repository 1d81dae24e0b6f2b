"""A running Arize Phoenix as a capture: ``--capture phoenix+http://HOST:PORT/projects/NAME``.

The spans of project NAME are read through Phoenix's REST API (``GET /v1/projects/NAME/spans``,
paged by ``next_cursor``), turned into ``otlp_read.Span`` (Phoenix's ``attributes`` are nested
objects: flattened back to the dotted keys the instrumentations wrote) and read like a trace
file (``trace_requests``). Every request has a timeout (``DEFAULT_TIMEOUT``, or
``?timeout=SECONDS`` in the address) and the whole read a deadline of twice that, so a
Phoenix that is down or slow is an ``InputError`` in bounded time, never a hang.

Public API::

    is_phoenix_address(text) -> bool
    load_phoenix(address) -> ObservedCapture
"""

from __future__ import annotations

import re
import time
from datetime import datetime
from typing import Any
from urllib.parse import parse_qs, quote

from ..model.errors import InputError, Problem
from .observed import ObservedCapture
from .otlp_read import WANTED, WANTED_PREFIXES, OtlpSpans, Span
from .trace_requests import observed_from_spans

__all__ = ["DEFAULT_TIMEOUT", "is_phoenix_address", "load_phoenix"]

DEFAULT_TIMEOUT = 10.0
PAGE_SPANS = 1000
MAX_PAGES = 100
MAX_FLAT_KEYS = 5_000
"""Attribute keys flattened from one span."""
# A Path given on the command line loses one slash of "//": both spellings are the address.
_ADDRESS = re.compile(r"phoenix\+(https?):/{1,2}([^/?#]+)/(?:projects/)?([^/?#]+)/?(?:\?(.*))?")


def is_phoenix_address(text: str) -> bool:
    """``phoenix+http://…`` (or ``phoenix+https://…``)."""
    return text.startswith(("phoenix+http:", "phoenix+https:"))


def _parse(address: str) -> tuple[str, str, float]:
    match = _ADDRESS.fullmatch(address)
    if match is None:
        raise InputError(
            address, "is not a Phoenix address", [Problem("expected", "phoenix+http://HOST:PORT/projects/NAME")]
        )
    scheme, host, project, query = match.groups()
    timeout = DEFAULT_TIMEOUT
    if query:
        values = parse_qs(query).get("timeout", [])
        try:
            timeout = float(values[0]) if values else DEFAULT_TIMEOUT
        except ValueError:
            timeout = -1.0
        if not 0 < timeout <= 600:
            raise InputError(address, "has a bad timeout", [Problem("?timeout=", "seconds between 0 and 600")])
    return f"{scheme}://{host}", project, timeout


def load_phoenix(address: str) -> ObservedCapture:
    """The model calls recorded in a Phoenix project (InputError: unreachable, slow, no such project, no tools)."""
    base, project, timeout = _parse(address)
    read = OtlpSpans()
    for raw in _pages(base, project, timeout, address):
        span = _span(raw, len(read.spans) + 1)
        if span is None:
            read.skip("span(s) Phoenix returned without a trace and span id")
        else:
            read.spans.append(span)
    read.exports = 1
    return observed_from_spans(read, f"phoenix project {project}")


def _pages(base: str, project: str, timeout: float, address: str) -> list[Any]:
    import httpx

    deadline = time.monotonic() + 2 * timeout
    url = f"{base}/v1/projects/{quote(project, safe='')}/spans"
    spans: list[Any] = []
    cursor: str | None = None
    with httpx.Client(timeout=timeout, follow_redirects=False, trust_env=False) as client:
        for _ in range(MAX_PAGES):
            if time.monotonic() > deadline:
                raise InputError(address, f"cannot read spans from Phoenix: no answer within {2 * timeout:g} s")
            params: dict[str, Any] = {"limit": PAGE_SPANS, **({"cursor": cursor} if cursor else {})}
            page = _get(client, url, params, address)
            data = page.get("data") if isinstance(page, dict) else None
            if not isinstance(data, list):
                raise InputError(
                    address, "cannot read spans from Phoenix", [Problem(url, "the answer has no data list")]
                )
            spans.extend(data)
            cursor = page.get("next_cursor")
            if not cursor:
                break
    return spans


def _get(client: Any, url: str, params: dict[str, Any], address: str) -> Any:
    import httpx

    try:
        response = client.get(url, params=params)
    except httpx.HTTPError as exc:
        reason = f"{type(exc).__name__}: {exc}"[:300]
        raise InputError(address, "cannot read spans from Phoenix (is it running?)", [Problem(url, reason)]) from None
    if response.status_code == 404:
        raise InputError(address, "cannot read spans from Phoenix", [Problem(url, "no such project (HTTP 404)")])
    if response.status_code != 200:
        raise InputError(
            address,
            "cannot read spans from Phoenix",
            [Problem(url, f"HTTP {response.status_code}: {response.text[:200]!r}")],
        )
    try:
        return response.json()
    except ValueError:
        raise InputError(address, "cannot read spans from Phoenix", [Problem(url, "the answer is not JSON")]) from None


def _span(raw: Any, position: int) -> Span | None:
    context = raw.get("context") if isinstance(raw, dict) else None
    if not isinstance(context, dict):
        return None
    trace_id, span_id = context.get("trace_id"), context.get("span_id")
    if not isinstance(trace_id, str) or not isinstance(span_id, str):
        return None
    parent = raw.get("parent_id")
    name = raw.get("name")
    return Span(
        trace_id=trace_id[:64],
        span_id=span_id[:64],
        parent_id=parent[:64] if isinstance(parent, str) and parent else None,
        name=name[:500] if isinstance(name, str) else "",
        start_ns=_nanos(raw.get("start_time")),
        attributes=_wanted({**flatten(raw.get("attributes")), **_kind(raw.get("span_kind"))}),
        position=position,
    )


def _kind(value: Any) -> dict[str, Any]:
    """Phoenix answers ``openinference.span.kind`` as ``span_kind`` (``UNKNOWN`` when the span had none)."""
    return {"openinference.span.kind": value} if isinstance(value, str) and value != "UNKNOWN" else {}


def _nanos(value: Any) -> int:
    if not isinstance(value, str):
        return 0
    try:
        return int(datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp() * 1_000_000) * 1000
    except ValueError:
        return 0


def flatten(value: Any, prefix: str = "", out: dict[str, Any] | None = None, depth: int = 0) -> dict[str, Any]:
    """Phoenix's nested attributes as dotted keys (``{"llm": {"tools": [{…}]}}`` → ``llm.tools.0.…``), bounded."""
    out = {} if out is None else out
    items = _children(value, prefix, depth)
    if items is None:
        if prefix:
            out[prefix] = value
        return out
    for key, item in items:
        if len(out) >= MAX_FLAT_KEYS:
            break
        flatten(item, f"{prefix}.{key}" if prefix else str(key), out, depth + 1)
    return out


def _children(value: Any, prefix: str, depth: int) -> Any:
    """The (key, value) pairs to flatten under ``prefix``; None: ``value`` is kept whole there."""
    if prefix in WANTED or depth >= 12:
        return None
    if isinstance(value, dict):
        return value.items()
    if isinstance(value, list) and prefix:
        return enumerate(value)
    return None


def _wanted(flat: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in flat.items() if k in WANTED or k.startswith(WANTED_PREFIXES)}
