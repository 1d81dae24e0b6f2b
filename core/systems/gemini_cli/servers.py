"""Gemini CLI's servers and their first stages: where each is defined, folder trust, the connection gate.

Sources (reference §2 stage 3): ``mcpServers`` of the settings files that count, merged by
name; then each active extension's ``mcpServers`` (a settings server of the same name wins;
an extension server's ``trust`` is stripped). The gate (stage 4): ``mcp.allowed`` is the
intersection of every file's list (exact case; ``["*"]`` matches nothing), ``mcp.excluded``
the union; ``--allowed-mcp-server-names`` replaces the allow list and drops the excluded gate.

Public API::

    ServerEntry, gather_servers(files, args) -> {name: ServerEntry}
    server_stages(entry, files, args) -> [Stage]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...model.verdicts import Stage
from ..coding_cli.common import quoted, stage
from .args import GeminiArgs
from .files import Extension, GeminiFiles
from .ids import GeminiStage
from .settings import SettingsFile

MAX_SERVERS = 1000


@dataclass(frozen=True)
class ServerEntry:
    """One server the CLI knows, with where it is defined."""

    name: str
    entry: dict[str, Any]
    file: SettingsFile | None
    extension: Extension | None = None

    @property
    def shown(self) -> str:
        return self.file.shown if self.file else self.extension.shown if self.extension else "?"

    def at(self, key: str | None = None) -> str:
        """``~/.gemini/settings.json:7: mcpServers.t.trust``."""
        if self.file is not None:
            return self.file.at("mcpServers", self.name, *((key,) if key else ()))
        return f"{self.shown}: mcpServers.{self.name}" + (f".{key}" if key else "")

    @property
    def scope(self) -> str:
        return self.file.scope if self.file else "extension"


def _entries(block: Any) -> list[tuple[str, dict[str, Any]]]:
    """A ``mcpServers`` object's (name, entry) pairs, bounded; entries that are not objects skipped."""
    items = list(block.items())[:MAX_SERVERS] if isinstance(block, dict) else []
    return [(str(name), entry) for name, entry in items if isinstance(entry, dict)]


def gather_servers(files: GeminiFiles) -> dict[str, ServerEntry]:
    """Every server, settings first, then extensions' (first definition of a name wins there), then the
    workspace servers the CLI does not read (their rows say why)."""
    out = {name: ServerEntry(name, entry, file) for name, (entry, file) in files.settings.servers().items()}
    for ext in files.extensions:
        for name, entry in _entries(ext.data.get("mcpServers")):
            out.setdefault(name, ServerEntry(name, entry, None, ext))
    for file in files.settings.ignored:
        for name, entry in _entries(file.get("mcpServers")):
            out.setdefault(name, ServerEntry(name, entry, file))
    return dict(list(out.items())[:MAX_SERVERS])


def _settings_stage(server: ServerEntry, files: GeminiFiles, args: GeminiArgs) -> Stage:
    if server.file is not None and server.file in files.settings.ignored:
        why = (
            "--skip-trust drops them (they load before the flag applies)"
            if args.skip_trust
            else "the folder is not trusted"
        )
        return stage(
            GeminiStage.SETTINGS,
            False,
            "settings.workspace_ignored",
            f"defined only in {server.shown} (workspace settings), which the CLI does not read: {why}",
            server.name,
            server.at(),
        )
    if server.extension is not None and not server.extension.active:
        return stage(
            GeminiStage.SETTINGS,
            False,
            "settings.extension_off",
            f"defined by extension {server.extension.name} ({server.shown}): {server.extension.why}",
            server.name,
            server.shown,
        )
    how = f"extension {server.extension.name}" if server.extension else f"{server.scope} settings"
    return stage(
        GeminiStage.SETTINGS, True, "settings.read", f"defined in {how}: {server.at()}", server.name, server.at()
    )


def trust_stage(files: GeminiFiles, args: GeminiArgs) -> Stage:
    """Folder trust: an untrusted ``-p`` run exits 55 before any request (``--skip-trust`` goes on)."""
    trust = files.trust
    if trust.trusted:
        return stage(
            GeminiStage.FOLDER_TRUST, True, "trust.trusted", f"the folder is trusted: {trust.rule}", None, trust.source
        )
    if args.skip_trust:
        return stage(
            GeminiStage.FOLDER_TRUST,
            True,
            "trust.skipped",
            f"not trusted ({trust.rule}), but --skip-trust lets the run go on (workspace settings dropped)",
            None,
            trust.source,
        )
    if args.headless:
        return stage(
            GeminiStage.FOLDER_TRUST,
            False,
            "trust.untrusted_headless",
            f"the folder is not trusted ({trust.rule}): gemini -p exits 55 before sending any request",
            None,
            trust.source,
        )
    return stage(
        GeminiStage.FOLDER_TRUST,
        False,
        "trust.untrusted",
        f"the folder is not trusted ({trust.rule}): an interactive session starts no MCP server",
        None,
        trust.source,
    )


def _allowed_lists(files: GeminiFiles, args: GeminiArgs) -> list[tuple[list[str], str]]:
    if args.allowed_servers is not None:
        return [(list(args.allowed_servers), "--allowed-mcp-server-names")]
    return [
        ([str(v) for v in value], file.at("mcp.allowed"))
        for value, file in files.settings.each("mcp.allowed")
        if isinstance(value, list)
    ]


def _excluded(name: str, files: GeminiFiles, args: GeminiArgs) -> Stage | None:
    if args.allowed_servers is not None:
        return None
    where = next((w for item, w in files.settings.union("mcp.excluded") if item == name), None)
    if where is None:
        return None
    text = f'"{name}" is in mcp.excluded ({where}): never started'
    return stage(GeminiStage.SERVER_GATE, False, "gate.excluded", text, name, where)


def _not_allowed(name: str, listed: list[str], where: str) -> Stage:
    close = [s for s in listed if s.lower() == name.lower()]
    hint = f' (it names "{close[0]}": the match is exact, case included)' if close else ""
    text = f'mcp.allowed = {quoted(listed)} ({where}) leaves "{name}" out{hint}: never started'
    return stage(GeminiStage.SERVER_GATE, False, "gate.not_allowed", text, quoted(listed), where)


def gate_stage(name: str, files: GeminiFiles, args: GeminiArgs) -> Stage:
    """``mcp.allowed`` (every list must name it, exact case) and ``mcp.excluded`` (any list)."""
    excluded = _excluded(name, files, args)
    if excluded is not None:
        return excluded
    lists = _allowed_lists(files, args)
    for listed, where in lists:
        if name not in listed:
            return _not_allowed(name, listed, where)
    rule = (
        f"allowed by {', '.join(w for _, w in lists)}" if lists else "no mcp.allowed / mcp.excluded entry keeps it out"
    )
    return stage(GeminiStage.SERVER_GATE, True, "gate.open", rule)


def server_stages(server: ServerEntry, files: GeminiFiles, args: GeminiArgs) -> list[Stage]:
    """Stages 1-3 of one server; each only when the one before passed."""
    out = [_settings_stage(server, files, args)]
    if out[-1].passed:
        out.append(trust_stage(files, args))
    if out[-1].passed:
        out.append(gate_stage(server.name, files, args))
    return out
