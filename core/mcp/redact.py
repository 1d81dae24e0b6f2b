"""Keep secrets from MCP configs out of every output, snapshot and report.

This module is toolscope's one implementation of "what is a secret and how is it masked";
discovery, snapshots and reports all use it.

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


def _with_token(value: str) -> set[str]:
    # "Bearer abc…" → also "abc…", so text quoting just the token is caught.
    parts = value.split()
    return {value, parts[-1]} if len(parts) > 1 else {value}


# -- structured places -------------------------------------------------------------


def redact_mapping(values: dict[str, str] | None) -> dict[str, str]:
    """Every value masked (env and headers: all values are secrets)."""
    return {k: MASK for k in (values or {})}


def _mask_auth(text: str, found: set[str]) -> str:
    """Mask the token of every ``Bearer X`` / ``Basic X`` in text, recording X."""

    def repl(match: re.Match[str]) -> str:
        if match.group(3) != MASK:
            found.add(match.group(3))
        return f"{match.group(1)}{match.group(2)}{MASK}"

    return _AUTH_SCHEME.sub(repl, text)


def _scan_url(url: str) -> tuple[str, set[str]]:
    """The URL with userinfo and secret-keyed query values masked, and those values."""
    found: set[str] = set()
    try:
        parts = urlsplit(url)
        password = parts.password
    except ValueError:
        return MASK, found
    netloc = parts.netloc
    if "@" in netloc:
        if password:
            found.add(password)
        netloc = f"{MASK}@{netloc.rsplit('@', 1)[1]}"
    path = parts.path
    if path:
        segments = path.split("/")
        tokens = [segment for segment in segments if segment and _TOKEN_SEGMENT.search(segment)]
        if tokens:
            found.update(tokens)
            path = "/".join(MASK if segment in tokens else segment for segment in segments)
    query = parts.query
    if query:
        pairs = parse_qsl(query, keep_blank_values=True)
        found.update(v for k, v in pairs if is_secret_key(k) and v)
        query = urlencode([(k, MASK if is_secret_key(k) else v) for k, v in pairs], safe="*")
    return urlunsplit((parts.scheme, netloc, path, query, parts.fragment)), found


def redact_url(url: str | None) -> str | None:
    """Mask userinfo and secret-looking query parameters of a URL."""
    if not url:
        return url
    return _scan_url(url)[0]


def _scan_args(args: Sequence[Any]) -> tuple[list[Any], set[str]]:
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
            continue
        if mask_next:
            found |= _with_token(arg)
            out.append(MASK)
            mask_next = False
            continue
        assignment = _ASSIGNMENT.match(arg)
        if assignment and is_secret_key(assignment.group(1)):
            found |= _with_token(assignment.group(3))
            out.append(f"{assignment.group(1)}{assignment.group(2)}{MASK}")
            continue
        if (
            (arg.startswith("-") and is_secret_key(arg))
            or arg in SECRET_SHORT_FLAGS
            or arg.strip().lower() in _AUTH_WORDS
        ):
            out.append(arg)  # "--api-key X", "Bearer X": the next argument is the secret
            mask_next = True
            continue
        if _URL.match(arg):
            masked, in_url = _scan_url(arg)
            if in_url or "@" in arg or masked != arg:
                found |= in_url
                arg = masked
        out.append(_mask_auth(arg, found))
    return out, found


def redact_args(args: Iterable[str], secrets: Iterable[str] = ()) -> list[str]:
    """A command line with every secret masked (a structured place: see the module doc).

    Flag values of secret-looking flags, ``Bearer``/``Basic`` tokens, URL credentials, and
    any argument equal to a known secret are masked; secret-looking values inside other
    arguments are scrubbed.
    """
    known = {s for s in secrets if s}
    masked, _found = _scan_args(list(args))
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


# -- collecting secret values ------------------------------------------------------


def _scalar(value: Any) -> str | None:
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        return None
    return str(value)


def _has_containers(items: list[Any]) -> bool:
    # The item types, collected at C speed: a long list of names has one (str).
    return any(issubclass(kind, (dict, list)) for kind in set(map(type, items)))


def _collect(data: Any, into: set[str], everything: bool = False) -> None:
    if isinstance(data, dict):
        for key, value in data.items():
            name = str(key).lower()
            text = _scalar(value)
            if text is not None:
                if everything or is_secret_key(name):
                    into.update(_with_token(text))
                elif name == "url":
                    into.update(_scan_url(text)[1])
            elif isinstance(value, list) and name == "args":
                into.update(_scan_args(value)[1])
            if name == "command" and isinstance(value, str) and " " in value:
                into.update(_scan_args(value.split(" "))[1])
            inner = (name in SECRET_CONTAINERS and isinstance(value, dict)) or (
                isinstance(value, list) and (everything or is_secret_key(name))
            )
            _collect(value, into, everything=inner)
    elif isinstance(data, list):
        if not everything:
            # Only containers inside can hold secrets here: a list of 50,000 tool names is skipped.
            if _has_containers(data):
                for item in data:
                    if isinstance(item, (dict, list)):
                        _collect(item, into)
            return
        for item in data:
            text = _scalar(item)
            if text is not None:
                into.update(_with_token(text))
            else:
                _collect(item, into)


def collect_secrets(data: Any) -> set[str]:
    """Every secret value inside parsed config data (a whole file or one server entry)."""
    found: set[str] = set()
    _collect(data, found)
    return {v for v in found if v}


def secret_values(server: Any) -> set[str]:
    """All secret values of one ``ServerConfig``: env, headers, secret-keyed extras, args, URL."""
    return collect_secrets(server.model_dump(mode="json", exclude_none=True))


def collect_env_values(data: Any) -> set[str]:
    """The values of every ``env`` and ``headers`` mapping inside parsed config data: masked
    in free text whatever they look like (see ``scrubbable``)."""
    found: set[str] = set()
    _collect_env(data, found)
    return found


def _collect_env(data: Any, found: set[str]) -> None:
    if isinstance(data, dict):
        for key, value in data.items():
            if str(key).lower() in SECRET_CONTAINERS and isinstance(value, dict):
                for item in value.values():
                    text = _scalar(item)
                    if text:
                        found |= _with_token(text)
            elif isinstance(value, (dict, list)):
                _collect_env(value, found)
    elif isinstance(data, list) and _has_containers(data):
        for item in data:
            if isinstance(item, (dict, list)):
                _collect_env(item, found)


def env_values(server: Any) -> set[str]:
    """The env and headers values of one ``ServerConfig``."""
    return collect_env_values(server.model_dump(mode="json", exclude_none=True))


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
