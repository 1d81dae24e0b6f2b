"""The standard ``mcpServers`` configuration: models, loader, ``_user.json`` merge, protocol inference.

Format (AgentWorks ``mcpclient/config.go``; the same shape Claude Desktop and others use)::

    {"mcpServers": {"<name>": {"command": "...", "args": [...], "env": {...},
                               "working_dir": "...", "url": "...", "headers": {...},
                               "protocol": "stdio|sse|http", "description": "..."}}}

Rules reproduced from the reference (§7.1):

* Empty ``protocol``: URL containing ``/sse`` → sse; URL containing ``http://`` or
  ``https://`` → http; else stdio.
* ``path`` with its first ``.json`` replaced by ``_user.json`` is an optional override file
  next to it; its entries replace same-name base entries (whole entries, not field by field).
  We apply the replacement to the file *name* only (a ``.json`` inside a directory name is
  left alone), and a config without ``.json`` in its name has no override file.
* Server order is the base file's order, then servers only the override file defines; it
  decides which server wins a duplicate tool name (first wins).

Unknown keys (``pool_config``, ``oauth``, ...) are accepted and ignored, as the Go loader does.
``cwd`` is accepted as an alias of ``working_dir``.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, ValidationError, model_validator

from ..inputs.input_files import read_text
from ..inputs.strict_json import parse_json
from ..inputs.validation_errors import validation_problems
from ..model.enums import SharedFinding
from ..model.errors import InputError, Problem

if TYPE_CHECKING:
    from ..model.verdicts import Finding

Protocol = Literal["stdio", "sse", "http"]


class ServerConfig(BaseModel):
    """One entry of ``mcpServers``."""

    model_config = ConfigDict(extra="allow", populate_by_name=True)

    command: str | None = None
    args: list[str] = Field(default_factory=list)
    env: dict[str, str] = Field(default_factory=dict)
    working_dir: str | None = None
    cwd: str | None = None
    description: str | None = None
    protocol: Protocol | None = None
    url: str | None = None
    headers: dict[str, str] = Field(default_factory=dict)
    # Set by the code that models a client (never read from a file): the environment the client
    # gives the server instead of toolscope's own, and the values that came from the environment.
    _base_env: dict[str, str] | None = PrivateAttr(default=None)
    _environ_values: frozenset[str] = PrivateAttr(default=frozenset())

    def launched_with(self, base_env: Mapping[str, str] | None, environ_values: frozenset[str]) -> ServerConfig:
        """A copy started with ``base_env`` (None: toolscope's own environment) plus ``env``, whose
        ``environ_values`` (``${VAR}`` expansions) are masked wherever they could surface."""
        copy = self.model_copy()
        copy._base_env = dict(base_env) if base_env is not None else None
        copy._environ_values = frozenset(v for v in environ_values if v)
        return copy

    @property
    def launch_env(self) -> dict[str, str]:
        """The environment the server is started with: the client's (toolscope's own by default) plus ``env``."""
        return {**(os.environ if self._base_env is None else self._base_env), **self.env}

    @property
    def environ_values(self) -> frozenset[str]:
        """Values of this entry that came from the environment (masked in every output)."""
        return self._environ_values

    @model_validator(mode="after")
    def _needs_a_target(self) -> ServerConfig:
        kind = self.effective_protocol
        if kind == "stdio" and not self.command:
            raise ValueError("a stdio server needs a non-empty 'command' (or give a 'url')")
        if kind in {"sse", "http"} and not self.url:
            raise ValueError(f"a {kind} server needs a 'url'")
        return self

    @property
    def effective_protocol(self) -> Protocol:
        """The declared protocol, or the one inferred from ``url`` (reference §7.1)."""
        if self.protocol:
            return self.protocol
        return infer_protocol(self.url)

    @property
    def directory(self) -> str | None:
        """The working directory (``working_dir``, or its alias ``cwd``)."""
        return self.working_dir or self.cwd


def infer_protocol(url: str | None) -> Protocol:
    """``/sse`` in the URL → sse; ``http://``/``https://`` → http; anything else → stdio."""
    if url and "/sse" in url:
        return "sse"
    if url and ("http://" in url or "https://" in url):
        return "http"
    return "stdio"


class _ConfigFile(BaseModel):
    model_config = ConfigDict(extra="allow")
    mcpServers: dict[str, ServerConfig] = Field(default_factory=dict)  # file format


@dataclass(frozen=True)
class McpConfig:
    """A loaded (and merged) MCP configuration: ordered servers plus where they came from."""

    servers: dict[str, ServerConfig]
    path: Path | None = None
    sha256: str = ""
    """sha256 of the base file's bytes."""
    user_path: Path | None = None
    """The ``_user.json`` override file, when one exists."""
    user_sha256: str | None = None
    overridden: tuple[str, ...] = ()
    """Server names whose base entry the override file replaced."""

    @property
    def input_paths(self) -> tuple[Path, ...]:
        """Every file this config was read from (never to be written)."""
        return tuple(p for p in (self.path, self.user_path) if p is not None)


def user_override_path(path: Path) -> Path | None:
    """``mcp.json`` → ``mcp_user.json`` (first ``.json`` of the file name); None without one."""
    if ".json" not in path.name:
        return None
    return path.with_name(path.name.replace(".json", "_user.json", 1))


def parse_config(data: Any, source: str) -> dict[str, ServerConfig]:
    """Validate one parsed config document; errors name the file and the place."""
    if not isinstance(data, dict):
        raise InputError(source, "not an MCP config", [Problem("(top level)", 'expected an object with "mcpServers"')])
    if "mcpServers" not in data:
        raise InputError(source, "not an MCP config", [Problem("(top level)", 'expected a "mcpServers" object')])
    try:
        return _ConfigFile.model_validate(data).mcpServers
    except ValidationError as exc:
        raise InputError(source, "not a valid MCP config", validation_problems(exc)) from None


def load_config(path: Path | str) -> McpConfig:
    """Load ``path`` and merge its ``_user.json`` override (missing override tolerated)."""
    path = Path(path)
    text, digest = read_text(path, "MCP config")
    servers = dict(parse_config(parse_json(text, str(path)), str(path)))
    user = user_override_path(path)
    user_digest = None
    overridden: list[str] = []
    if user is not None and user.exists():
        user_text, user_digest = read_text(user, "MCP config override")
        for name, entry in parse_config(parse_json(user_text, str(user)), str(user)).items():
            if name in servers:
                overridden.append(name)
            servers[name] = entry  # replaces in place: dict keeps the base order
    else:
        user = None
    return McpConfig(servers, path, digest, user, user_digest, tuple(overridden))


def config_from_dict(data: dict[str, Any], source: str = "<config>") -> McpConfig:
    """Build a config from an in-memory ``{"mcpServers": ...}`` document (tests, embedding)."""
    import json

    digest = hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()
    return McpConfig(parse_config(data, source), None, digest)


SERVER_KEYS = frozenset(
    {"command", "args", "env", "working_dir", "description", "protocol", "pool_config", "url", "headers", "oauth"}
)
"""Keys of an ``mcpServers`` entry that AgentWorks' ``mcpclient/config.go`` reads (reference §7.1)."""
TOOLSCOPE_ALIASES = {"cwd": "working_dir"}
"""Keys toolscope accepts for other clients but AgentWorks does not read."""


def unknown_server_keys(path: Path) -> list[tuple[str, str, str | None]]:
    """(location, key, suggestion) for each ``mcpServers`` entry key AgentWorks does not read.

    Reads ``path`` and its ``_user.json`` override; unreadable files yield nothing here
    (loading them reports the error).
    """
    out: list[tuple[str, str, str | None]] = []
    for file in (path, user_override_path(path)):
        if file is None or not file.is_file():
            continue
        for name, entry in _server_entries(file).items():
            if isinstance(entry, dict):
                out += [
                    (f"{file.name}: mcpServers.{name}.{key}", key, _known_key(key))
                    for key in entry
                    if key not in SERVER_KEYS
                ]
    return out


def _server_entries(file: Path) -> dict[str, Any]:
    """The ``mcpServers`` mapping of one file; empty when the file cannot be read (loading it says why)."""
    try:
        data = parse_json(read_text(file, "MCP config")[0], str(file))
    except InputError:
        return {}
    servers = data.get("mcpServers") if isinstance(data, dict) else None
    return servers if isinstance(servers, dict) else {}


def _known_key(key: str) -> str | None:
    """The key AgentWorks reads that ``key`` was likely meant to be."""
    from ..text.suggest import did_you_mean

    close = did_you_mean(key, SERVER_KEYS, limit=1)
    return TOOLSCOPE_ALIASES.get(key) or (close[0] if close else None)


def unknown_key_findings(config_path: Path) -> list[Finding]:
    """``unknown_key`` findings for server keys AgentWorks' MCP config loader does not read."""
    from ..model.enums import Severity
    from ..model.verdicts import Finding

    out = []
    for location, key, suggestion in unknown_server_keys(config_path):
        hint = f" (did you mean {suggestion}?)" if suggestion else ""
        out.append(
            Finding(
                SharedFinding.UNKNOWN_KEY,
                f'"{key}" is not a key AgentWorks reads in an mcpServers entry{hint}; '
                "Go's encoding/json drops it, so the server starts as if it were absent",
                entry=key,
                source=location,
                severity=Severity.WARNING,
            )
        )
    return out
