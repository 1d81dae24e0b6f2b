"""Every secret value inside parsed MCP config data (a whole file, or one server entry).

``collect_secrets`` walks the data once: secret-keyed values anywhere, every value of ``env``
and ``headers``, what ``scan_args`` finds in ``args`` and an inline ``command``, and URL
credentials. ``collect_env_values`` gathers only the ``env`` and ``headers`` values, which free
text is scrubbed of whatever they look like. Lists of plain names (50,000 tools) are skipped.
"""

from __future__ import annotations

from typing import Any

from .secret_scan import SECRET_CONTAINERS, is_secret_key, scan_args, scan_url, with_token


def _scalar(value: Any) -> str | None:
    """A value as text when it is a string or a number (booleans and containers are not secrets)."""
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        return None
    return str(value)


def _has_containers(items: list[Any]) -> bool:
    # The item types, collected at C speed: a long list of names has one (str).
    return any(issubclass(kind, (dict, list)) for kind in set(map(type, items)))


def _collect(data: Any, into: set[str], everything: bool = False) -> None:
    """Add the secret values under ``data`` to ``into`` (``everything``: inside a secret container)."""
    if isinstance(data, dict):
        for key, value in data.items():
            _collect_entry(str(key).lower(), value, into, everything)
    elif isinstance(data, list):
        _collect_list(data, into, everything)


def _collect_entry(name: str, value: Any, into: set[str], everything: bool) -> None:
    """One key (lower-cased) and its value: the secrets in the value itself, then those inside it."""
    text = _scalar(value)
    if text is not None:
        _collect_scalar(name, text, into, everything)
    elif isinstance(value, list) and name == "args":
        into.update(scan_args(value)[1])
    if name == "command" and isinstance(value, str) and " " in value:
        into.update(scan_args(value.split(" "))[1])
    _collect(value, into, everything=_all_secret(name, value, everything))


def _all_secret(name: str, value: Any, everything: bool) -> bool:
    """Every value inside is a secret: an env/headers mapping, or a list under a secret-looking key."""
    if isinstance(value, dict):
        return name in SECRET_CONTAINERS
    return isinstance(value, list) and (everything or is_secret_key(name))


def _collect_scalar(name: str, text: str, into: set[str], everything: bool) -> None:
    """A string or number: secret whole under a secret-looking key, or the credentials of a URL."""
    if everything or is_secret_key(name):
        into.update(with_token(text))
    elif name == "url":
        into.update(scan_url(text)[1])


def _collect_list(data: list[Any], into: set[str], everything: bool) -> None:
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
            into.update(with_token(text))
        else:
            _collect(item, into)


def collect_secrets(data: Any) -> set[str]:
    """Every secret value inside parsed config data (a whole file or one server entry)."""
    found: set[str] = set()
    _collect(data, found)
    return {v for v in found if v}


def secret_values(server: Any) -> set[str]:
    """All secret values of one ``ServerConfig``: env, headers, secret-keyed extras, args, URL,
    and every value that came from the environment."""
    return collect_secrets(server.model_dump(mode="json", exclude_none=True)) | set(_from_environ(server))


def collect_env_values(data: Any) -> set[str]:
    """The values of every ``env`` and ``headers`` mapping inside parsed config data: masked
    in free text whatever they look like (see ``scrubbable``)."""
    found: set[str] = set()
    _collect_env(data, found)
    return found


def _collect_env(data: Any, found: set[str]) -> None:
    """Add the values of every ``env`` and ``headers`` mapping under ``data`` to ``found``."""
    if isinstance(data, dict):
        for key, value in data.items():
            if str(key).lower() in SECRET_CONTAINERS and isinstance(value, dict):
                found |= _mapping_values(value)
            elif isinstance(value, (dict, list)):
                _collect_env(value, found)
    elif isinstance(data, list) and _has_containers(data):
        for item in data:
            if isinstance(item, (dict, list)):
                _collect_env(item, found)


def _mapping_values(mapping: dict[Any, Any]) -> set[str]:
    """The string and number values of one env or headers mapping (empty ones left out)."""
    found: set[str] = set()
    for item in mapping.values():
        text = _scalar(item)
        if text:
            found |= with_token(text)
    return found


def env_values(server: Any) -> set[str]:
    """The env and headers values of one ``ServerConfig``, the values that came from the
    environment (``${VAR}``), and the values of the secret-named variables it is started with
    (``GITHUB_TOKEN``: a server that echoes its environment must not put them in a report)."""
    found = collect_env_values(server.model_dump(mode="json", exclude_none=True)) | set(_from_environ(server))
    launch_env = getattr(server, "launch_env", None) or {}
    return found | {v for k, v in launch_env.items() if v and is_secret_key(str(k))}


def _from_environ(server: Any) -> frozenset[str]:
    return getattr(server, "environ_values", None) or frozenset()
