"""Which config files OpenCode 1.18.33 reads for a session in a folder, in its order, merged as it merges them.

Order (later wins; objects deep-merge keeping each key's first position, anything else is replaced):

1. global ``$XDG_CONFIG_HOME/opencode/`` (``~/.config/opencode``): ``config.json``, ``opencode.json``, ``opencode.jsonc``;
2. the file ``OPENCODE_CONFIG`` names;
3. ``opencode.json`` then ``opencode.jsonc`` in every folder from the git root (no git: ``/``) down to the cwd;
4. config folders: ``.opencode/`` from the cwd UP to the git root (inner first, so the outer wins),
   then ``~/.opencode/``, then ``OPENCODE_CONFIG_DIR``: each one's ``opencode.json(c)`` and its
   ``agent(s)/**/*.md`` / ``mode(s)/*.md`` (the global folder gives only its agents);
5. ``OPENCODE_CONFIG_CONTENT``;  6. managed ``/etc/opencode/opencode.json(c)`` (beats everything).

``OPENCODE_DISABLE_PROJECT_CONFIG`` skips 3 and the project's ``.opencode/``. Each layer's
text has ``{env:…}`` / ``{file:…}`` substituted before it is parsed (``jsonc``).

Public API::

    load_layers(project, home, environ, managed_dir) -> Layers
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...inputs.input_files import checked_path, read_text
from ...inputs.strict_json import parse_json
from ...model.errors import InputError, Problem
from .jsonc import line_of, strip_jsonc, substitute

MAX_DEPTH = 64
"""At most this many folders between the cwd and the git root (or ``/``) are read."""
MAX_AGENT_FILES = 200


@dataclass
class Layer:
    """One config source as read: its data after substitution and JSONC."""

    shown: str
    path: Path | None
    text: str
    data: dict[str, Any]
    sha256: str
    bad_references: tuple[str, ...] = ()

    def place(self, *keys: str) -> str:
        """``file:line`` of the deepest key found (the file alone when none is)."""
        line = None
        for key in keys:
            line = line_of(self.text, key) or line
        return f"{self.shown}:{line}" if line else self.shown


@dataclass
class Layers:
    """Every layer read, in order, and the merged config with where each key path was last set."""

    layers: list[Layer] = field(default_factory=list)
    merged: dict[str, Any] = field(default_factory=dict)
    where: dict[tuple[str, ...], str] = field(default_factory=dict)
    worktree: Path = Path("/")
    global_dir: Path = Path("~/.config/opencode")

    def at(self, *path: str) -> str | None:
        """Where a key path was last set (``file:line``)."""
        return self.where.get(tuple(path))


MAX_LEGACY_MODES = 256
"""Legacy ``mode`` entries turned into agents (a cap on outside data)."""


def merge_into(target: dict[str, Any], source: Mapping[str, Any], layer: Layer, where: dict, prefix=()) -> None:  # type: ignore[type-arg]
    """Deep merge ``source`` into ``target`` (objects merge, the rest replaced), recording each key path's layer."""
    for key, value in source.items():
        path = (*prefix, str(key))
        where[path] = layer.place(*path[-2:])
        if isinstance(value, dict) and isinstance(target.get(key), dict):
            merge_into(target[key], value, layer, where, path)
        elif isinstance(value, dict):
            target[key] = {}
            merge_into(target[key], value, layer, where, path)
        else:
            target[key] = value


def _git_root(folder: Path) -> Path:
    for depth, parent in enumerate([folder, *folder.parents]):
        if depth > MAX_DEPTH:
            break
        if (parent / ".git").exists():
            return parent
    return Path("/")


def _between(cwd: Path, root: Path) -> list[Path]:
    """Folders from ``cwd`` up to ``root`` (inner first)."""
    out = []
    for parent in [cwd, *cwd.parents][: MAX_DEPTH + 1]:
        out.append(parent)
        if parent == root:
            break
    return out


def _shown(path: Path, home: Path, project: Path) -> str:
    for root, prefix in ((project, ""), (home, "~/")):
        try:
            return prefix + str(path.relative_to(root))
        except ValueError:
            continue
    return str(path)


def read_layer(text: str, shown: str, path: Path | None, folder: Path, home: Path, environ: Mapping[str, str]) -> Layer:
    """One layer's text substituted and parsed (a JSON error is an InputError naming file, line and column)."""
    substituted, bad, _ = substitute(text, environ, folder, home)
    data = parse_json(strip_jsonc(substituted), str(path or shown)) if substituted.strip() else {}
    if not isinstance(data, dict):
        raise InputError(
            str(path or shown), "not an OpenCode config", [Problem("(top level)", "expected a JSON object")]
        )
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    return Layer(shown, path, substituted, data, digest, tuple(bad))


def _file(path: Path, home: Path, project: Path, environ: Mapping[str, str]) -> Layer | None:
    info = checked_path(path, "OpenCode config")
    if info is None or path.is_dir():
        return None
    text, _ = read_text(path, "OpenCode config")
    return read_layer(text, _shown(path, home, project), path, path.parent, home, environ)


def _agent_layer(folder: Path, home: Path, project: Path) -> Layer | None:
    """A config folder's ``agent(s)/**/*.md`` and ``mode(s)/*.md`` as one layer ``{"agent": {...}}``."""
    from .agents import read_agent_files

    agents, files = read_agent_files(folder, MAX_AGENT_FILES)
    if not agents:
        return None
    shown = _shown(folder, home, project) + "/agent"
    text = json.dumps({"agent": agents}, indent=1)
    digest = hashlib.sha256("".join(files).encode()).hexdigest()
    return Layer(shown, None, text, {"agent": agents}, digest)


def _config_dirs(cwd: Path, worktree: Path, home: Path, global_dir: Path, environ: Mapping[str, str]) -> list[Path]:
    dirs = [global_dir]
    if not environ.get("OPENCODE_DISABLE_PROJECT_CONFIG"):
        dirs += [p / ".opencode" for p in _between(cwd, worktree) if (p / ".opencode").is_dir()]
    if (home / ".opencode").is_dir():
        dirs.append(home / ".opencode")
    if environ.get("OPENCODE_CONFIG_DIR"):
        dirs.append(Path(environ["OPENCODE_CONFIG_DIR"]))
    return list(dict.fromkeys(dirs))


_NAMES = ("opencode.json", "opencode.jsonc")


def _early(
    project: Path, home: Path, environ: Mapping[str, str], worktree: Path, global_dir: Path
) -> list[Layer | None]:
    """Global files, ``OPENCODE_CONFIG``, then the project's files from the git root down."""
    read = [_file(global_dir / n, home, project, environ) for n in ("config.json", *_NAMES)]
    if environ.get("OPENCODE_CONFIG"):
        read.append(_file(Path(environ["OPENCODE_CONFIG"]), home, project, environ))
    if not environ.get("OPENCODE_DISABLE_PROJECT_CONFIG"):
        for folder in reversed(_between(project, worktree)):
            read += [_file(folder / n, home, project, environ) for n in _NAMES]
    return read


def _late(
    project: Path, home: Path, environ: Mapping[str, str], worktree: Path, global_dir: Path
) -> list[Layer | None]:
    """The config folders (their files and agents), ``OPENCODE_CONFIG_CONTENT``."""
    read: list[Layer | None] = []
    for folder in _config_dirs(project, worktree, home, global_dir, environ):
        if folder.name == ".opencode" or str(folder) == environ.get("OPENCODE_CONFIG_DIR"):
            read += [_file(folder / n, home, project, environ) for n in _NAMES]
        read.append(_agent_layer(folder, home, project))
    content = environ.get("OPENCODE_CONFIG_CONTENT")
    if content:
        read.append(read_layer(content, "OPENCODE_CONFIG_CONTENT", None, project, home, environ))
    return read


def load_layers(project: Path, home: Path, environ: Mapping[str, str], managed_dir: Path) -> Layers:
    """Every layer OpenCode reads for a session started in ``project``, merged."""
    worktree = _git_root(project)
    config_home = Path(environ["XDG_CONFIG_HOME"]) if environ.get("XDG_CONFIG_HOME") else home / ".config"
    global_dir = config_home / "opencode"
    found = _early(project, home, environ, worktree, global_dir) + _late(project, home, environ, worktree, global_dir)
    found += [_file(managed_dir / n, home, project, environ) for n in _NAMES]
    out = Layers(worktree=worktree, global_dir=global_dir)
    for layer in found:
        if layer is not None:
            out.layers.append(layer)
            merge_into(out.merged, layer.data, layer, out.where)
    _legacy_modes(out.merged, out.where)
    return out


def _legacy_modes(merged: dict[str, Any], where: dict) -> None:  # type: ignore[type-arg]
    """The legacy top-level ``mode: {NAME: {...}}``, after every layer, becomes agent NAME with
    ``mode: primary`` laid over any ``agent`` entry of that name, as 1.18.33's loader does (lane case
    ``legacy_mode_key``: ``opencode run --agent NAME`` applied its ``tools`` map)."""
    modes = merged.get("mode")
    if not isinstance(modes, dict):
        return
    found = merged.get("agent")
    agents: dict[str, Any] = found if isinstance(found, dict) else {}
    merged["agent"] = agents
    for name, entry in list(modes.items())[:MAX_LEGACY_MODES]:
        if not isinstance(entry, dict):
            continue
        known = agents.get(name)
        current: dict[str, Any] = known if isinstance(known, dict) else {}
        agents[name] = _deep_merged(current, {**entry, "mode": "primary"})
        for path, place in list(where.items()):
            if path[:2] == ("mode", name):
                where[("agent", *path[1:])] = place


def _deep_merged(base: dict[str, Any], over: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _deep_merged(out[key], value)
        else:
            out[key] = value
    return out
