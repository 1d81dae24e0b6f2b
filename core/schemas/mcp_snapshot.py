"""``toolscope.mcp-snapshot/1``: what MCP discovery found (``discover --json`` and ``-o``)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from .base import Model


class SnapshotConfig(Model):
    """The MCP config discovered from (file names as given) and its _user.json override."""

    file: str | None
    sha256: str
    user_file: str | None
    user_sha256: str | None


class SnapshotTool(Model):
    """A tool a server listed."""

    name: str
    description: str


class SnapshotServer(Model):
    """One configured server: connected or not, how long it took, its tools."""

    name: str
    protocol: str
    ok: bool
    error: str | None
    elapsed: float
    launch: dict[str, Any]
    """The command line or URL, secrets masked."""
    tools: list[SnapshotTool]
    era: Literal["modern", "legacy"] | None = None
    """How the server spoke: ``modern`` (MCP 2026-07-28+, stateless: ``server/discover``) or
    ``legacy`` (the ``initialize`` handshake). Null when it did not connect; absent in
    snapshots from before this field."""
    protocol_version: str | None = None
    """The protocol version agreed on, e.g. ``2025-11-25`` or ``2026-07-28``."""
    ttl_ms: int | None = Field(default=None, ge=0)
    """How long the server said this tool listing stays fresh, in ms (``ttlMs``), counted from
    ``taken_at``; 0 means stale at once. Null: the server gave no ttl (legacy servers)."""
    cache_scope: Literal["public", "private"] | None = None
    """The server's ``cacheScope`` for the listing: ``public`` (shareable) or ``private``."""


class SnapshotDuplicate(Model):
    """A tool name more than one server lists: the first server keeps it."""

    tool: str
    kept_server: str
    dropped_server: str


class SnapshotEnvelope(Model):
    """A discovery result, redacted, loadable with ``--snapshot``."""

    schema_: Literal["toolscope.mcp-snapshot/1"] = Field("toolscope.mcp-snapshot/1", alias="schema")
    taken_at: str
    toolscope_version: str
    config: SnapshotConfig
    timeout: float
    elapsed: float
    servers: list[SnapshotServer]
    duplicates: list[SnapshotDuplicate]
