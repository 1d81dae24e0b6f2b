"""Read and merge Codex's TOML config layers (never writing them); TOML through ``tomllib``.

Observed with 0.171.0 (reference §2 row 1): ``/etc/codex/config.toml`` < ``$CODEX_HOME/config.toml``
< the project's ``.codex/config.toml`` (only when ``[projects."<abs path>"] trust_level =
"trusted"`` names the project, or the git root it is in) < ``-c key=value`` <
``/etc/codex/managed_config.toml``. Each server key remembers the layer that set it.
"""

from __future__ import annotations

import re
import stat
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...inputs.input_files import checked_path, read_text
from ...inputs.validation_errors import validate_model
from ...model.errors import InputError, Problem
from ..claude_code.files import git_root
from .file_models import ConfigFile, model_for

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


def _dotted(key: str) -> list[str]:
    parts, current, quote = [], "", ""
    for char in key:
        if quote:
            if char == quote:
                quote = ""
            else:
                current += char
        elif char in "\"'":
            quote = char
        elif char == ".":
            parts.append(current)
            current = ""
        else:
            current += char
    return [*parts, current]


def parse_override(text: str) -> dict[str, Any]:
    """``-c a.b=VALUE`` → ``{"a": {"b": VALUE}}``; VALUE parsed as TOML, else the raw string (as Codex does)."""
    key, eq, raw = text.partition("=")
    if not eq or not key.strip():
        raise InputError("-c", f"expected key=value, got {text!r}")
    try:
        value = parse_toml(f"v = {raw}", "-c")["v"]
    except InputError:
        value = raw
    out: dict[str, Any] = {}
    node = out
    parts = _dotted(key.strip())
    for part in parts[:-1]:
        node = node.setdefault(part, {})
    node[parts[-1]] = value
    validate_model(ConfigFile, out, f"-c {text}", "Codex config override")
    return out


def project_trusted(user: Layer | None, project: Path) -> tuple[bool, str]:
    """Trusted by ``[projects."<project or its git root>"] trust_level = "trusted"`` (a parent does not count)."""
    projects = (user.data.get("projects") if user else None) or {}
    root = git_root(project)
    for candidate in dict.fromkeys([project, *([root] if root else [])]):
        entry = projects.get(str(candidate)) if isinstance(projects, dict) else None
        if isinstance(entry, dict) and entry.get("trust_level") == "trusted":
            return True, f'{user.shown if user else "config.toml"}: projects."{candidate}".trust_level'
    return (
        False,
        f'no [projects."{project}"] trust_level = "trusted" in {user.shown if user else "$CODEX_HOME/config.toml"}',
    )


def load_layers(
    project: Path, codex_home: Path, system_dir: Path, overrides: tuple[str, ...]
) -> tuple[list[Layer], bool, str]:
    """Every layer in merge order (lowest first), whether the project is trusted, and why."""
    layers: list[Layer] = []
    system = read_toml(system_dir / "config.toml", str(system_dir / "config.toml"), "system config")
    user = read_toml(codex_home / "config.toml", "$CODEX_HOME/config.toml", "user config")
    root = git_root(project) or project
    project_file = root / ".codex" / "config.toml"
    local = read_toml(
        project_file, str(project_file.relative_to(root)) if root == project else str(project_file), "project config"
    )
    trusted, why = project_trusted(user, project)
    for layer in (system, user):
        if layer:
            layers.append(layer)
    if local:
        layers.append(
            local
            if trusted
            else Layer(
                local.name, local.shown, local.data, local.sha256, local.path, f"the project is not trusted ({why})"
            )
        )
    for text in overrides[:MAX_OVERRIDES]:
        layers.append(Layer("override", f"-c {text}", parse_override(text)))
    managed = read_toml(system_dir / "managed_config.toml", str(system_dir / "managed_config.toml"), "managed config")
    if managed:
        layers.append(managed)
    return layers, trusted, why


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
