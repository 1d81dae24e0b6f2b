"""``load_mcp_universe``: the one entry point engines use to get MCP tools, live or from a snapshot."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from ..model.errors import InputError
from .config import load_config, user_override_path
from .results import DiscoveryResult

DEFAULT_TIMEOUT = 10.0


def load_mcp_universe(
    config_path: Path | None, snapshot: Path | None = None, timeout: float = DEFAULT_TIMEOUT
) -> DiscoveryResult:
    """Live discovery of ``config_path`` when ``snapshot`` is None, else the saved snapshot.

    With a snapshot the config is not needed (offline reproduction); when it is present we
    compare its sha256 with the one recorded and add a note to ``source.notes`` if the
    config changed since the snapshot was taken. Bad files raise ``InputError`` (exit 2).
    """
    if snapshot is not None:
        from .snapshot import load_snapshot

        result = load_snapshot(snapshot)
        notes = list(result.source.notes)
        config_path = Path(config_path) if config_path is not None else None
        if config_path is not None and config_path.exists():
            from ..inputs.input_files import file_sha256

            current = file_sha256(config_path, "MCP config")
            if result.source.config_sha256 and current != result.source.config_sha256:
                notes.append(f"{config_path.name} changed since the snapshot was taken ({result.source.taken_at})")
            user = user_override_path(config_path)
            user_now = file_sha256(user, "MCP config override") if user and user.exists() else None
            if user_now != result.source.user_config_sha256:
                notes.append(f"the _user.json override changed since the snapshot was taken ({result.source.taken_at})")
        return replace(result, source=replace(result.source, notes=tuple(notes)))
    from .discovery import discover_sync

    if config_path is None:
        raise InputError("mcp_config", "live discovery needs an mcpServers config (or give --snapshot)")
    return discover_sync(load_config(config_path), timeout)
