"""``load_mcp_universe``: the one entry point engines use to get MCP tools, live or from a snapshot."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from ..model.errors import InputError
from .config import load_config, user_override_path
from .results import DiscoveryResult

DEFAULT_TIMEOUT = 10.0


def load_mcp_universe(
    config_path: Path | None, snapshot: Path | None = None, timeout: float = DEFAULT_TIMEOUT, discover: bool = False
) -> DiscoveryResult:
    """Live discovery of ``config_path`` when ``snapshot`` is None, else the saved snapshot.

    Live discovery runs the config's commands, so it happens only with ``discover`` (the user's
    ``--discover`` for this run); without it every server is ``not_started`` (tools unknown).

    With a snapshot the config is not needed (offline reproduction); when it is present we
    compare its sha256 with the one recorded and add a note to ``source.notes`` if the
    config changed since the snapshot was taken. Bad files raise ``InputError`` (exit 2).
    """
    if snapshot is not None:
        from .snapshot import load_snapshot

        result = load_snapshot(snapshot)
        notes = result.source.notes
        if config_path is not None and Path(config_path).exists():
            notes += _changed_since(result, Path(config_path))
        return replace(result, source=replace(result.source, notes=tuple(notes)))
    from .discovery import discover_sync, unstarted

    if config_path is None:
        raise InputError("mcp_config", "live discovery needs an mcpServers config (or give --snapshot)")
    config = load_config(config_path)
    return discover_sync(config, timeout) if discover else unstarted(config)


def _changed_since(result: DiscoveryResult, config_path: Path) -> tuple[str, ...]:
    """Notes for the config and its ``_user.json`` override when they differ from the snapshot's."""
    from ..inputs.input_files import file_sha256

    source = result.source
    notes = []
    current = file_sha256(config_path, "MCP config")
    if source.config_sha256 and current != source.config_sha256:
        notes.append(f"{config_path.name} changed since the snapshot was taken ({source.taken_at})")
    user = user_override_path(config_path)
    user_now = file_sha256(user, "MCP config override") if user and user.exists() else None
    if user_now != source.user_config_sha256:
        notes.append(f"the _user.json override changed since the snapshot was taken ({source.taken_at})")
    return tuple(notes)
