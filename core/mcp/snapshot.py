"""Save and load discovery snapshots, and diff two of them (drift detection).

Snapshot document (``"schema": "toolscope.mcp-snapshot/1"``)::

    {"schema": ..., "taken_at": ISO-8601 UTC, "toolscope_version": ...,
     "config": {"file", "sha256", "user_file", "user_sha256"}, "timeout": s, "elapsed": s,
     "servers": [{"name", "protocol", "ok", "error", "elapsed", "launch": {...redacted...},
                  "tools": [{"name", "description"}],
                  "era", "protocol_version", "ttl_ms", "cache_scope"}],
     "duplicates": [{"tool", "kept_server", "dropped_server"}]}

``era`` is ``modern`` (MCP 2026-07-28+: ``server/discover``) or ``legacy`` (``initialize``);
``ttl_ms``/``cache_scope`` are the server's own cache hints for the listing (modern only), so a
snapshot older than ``taken_at + ttl_ms`` is flagged stale (``ServerResult.is_stale``).

``launch`` holds the server's command line (or URL) with secrets masked (see ``redact``);
descriptions and errors were scrubbed of secret values during discovery.

Renames in ``diff_snapshots`` are a heuristic, applied per server between the tools only
in the old snapshot and those only in the new one: two names are a rename when their
normalized forms are equal (lower-cased, everything but letters and digits removed, so
``get_time`` ~ ``getTime`` ~ ``get-time``) or their edit distance is at most
``max(1, len(longer) // 5)`` (≈ 20 %; ``list_repos`` ~ ``list_repo``). Pairs are taken best
first (smallest distance), each name used once; the rest are added or removed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from ..inputs.documents import load_document
from ..inputs.validation_errors import validate_model
from ..model.errors import InputError, Problem
from ..schemas.base import render
from ..schemas.mcp_snapshot import (
    SnapshotConfig,
    SnapshotDuplicate,
    SnapshotEnvelope,
    SnapshotServer,
    SnapshotTool,
)
from ..text.suggest import edit_distance
from .results import (
    DiscoveryResult,
    Duplicate,
    Provenance,
    ServerResult,
)

SCHEMA = "toolscope.mcp-snapshot/1"


def snapshot_document(result: DiscoveryResult) -> SnapshotEnvelope:
    """The snapshot document for a discovery result (already redacted)."""
    from .. import __version__

    src = result.source
    return SnapshotEnvelope(
        taken_at=src.taken_at,
        toolscope_version=__version__,
        config=SnapshotConfig(
            file=src.config_file,
            sha256=src.config_sha256,
            user_file=src.user_config_file,
            user_sha256=src.user_config_sha256,
        ),
        timeout=result.timeout,
        elapsed=result.elapsed,
        servers=[
            SnapshotServer(
                name=s.name,
                protocol=s.protocol,
                ok=s.ok,
                error=s.error,
                elapsed=s.elapsed,
                launch=s.launch,
                tools=[SnapshotTool(name=t, description=s.descriptions.get(t, "")) for t in s.tools],
                era=s.era,
                protocol_version=s.protocol_version,
                ttl_ms=s.ttl_ms,
                cache_scope=s.cache_scope,
            )
            for s in result.servers
        ],
        duplicates=[
            SnapshotDuplicate(tool=d.tool, kept_server=d.kept_server, dropped_server=d.dropped_server)
            for d in result.duplicates
        ],
    )


def write_snapshot(result: DiscoveryResult, path: Path, protect: tuple[Path, ...] = (), *, force: bool = True) -> None:
    """Write the snapshot by the output rules of ``output_file`` (atomic, never over an input)."""
    from ..outputs.output_file import write_output

    text = render(snapshot_document(result))
    write_output(text, str(path), force=force, inputs=protect, what="the snapshot")


class _Strict(BaseModel):
    # Validate, never coerce: "ok": "false" is an error, not a connected server.
    model_config = ConfigDict(strict=True, extra="ignore", allow_inf_nan=False, populate_by_name=True)


class _SnapshotTool(_Strict):
    name: str
    description: str | None = ""


class _SnapshotServer(_Strict):
    name: str
    protocol: str = "stdio"
    ok: bool
    error: str | None = None
    elapsed: float = Field(default=0.0, ge=0)
    launch: dict[str, Any] | None = None
    tools: list[_SnapshotTool] = []
    era: Literal["modern", "legacy"] | None = None
    protocol_version: str | None = None
    ttl_ms: int | None = Field(default=None, ge=0)
    cache_scope: Literal["public", "private"] | None = None


class _SnapshotDuplicate(_Strict):
    tool: str
    kept_server: str
    dropped_server: str


class _SnapshotConfig(_Strict):
    file: str | None = None
    sha256: str = ""
    user_file: str | None = None
    user_sha256: str | None = None


class _SnapshotDocument(_Strict):
    taken_at: str
    config: _SnapshotConfig | None = None
    timeout: float = Field(default=0.0, ge=0)
    elapsed: float = Field(default=0.0, ge=0)
    servers: list[_SnapshotServer]
    duplicates: list[_SnapshotDuplicate] = []


def snapshot_from_json(data: Any, source: str, snapshot_file: str | None = None) -> DiscoveryResult:
    """Rebuild a DiscoveryResult from a snapshot document; bad documents are InputErrors
    naming the place (``servers[0].ok: expected true or false (got "false")``)."""
    if not isinstance(data, dict) or data.get("schema") != SCHEMA:
        got = data.get("schema") if isinstance(data, dict) else type(data).__name__
        raise InputError(
            source, "not a toolscope MCP snapshot", [Problem("schema", f"expected {SCHEMA!r}, got {got!r}")]
        )
    document = validate_model(_SnapshotDocument, data, source, "toolscope MCP snapshot")
    servers = tuple(_server_result(s) for s in document.servers)
    duplicates = tuple(Duplicate(d.tool, d.kept_server, d.dropped_server) for d in document.duplicates)
    config = document.config or _SnapshotConfig()
    source_info = Provenance(
        kind="snapshot",
        config_file=config.file,
        config_sha256=config.sha256,
        taken_at=document.taken_at,
        user_config_file=config.user_file,
        user_config_sha256=config.user_sha256,
        snapshot_file=snapshot_file,
    )
    return DiscoveryResult(
        servers=servers,
        duplicates=duplicates,
        source=source_info,
        elapsed=document.elapsed,
        timeout=document.timeout,
    )


def _server_result(server: _SnapshotServer) -> ServerResult:
    return ServerResult(
        name=server.name,
        protocol=server.protocol,
        ok=server.ok,
        tools=tuple(t.name for t in server.tools),
        descriptions={t.name: t.description or "" for t in server.tools},
        error=server.error,
        elapsed=server.elapsed,
        launch=dict(server.launch or {}),
        era=server.era,
        protocol_version=server.protocol_version,
        ttl_ms=server.ttl_ms,
        cache_scope=server.cache_scope,
    )


def load_snapshot(path: Path | str) -> DiscoveryResult:
    """Read a snapshot file written by ``write_snapshot``."""
    document = load_document(path, "MCP snapshot")
    return snapshot_from_json(document.data, str(path), document.name)


# --- drift -----------------------------------------------------------------------------


@dataclass(frozen=True)
class ServerDrift:
    """How one server's tools changed between two snapshots."""

    server: str
    added: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    renamed: tuple[tuple[str, str], ...] = ()
    status: str | None = None
    """Set when the tool lists cannot be compared: ``new server``, ``server removed``,
    ``failed now: <reason>``, ``failed before: <reason>``."""

    @property
    def changed(self) -> bool:
        """True when anything differs."""
        return bool(self.added or self.removed or self.renamed or self.status)


@dataclass(frozen=True)
class Drift:
    """Per-server drift, in the new snapshot's server order (removed servers last)."""

    servers: tuple[ServerDrift, ...] = field(default_factory=tuple)

    @property
    def changed(self) -> bool:
        """True when any server drifted."""
        return any(s.changed for s in self.servers)

    def lines(self) -> list[str]:
        """Plain-text lines for reports: one per change, servers without drift omitted."""
        out: list[str] = []
        for s in self.servers:
            if s.status:
                out.append(f"{s.server}: {s.status}")
            out += [f"{s.server}: added {t}" for t in s.added]
            out += [f"{s.server}: removed {t}" for t in s.removed]
            out += [f"{s.server}: renamed {a} -> {b}" for a, b in s.renamed]
        return out

    def to_json(self) -> dict[str, Any]:
        """JSON form (``toolscope.mcp-drift/1``)."""
        return {
            "schema": "toolscope.mcp-drift/1",
            "changed": self.changed,
            "servers": [
                {
                    "server": s.server,
                    "status": s.status,
                    "added": list(s.added),
                    "removed": list(s.removed),
                    "renamed": [{"from": a, "to": b} for a, b in s.renamed],
                }
                for s in self.servers
            ],
        }


def normalize_name(name: str) -> str:
    """``Get-Time`` → ``gettime``: the form in which cosmetic renames compare equal."""
    return re.sub(r"[^0-9a-z]", "", name.lower())


def _rename_score(old: str, new: str) -> int | None:
    if normalize_name(old) == normalize_name(new):
        return 0
    distance = edit_distance(old, new)
    return distance if distance <= max(1, max(len(old), len(new)) // 5) else None


def _pair_renames(removed: list[str], added: list[str]) -> list[tuple[str, str]]:
    candidates = sorted(
        (score, i, j)
        for i, old in enumerate(removed)
        for j, new in enumerate(added)
        if (score := _rename_score(old, new)) is not None
    )
    used_old: set[int] = set()
    used_new: set[int] = set()
    pairs: list[tuple[int, int]] = []
    for _score, i, j in candidates:
        if i not in used_old and j not in used_new:
            used_old.add(i)
            used_new.add(j)
            pairs.append((i, j))
    return [(removed[i], added[j]) for i, j in sorted(pairs)]


def diff_servers(old: ServerResult | None, new: ServerResult | None, name: str) -> ServerDrift:
    """Drift of one server; failed sides are reported as a status, not as removed tools."""
    if old is None:
        return ServerDrift(name, added=new.tools if new and new.ok else (), status="new server")
    if new is None:
        return ServerDrift(name, status="server removed")
    if old.ok and new.ok:
        return _tool_drift(old.tools, new.tools, name)
    if old.ok:
        return ServerDrift(name, status=f"failed now: {new.error}")
    if new.ok:
        return ServerDrift(name, added=new.tools, status=f"failed before: {old.error}")
    return ServerDrift(name)  # still failing: nothing comparable


def _tool_drift(old_tools: tuple[str, ...], new_tools: tuple[str, ...], name: str) -> ServerDrift:
    """The tools one server added and removed, a close pair of names as a rename."""
    removed = _without(old_tools, set(new_tools))
    added = _without(new_tools, set(old_tools))
    renamed = _pair_renames(list(removed), list(added))
    return ServerDrift(
        name,
        added=_without(added, {b for _, b in renamed}),
        removed=_without(removed, {a for a, _ in renamed}),
        renamed=tuple(renamed),
    )


def _without(names: tuple[str, ...], leave_out: set[str]) -> tuple[str, ...]:
    return tuple(t for t in names if t not in leave_out)


def diff_snapshots(old: DiscoveryResult, new: DiscoveryResult) -> Drift:
    """Added, removed and renamed tools per server between an old and a new discovery."""
    names = [s.name for s in new.servers] + [s.name for s in old.servers if new.server(s.name) is None]
    return Drift(tuple(diff_servers(old.server(n), new.server(n), n) for n in names))
