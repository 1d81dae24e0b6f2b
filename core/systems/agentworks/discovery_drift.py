"""How the live MCP listings drifted since a saved snapshot (``--drift-from``), as findings.

A server that changed gets one ``mcp_drift`` finding naming what was added, removed or renamed.
A server that had failed when the snapshot was taken has no tools to compare with: its drift is
unknown, said as an ``mcp_outage`` warning, never as "no drift".
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from ...model.enums import Severity, SharedFinding
from ...model.errors import InputError
from ...model.verdicts import Finding

if TYPE_CHECKING:
    from ...mcp.results import DiscoveryResult
    from ...mcp.snapshot import ServerDrift


def drift_findings(discovery: DiscoveryResult | None, snapshot: Path) -> list[Finding]:
    """Compare this run's live discovery with a saved snapshot: added, removed, renamed tools per server."""
    from ...mcp.snapshot import diff_snapshots, load_snapshot

    if discovery is None or discovery.source.kind != "live":
        raise InputError("--drift-from", "needs live discovery: a registry with mcp_config, and no --snapshot")
    before = load_snapshot(snapshot)
    drift = diff_snapshots(before, discovery)
    findings = []
    unknown = []
    for server in drift.servers:
        then = before.server(server.server)
        if then is not None and not then.ok:
            # The snapshot holds no tools for it: nothing to compare with, whatever it lists now.
            now = discovery.server(server.server)
            unknown.append((server.server, then.error, now is not None and not now.ok))
        elif server.changed:
            findings.append(_drifted(server, snapshot))
    return findings + [_drift_unknown(name, error, still, snapshot) for name, error, still in unknown]


def _drifted(server: ServerDrift, snapshot: Path) -> Finding:
    """One changed server: its status, and the tools added, removed and renamed."""
    parts = [server.status] if server.status else []
    parts += [f"added {', '.join(server.added)}"] if server.added else []
    parts += [f"removed {', '.join(server.removed)}"] if server.removed else []
    parts += [f"renamed {', '.join(f'{a} -> {b}' for a, b in server.renamed)}"] if server.renamed else []
    return Finding(
        SharedFinding.MCP_DRIFT,
        f'server "{server.server}" drifted since {snapshot.name}: ' + "; ".join(parts),
        entry=server.server,
        source=snapshot.name,
    )


def _drift_unknown(server: str, error: str | None, still: bool, snapshot: Path) -> Finding:
    """A server that had failed when the snapshot was taken (``still``: and fails now)."""
    return Finding(
        SharedFinding.MCP_OUTAGE,
        f'drift of MCP server "{server}" since {snapshot.name} is unknown: it failed when the snapshot '
        + ("was taken and fails now" if still else f"was taken ({error or 'failed'})")
        + ", so there are no tools to compare",
        entry=server,
        source=snapshot.name,
        severity=Severity.WARNING,
    )
