"""Keep secrets from MCP configs out of every output, snapshot and report.

This module is toolscope's one implementation of "what is a secret and how is it masked";
discovery, snapshots and reports all use it. The rules below are applied by ``secret_scan``
(secret names and values; the scan of a command line or URL) and ``config_secrets`` (every
secret value of a parsed config); the names used elsewhere are re-exported here.

What counts as a secret value (``collect_secrets`` for parsed files, ``secret_values``
for one server):

* every value of a server's ``env`` and ``headers``;
* anything stored under a key matching ``token|key|secret|passw|auth|credential|cookie``
  (case-insensitive; so also ``password``, ``authorization``, ``api_key``), wherever it
  appears (extra config keys, URL query);
* in ``args``: the argument after such a flag (``--api-key X``), the value attached to it
  (``--api-key=X``, ``GITHUB_TOKEN=X``, ``Authorization: Bearer X``), and the token of
  ``Bearer <token>`` / ``Basic <token>`` anywhere in an argument;
* userinfo and secret-keyed query values of URLs (``https://user:pass@host/?token=X``).

A value like ``Bearer abc…`` also contributes its last word (the token alone).

How they are masked (``***``) depends on where they would appear:

* **Structured places** — a launch command line, an ``env`` or ``headers`` map, a URL:
  always masked, whatever the value looks like (``redact_args``, ``redact_mapping``,
  ``redact_url``). An argument *equal* to any known secret value is masked whole.
* **Free text** — tool descriptions, error messages, stderr tails, report sentences:
  ``scrub`` replaces every value of ``env`` and ``headers`` (4+ characters, as whole words
  when it is a plain word: a server that echoes ``LEVEL=debug`` shows ``***``), and the
  other known values that *look like secrets* (``looks_secret``: 8+ characters and not a
  plain word — they contain a digit, mix upper and lower case, contain a non-alphanumeric
  character, or are 16+ characters long).
* ``command`` with inline arguments (``"/srv --api-key sk-…"``) is scanned like ``args``;
  ``--pat X`` and ``-t X`` mask X; a URL path segment that is a token (``/mcp/sk-…/sse``,
  20+ letters and digits, well-known key prefixes) and ``?sig=`` are masked.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

from .config_secrets import collect_env_values, collect_secrets, env_values, secret_values
from .secret_scan import (
    MASK,
    MIN_ENV_LENGTH,
    SECRET_KEY,
    is_secret_key,
    looks_secret,
    scan_args,
    scan_url,
)

__all__ = [
    "MASK",
    "SECRET_KEY",
    "collect_env_values",
    "collect_secrets",
    "env_values",
    "is_secret_key",
    "looks_secret",
    "redact_args",
    "redact_command",
    "redact_mapping",
    "redact_url",
    "redact_value",
    "replace_secrets",
    "scrub",
    "scrubbable",
    "secret_values",
]

# -- structured places -------------------------------------------------------------


def redact_mapping(values: dict[str, str] | None) -> dict[str, str]:
    """Every value masked (env and headers: all values are secrets)."""
    return {k: MASK for k in (values or {})}


def redact_url(url: str | None) -> str | None:
    """Mask userinfo and secret-looking query parameters of a URL."""
    if not url:
        return url
    return scan_url(url)[0]


def redact_args(args: Iterable[str], secrets: Iterable[str] = ()) -> list[str]:
    """A command line with every secret masked (a structured place: see the module doc).

    Flag values of secret-looking flags, ``Bearer``/``Basic`` tokens, URL credentials, and
    any argument equal to a known secret are masked; secret-looking values inside other
    arguments are scrubbed.
    """
    known = {s for s in secrets if s}
    masked, _found = scan_args(list(args))
    ordered = scrubbable(known)
    return [MASK if arg in known else replace_secrets(arg, ordered) for arg in masked]


def redact_command(command: str, secrets: Iterable[str] = ()) -> str:
    """A ``command`` string with secrets masked: one with arguments inline
    (``"/srv --api-key sk-…"``) is scanned like ``args``."""
    words = command.split(" ")
    if len(words) == 1:
        return scrub(command, secrets)
    return " ".join(redact_args(words, secrets))


def redact_value(value: Any, key: str = "") -> Any:
    """Recursively mask values under secret-looking keys (for unknown config keys)."""
    if key and is_secret_key(key) and not isinstance(value, (dict, list)):
        return MASK
    if isinstance(value, dict):
        return {k: redact_value(v, str(k)) for k, v in value.items()}
    if isinstance(value, list):
        return [redact_value(v, key) for v in value]
    return value


# -- free text ---------------------------------------------------------------------


def scrubbable(secrets: Iterable[str], always: Iterable[str] = ()) -> tuple[str, ...]:
    """The values free-text scrubbing replaces, longest first: the ``secrets`` that
    ``looks_secret``, and every value of ``always`` (env and headers values) of at least
    ``MIN_ENV_LENGTH`` characters."""
    chosen = {s for s in secrets if s and looks_secret(s)} | {s for s in always if s and len(s) >= MIN_ENV_LENGTH}
    return tuple(sorted(chosen, key=lambda s: (-len(s), s)))


def replace_secrets(text: str, ordered: Sequence[str]) -> str:
    """Replace each value of ``ordered`` (from ``scrubbable``) occurring in text by ``***``.

    Secret-looking values are replaced wherever they occur; plain words (an env value such
    as ``build``) only as whole words, so ``rebuild`` and ``build_tool`` stay readable.
    """
    for secret in ordered:
        if secret not in text:
            continue
        if looks_secret(secret):
            text = text.replace(secret, MASK)
        else:
            text = re.sub(rf"(?<![\w]){re.escape(secret)}(?![\w])", MASK, text)
    return text


def scrub(text: str, secrets: Iterable[str], always: Iterable[str] = ()) -> str:
    """Free text with every known secret value replaced by ``***`` (see module doc)."""
    return replace_secrets(text, scrubbable(secrets, always))
