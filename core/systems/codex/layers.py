"""Read and merge Codex's TOML config layers (never writing them); TOML through ``tomllib``.

Observed with 0.171.0 (reference §2 row 1): ``/etc/codex/config.toml`` < ``$CODEX_HOME/config.toml``
< every project ``.codex/config.toml`` from the git root down to the cwd (each only when trusted:
``folders.py``) < ``-c key=value`` <
``/etc/codex/managed_config.toml``. Each server key remembers the layer that set it.
"""

from __future__ import annotations

import re
import stat
import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ...inputs.input_files import checked_path, read_text
from ...inputs.validation_errors import validate_model
from ...model.errors import InputError, Problem
from .file_models import ConfigFile, model_for
from .folders import ProjectFolders, project_folders

MAX_OVERRIDES = 256


@dataclass(frozen=True)
class Layer:
    """One TOML layer: its name, how it is shown, its table, whether Codex reads it."""

    name: str
    shown: str
    data: dict[str, Any]
    sha256: str = ""
    path: Path | None = None
    ignored: str = ""


@dataclass
class Merged:
    """Servers after merging: each key's value and the layer that set it."""

    servers: dict[str, dict[str, tuple[Any, str]]] = field(default_factory=dict)
    top: dict[str, tuple[Any, str]] = field(default_factory=dict)
    ignored_servers: dict[str, str] = field(default_factory=dict)
    """Servers only an ignored (untrusted) layer defines → that layer's shown path."""


def read_toml(path: Path, shown: str, what: str) -> Layer | None:
    """A TOML file as a layer; None when missing; a syntax error names file and line:column."""
    info = checked_path(path, what)
    if info is None or stat.S_ISDIR(info.st_mode):
        return None  # a pipe or device is read_text's error, never a silent skip
    text, digest = read_text(path, what)
    data = parse_toml(text, str(path))
    validate_model(model_for(what), data, str(path), f"Codex {what}")
    return Layer(what, shown, data, digest, path)


MAX_TOML_DEPTH = 100
"""Nesting tomllib is trusted with: its parser recurses, and past ~300 levels it overflows."""


def parse_toml(text: str, source: str) -> dict[str, Any]:
    """``tomllib.loads``; bad TOML, or nesting deeper than ``MAX_TOML_DEPTH``, is an InputError with line:column."""
    from ...inputs.nesting import deep_place

    deep = deep_place(text, MAX_TOML_DEPTH)
    if deep is not None:
        raise InputError(
            source,
            "nested too deeply to read",
            [Problem(f"line {deep[0]}, column {deep[1]}", f"more than {MAX_TOML_DEPTH} levels of [ ] or {{ }}")],
        )
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        # Python 3.11's TOMLDecodeError has no lineno/colno: they are in the message.
        raise InputError(source, "invalid TOML", [toml_problem(str(exc), text)]) from None
    except RecursionError:  # nesting deep_place did not count (dotted keys): still the file's fault
        raise InputError(source, "nested too deeply to read") from None


def toml_problem(error: str, text: str) -> Problem:
    """A tomllib message as a Problem at line:column; "at end of document" becomes the file's last position."""
    # Python 3.11's TOMLDecodeError has no lineno/colno: they are in the message.
    found = re.search(r"\(at line (\d+), column (\d+)\)", error)
    if found:
        return Problem(f"line {found[1]}, column {found[2]}", error.split(" (at line")[0])
    if error.endswith("(at end of document)"):
        lines = text.split("\n")
        where = f"line {len(lines)}, column {len(lines[-1]) + 1} (the end of the file)"
        message = error.removesuffix(" (at end of document)")
        return Problem(where, f"{message}: the file ends inside a value or a table header (cut short?)")
    return Problem("", error)


def parse_override(text: str) -> dict[str, Any]:
    """``-c a.b=VALUE`` → ``{"a": {"b": VALUE}}``; VALUE parsed as TOML, else the raw string (as Codex does).

    The key is split at every dot, quoted or not, and quote characters stay in the parts:
    ``mcp_servers."a.b".enabled`` names a server ``"a"`` with a key ``b"`` (Codex then refuses it)."""
    key, eq, raw = text.partition("=")
    if not eq or not key.strip():
        raise InputError("-c", f"expected key=value, got {text!r}")
    try:
        value = parse_toml(f"v = {raw}", "-c")["v"]
    except InputError:
        value = raw
    out: dict[str, Any] = {}
    node = out
    parts = key.strip().split(".")  # Codex splits at every dot and keeps quote characters (observed, 0.171.0)
    for part in parts[:-1]:
        node = node.setdefault(part, {})
    node[parts[-1]] = value
    validate_model(ConfigFile, out, f"-c {text}", "Codex config override")
    return out


def project_trusted(user: Layer | None, folders: ProjectFolders, folder: Path) -> tuple[bool, str]:
    """``folder``'s ``.codex/`` is trusted when an entry names it, a folder above it up to the git root, or the
    main repository of a worktree (``folders``); a trust entry of the cwd alone, or above the git root, does not count."""
    projects = (user.data.get("projects") if user else None) or {}
    if not isinstance(projects, dict):
        projects = {}
    shown = user.shown if user else "$CODEX_HOME/config.toml"
    for candidate in folders.trust_keys(folder):
        entry = projects.get(str(candidate))
        if isinstance(entry, dict) and entry.get("trust_level") == "trusted":
            return True, f'{shown}: projects."{candidate}".trust_level'
    return False, f'no [projects."{folders.trust_target}"] trust_level = "trusted" in {shown}'


def _trust_layer(user: Layer | None, profile: Layer | None) -> Layer | None:
    """The ``projects`` tables of the user config and the profile file as one layer (the profile's entries win)."""
    if profile is None or not isinstance(profile.data.get("projects"), dict):
        return user
    mine = user.data.get("projects") if user else None
    projects = {**(mine if isinstance(mine, dict) else {}), **profile.data["projects"]}
    shown = f"{user.shown if user else '$CODEX_HOME/config.toml'} + {profile.shown}"
    return Layer("user config", shown, {"projects": projects})


def _project_layers(user: Layer | None, folders: ProjectFolders) -> list[Layer]:
    """Every ``.codex/config.toml`` from the git root down to the cwd, each marked ignored when not trusted."""
    out = []
    for folder in folders.codex_dirs():
        path = folder / ".codex" / "config.toml"
        shown = str(path.relative_to(folders.cwd)) if folder == folders.cwd else str(path)
        local = read_toml(path, shown, "project config")
        if local is None:
            continue
        trusted, why = project_trusted(user, folders, folder)
        out.append(local if trusted else replace(local, ignored=f"the project is not trusted ({why})"))
    return out


def load_layers(
    project: Path, codex_home: Path, system_dir: Path, overrides: tuple[str, ...], profile: str | None = None
) -> tuple[list[Layer], ProjectFolders]:
    """Every layer in merge order (lowest first), and the folders that decided the project layers.

    ``profile`` (``--profile NAME``): ``$CODEX_HOME/NAME.config.toml`` above config.toml and below the
    project layers; its ``projects`` trust entries count too; a missing file is skipped silently (as Codex does)."""
    layers: list[Layer] = []
    system = read_toml(system_dir / "config.toml", str(system_dir / "config.toml"), "system config")
    user = read_toml(codex_home / "config.toml", "$CODEX_HOME/config.toml", "user config")
    chosen = (
        read_toml(codex_home / f"{profile}.config.toml", f"$CODEX_HOME/{profile}.config.toml", "profile config")
        if profile
        else None
    )
    folders = project_folders(project)
    layers += [layer for layer in (system, user, chosen) if layer]
    layers += _project_layers(_trust_layer(user, chosen), folders)
    for text in overrides[:MAX_OVERRIDES]:
        layers.append(Layer("override", f"-c {text}", parse_override(text)))
    managed = read_toml(system_dir / "managed_config.toml", str(system_dir / "managed_config.toml"), "managed config")
    if managed:
        layers.append(managed)
    return layers, folders


def merge(layers: list[Layer]) -> Merged:
    """Servers key by key (later layers win), top-level keys, and servers only ignored layers define."""
    out = Merged()
    for layer in layers:
        servers = layer.data.get("mcp_servers")
        if layer.ignored:
            for name in servers or {}:
                out.ignored_servers.setdefault(name, layer.shown)
            continue
        for key, value in layer.data.items():
            if key != "mcp_servers":
                out.top[key] = (value, layer.shown)
        if not isinstance(servers, dict):
            continue
        for name, table in servers.items():
            if not isinstance(table, dict):
                raise InputError(
                    layer.shown, "not a valid Codex config", [Problem(f"mcp_servers.{name}", "expected a table")]
                )
            merged = out.servers.setdefault(name, {})
            for key, value in table.items():
                merged[key] = (value, f"{layer.shown}: mcp_servers.{name}.{key}")
    return out
