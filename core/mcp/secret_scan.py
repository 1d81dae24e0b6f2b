"""What counts as a secret, and the one scan that finds secrets in a command line or a URL.

A key or flag name is secret-looking by ``SECRET_KEY``; a value is credential-like enough to
be scrubbed from free text by ``looks_secret``. ``scan_args`` and ``scan_url`` do the masking
and the finding in one pass, so what a launch line hides and what free text is scrubbed of
never disagree. The rules are described once, in ``redact``'s module docstring.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

MASK = "***"
SECRET_KEY = re.compile(
    # "pat" (personal access token) and "sig" (a signed URL's signature) only as whole
    # words: --pat, github_pat, ?sig=, but not "path" or "design".
    r"token|key|secret|passw|auth|credential|cookie|signature|(?:^|[^a-z])(?:pat|sig)(?:$|[^a-z])",
    re.IGNORECASE,
)
# Short flags whose value is a token by convention (``-t ghp_…``).
SECRET_SHORT_FLAGS = frozenset({"-t"})
# Mappings of an MCP server config whose every value is a secret.
SECRET_CONTAINERS = frozenset({"env", "headers"})
# Free-text scrubbing: shorter values are ordinary words far more often than credentials.
MIN_SCRUB_LENGTH = 8
# A value this long is scrubbed even when it is lowercase letters only.
LONG_SECRET_LENGTH = 16
# env and headers values are masked in free text whatever they look like, from this length
# on (whole words only): "1" or "on" would mask every count and sentence without hiding anything.
MIN_ENV_LENGTH = 4
# A URL path segment that is a token: well-known key prefixes, or long mixed letters and digits.
_TOKEN_SEGMENT = re.compile(
    r"^(?:sk|pk|rk)[-_]|^gh[pousr]_|^github_pat_|^glpat-|^xox[abprs]-|^AKIA[0-9A-Z]{12}|"
    r"^(?=[A-Za-z0-9_-]*[0-9])(?=[A-Za-z0-9_-]*[A-Za-z])[A-Za-z0-9_-]{20,}$"
)

# "Bearer <token>" / "Basic <token>": the scheme stays, the token is masked.
_AUTH_SCHEME = re.compile(r"\b(bearer|basic)(\s+)([^\s\"',;]+)", re.IGNORECASE)
_AUTH_WORDS = {"bearer", "basic"}
# NAME=VALUE or NAME: VALUE in one argument (--api-key=X, GITHUB_TOKEN=X, "Authorization: Bearer X").
_ASSIGNMENT = re.compile(r"^(-*[A-Za-z_][\w.-]*)(\s*[=:]\s*)(.+)$", re.DOTALL)
_URL = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")


def is_secret_key(key: str) -> bool:
    """True when a key or flag name looks like it holds a secret."""
    return bool(SECRET_KEY.search(key))


def looks_secret(value: str) -> bool:
    """True when a value is credential-like enough to be scrubbed from free text.

    8+ characters and not a plain word: a digit, upper and lower case mixed, a
    non-alphanumeric character, or 16+ characters.
    """
    if len(value) < MIN_SCRUB_LENGTH:
        return False
    return (
        len(value) >= LONG_SECRET_LENGTH
        or any(c.isdigit() for c in value)
        or not value.isalnum()
        or (any(c.isupper() for c in value) and any(c.islower() for c in value))
    )


def with_token(value: str) -> set[str]:
    """The value, and its last word when it has several ("Bearer abc…" → also "abc…"), so text
    quoting just the token is caught."""
    parts = value.split()
    return {value, parts[-1]} if len(parts) > 1 else {value}


def _mask_auth(text: str, found: set[str]) -> str:
    """Mask the token of every ``Bearer X`` / ``Basic X`` in text, recording X."""

    def repl(match: re.Match[str]) -> str:
        if match.group(3) != MASK:
            found.add(match.group(3))
        return f"{match.group(1)}{match.group(2)}{MASK}"

    return _AUTH_SCHEME.sub(repl, text)


def scan_url(url: str) -> tuple[str, set[str]]:
    """The URL with userinfo and secret-keyed query values masked, and those values."""
    found: set[str] = set()
    try:
        parts = urlsplit(url)
        password = parts.password
    except ValueError:
        return MASK, found
    netloc = _mask_userinfo(parts.netloc, password, found)
    path = _mask_path_tokens(parts.path, found)
    query = _mask_query(parts.query, found)
    return urlunsplit((parts.scheme, netloc, path, query, parts.fragment)), found


def _mask_userinfo(netloc: str, password: str | None, found: set[str]) -> str:
    """``user:password@host`` → ``***@host`` (the password is a secret)."""
    if "@" not in netloc:
        return netloc
    if password:
        found.add(password)
    return f"{MASK}@{netloc.rsplit('@', 1)[1]}"


def _mask_path_tokens(path: str, found: set[str]) -> str:
    """Path segments that look like tokens (a key inside the URL's path) masked."""
    segments = path.split("/")
    tokens = [segment for segment in segments if segment and _TOKEN_SEGMENT.search(segment)]
    if not tokens:
        return path
    found.update(tokens)
    return "/".join(MASK if segment in tokens else segment for segment in segments)


def _mask_query(query: str, found: set[str]) -> str:
    """The values of secret-keyed query parameters masked."""
    if not query:
        return query
    pairs = parse_qsl(query, keep_blank_values=True)
    found.update(v for k, v in pairs if is_secret_key(k) and v)
    return urlencode([(k, MASK if is_secret_key(k) else v) for k, v in pairs], safe="*")


def scan_args(args: Sequence[Any]) -> tuple[list[Any], set[str]]:
    """The one scan of a command line: (args with secrets masked, the secret values found).

    Non-string items (bad input read from a file) are passed through untouched.
    """
    out: list[Any] = []
    found: set[str] = set()
    mask_next = False
    for arg in args:
        if not isinstance(arg, str):
            out.append(arg)
            mask_next = False
        elif mask_next:
            found |= with_token(arg)
            out.append(MASK)
            mask_next = False
        else:
            shown, mask_next = _scan_word(arg, found)
            out.append(shown)
    return out, found


def _scan_word(arg: str, found: set[str]) -> tuple[str, bool]:
    """One argument with its secrets masked (added to ``found``), and whether the next one is a secret."""
    assignment = _ASSIGNMENT.match(arg)
    if assignment and is_secret_key(assignment.group(1)):
        found |= with_token(assignment.group(3))
        return f"{assignment.group(1)}{assignment.group(2)}{MASK}", False
    if _introduces_secret(arg):
        return arg, True  # "--api-key X", "Bearer X": the next argument is the secret
    if _URL.match(arg):
        masked, in_url = scan_url(arg)
        if in_url or "@" in arg or masked != arg:
            found |= in_url
            arg = masked
    return _mask_auth(arg, found), False


def _introduces_secret(arg: str) -> bool:
    """A flag with a secret-looking name, a known short secret flag, or an auth scheme word."""
    return (
        (arg.startswith("-") and is_secret_key(arg)) or arg in SECRET_SHORT_FLAGS or arg.strip().lower() in _AUTH_WORDS
    )
