"""Everything Gemini CLI reads for a session in PROJECT_DIR: settings, folder trust, extensions, policies.

Folder trust (reference §2 stage 2, checked with 0.61.0): ``~/.gemini/trustedFolders.json``
(``TRUST_FOLDER``: that folder and below, ``TRUST_PARENT``: its parent and below,
``DO_NOT_TRUST``; the longest matching folder decides), ``GEMINI_CLI_TRUST_WORKSPACE=true|false``
first, ``security.folderTrust.enabled: false`` in user or system settings turns trust off (all
trusted). The workspace settings count only in a trusted folder; ``--skip-trust`` lets an
untrusted ``-p`` run go on but still drops them (they were loaded before the flag applied).

Public API::

    GeminiFiles, Trust, Extension, load_gemini_files(project, home, system_dir, args, environ) -> GeminiFiles
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..coding_cli.common import read_json_file, shown_path
from .args import GeminiArgs
from .settings import Settings, SettingsFile, read_settings_file

MAX_EXTENSIONS = 200
TRUST_VALUES = ("TRUST_FOLDER", "TRUST_PARENT", "DO_NOT_TRUST")


@dataclass(frozen=True)
class Trust:
    """Whether the CLI trusts the folder, and what decided it."""

    trusted: bool
    rule: str
    source: str | None = None
    enforced: bool = True
    """False: ``security.folderTrust.enabled: false`` (trust is off, everything counts)."""


@dataclass(frozen=True)
class Extension:
    """One installed extension: ``~/.gemini/extensions/<dir>/gemini-extension.json``."""

    name: str
    path: Path
    shown: str
    data: dict[str, Any]
    sha256: str
    active: bool
    why: str
    """Why it is inactive (``-e``), else empty."""


@dataclass(frozen=True)
class GeminiFiles:
    """What was read, with how each file is shown."""

    project: Path
    home: Path
    settings: Settings
    trust: Trust
    extensions: tuple[Extension, ...]
    trusted_folders: tuple[Path, str] | None
    """(path, sha256) of trustedFolders.json when it exists."""

    def read_files(self) -> list[tuple[str, str, Path]]:
        """(shown, sha256, path) of every file read: for the input header and provenance."""
        out = [(f.shown, f.sha256, f.path) for f in (*self.settings.files, *self.settings.ignored)]
        if self.trusted_folders is not None:
            out.append(("~/.gemini/trustedFolders.json", self.trusted_folders[1], self.trusted_folders[0]))
        out += [(e.shown, e.sha256, e.path) for e in self.extensions]
        return out


def _system_paths(system_dir: Path | None, environ: Mapping[str, str]) -> tuple[Path, Path]:
    base = system_dir or Path("/etc/gemini-cli")
    defaults = environ.get("GEMINI_CLI_SYSTEM_DEFAULTS_PATH") if system_dir is None else None
    system = environ.get("GEMINI_CLI_SYSTEM_SETTINGS_PATH") if system_dir is None else None
    return Path(defaults or base / "system-defaults.json"), Path(system or base / "settings.json")


def _trust_entries(home: Path) -> tuple[dict[str, Any], tuple[Path, str] | None]:
    path = home / ".gemini" / "trustedFolders.json"
    found = read_json_file(path, "~/.gemini/trustedFolders.json", "Gemini CLI trusted folders")
    return (found.data, (path, found.sha256)) if found else ({}, None)


def _under(folder: Path, project: Path) -> bool:
    return project == folder or folder in project.parents


def folder_trust(project: Path, entries: dict[str, Any], environ: Mapping[str, str]) -> Trust:
    """The trust decision for ``project`` from trustedFolders.json entries and the environment."""
    forced = environ.get("GEMINI_CLI_TRUST_WORKSPACE", "").strip().lower()
    if forced in ("true", "false"):
        return Trust(forced == "true", f"GEMINI_CLI_TRUST_WORKSPACE={forced}", "environment")
    best: tuple[int, str, str] | None = None
    for key, value in list(entries.items())[:10_000]:
        if value not in TRUST_VALUES:
            continue
        folder = Path(key).expanduser()
        folder = folder.parent if value == "TRUST_PARENT" else folder
        if _under(folder, project) and (best is None or len(str(folder)) > best[0]):
            best = (len(str(folder)), key, str(value))
    shown = "~/.gemini/trustedFolders.json"
    if best is None:
        return Trust(False, f"{project} is in no entry of {shown} (folder trust is on by default)", shown)
    _, key, value = best
    return Trust(value != "DO_NOT_TRUST", f'"{key}": "{value}" ({shown})', f"{shown}: {key}")


def _trust_disabled(files: list[SettingsFile]) -> SettingsFile | None:
    """The user or system file that sets ``security.folderTrust.enabled: false`` (highest precedence)."""
    for file in reversed(files):
        if file.scope != "workspace" and file.get("security.folderTrust.enabled") is not None:
            return file if file.get("security.folderTrust.enabled") is False else None
    return None


def _extension(folder: Path, args: GeminiArgs) -> Extension | None:
    """One extension folder's manifest, None when it has none; ``-e`` decides whether it is active."""
    manifest = folder / "gemini-extension.json"
    shown = f"~/.gemini/extensions/{folder.name}/gemini-extension.json"
    found = read_json_file(manifest, shown, "Gemini CLI extension") if folder.is_dir() else None
    if found is None:
        return None
    name = str(found.data.get("name") or folder.name)
    wanted = {e.lower() for e in args.extensions} if args.extensions is not None else {name.lower()}
    active = name.lower() in wanted
    why = "" if active else f"-e {','.join(args.extensions or ())} leaves it out"
    return Extension(name, manifest, shown, found.data, found.sha256, active, why)


def _extensions(home: Path, args: GeminiArgs) -> tuple[Extension, ...]:
    root = home / ".gemini" / "extensions"
    if not root.is_dir():
        return ()
    found = (_extension(folder, args) for folder in sorted(root.iterdir())[:MAX_EXTENSIONS])
    return tuple(e for e in found if e is not None)


def insecure(path: Path) -> str | None:
    """Why the CLI skips a system settings file ("Security Warning: Skipping system settings file"):
    not owned by root, or in a folder that it or an ancestor lets the group or others write (observed
    with 0.61.0: under /tmp it is skipped). None: it is read."""
    try:
        if path.stat().st_uid != 0:
            return f"{path} is not owned by root"
        for folder in list(path.parents)[:64]:
            if folder.stat().st_mode & 0o022:
                return f"{folder} is writable by its group or others"
    except OSError:
        return None
    return None


def _system_file(path: Path, scope: str, environ: Mapping[str, str]) -> SettingsFile | None:
    if path.exists() and insecure(path):
        return None
    return read_settings_file(path, str(path), scope, environ)


def _read_all(
    project: Path, home: Path, system_dir: Path | None, environ: Mapping[str, str]
) -> tuple[list[SettingsFile | None], SettingsFile | None]:
    """(system-defaults, user, system) in precedence order, and the workspace file (None: absent or the home)."""
    defaults_path, system_path = _system_paths(system_dir, environ)
    outer = [
        _system_file(defaults_path, "system-defaults", environ),
        read_settings_file(home / ".gemini" / "settings.json", "~/.gemini/settings.json", "user", environ),
        _system_file(system_path, "system", environ),
    ]
    if project == home:
        return outer, None
    shown = shown_path(project / ".gemini" / "settings.json", home, project)
    return outer, read_settings_file(project / ".gemini" / "settings.json", shown, "workspace", environ)


def _decide_trust(
    outer: list[SettingsFile], project: Path, home: Path, environ: Mapping[str, str]
) -> tuple[Trust, tuple[Path, str] | None]:
    entries, trusted_file = _trust_entries(home)
    off = _trust_disabled(outer)
    if off is None:
        return folder_trust(project, entries, environ), trusted_file
    where = off.at("security.folderTrust.enabled")
    return Trust(True, f"folder trust is off ({where}: false)", off.shown, False), trusted_file


def load_gemini_files(
    project: Path, home: Path, system_dir: Path | None, args: GeminiArgs, environ: Mapping[str, str]
) -> GeminiFiles:
    """Read every file of the session (never writing one)."""
    (defaults, user, system), workspace = _read_all(project, home, system_dir, environ)
    outer = [f for f in (defaults, user, system) if f is not None]
    trust, trusted_file = _decide_trust(outer, project, home, environ)
    counts = workspace if workspace is not None and trust.trusted else None
    files = tuple(f for f in (defaults, user, counts, system) if f is not None)
    ignored = (workspace,) if workspace is not None and counts is None else ()
    return GeminiFiles(project, home, Settings(files, ignored), trust, _extensions(home, args), trusted_file)
