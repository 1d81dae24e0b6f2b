"""The systems' options as Typer sees them: each ``OptionSpec`` the registry lists
(``core.systems.registry.options()``) becomes one Typer option, listed in ``--help`` under
its help group (one panel per system: ``Codex``, ``Claude Code``, …).

Nothing here names a system: a system that declares one more option gets it on every
command that opens a subject (``commands.subject_options``), grouped under its panel.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from ..core.systems import registry, shared_options
from ..core.systems.contract import OptionSpec

OWN_PANEL = "Options"
"""The command's own options (``--mode``, ``--json``, ``--help``): listed first."""
SESSION_PANEL = "AgentScope"
"""The recorded-session options (``--session``, ``--session-id``) belong to commands, not to the
registry's declarations; they are AgentScope's, listed under its panel (``--groups``' group)."""

_TYPES: dict[str, Any] = {"str": str | None, "path": Path | None, "str_list": list[str] | None, "bool": bool}


def panel(spec: OptionSpec) -> str:
    """The help panel of a system option: its group, else the title of the first system declaring it."""
    if spec.group:
        return spec.group
    return next((s.title for s in registry.systems() if spec in s.options), OWN_PANEL)


def typer_option(spec: OptionSpec) -> Any:
    """``Annotated[type, typer.Option(...)]`` for ``spec``."""
    return Annotated[_TYPES[spec.type], typer.Option(*spec.flags, help=spec.help, rich_help_panel=panel(spec))]


def declarations() -> dict[str, Any]:
    """Every system option's parameter name and Typer declaration, in ``--help`` order."""
    return {spec.name: typer_option(spec) for spec in registry.options()}


def defaults() -> dict[str, Any]:
    """Every system option's default (None unless the system declares one)."""
    return {spec.name: spec.default for spec in registry.options()}


def panel_order() -> tuple[str, ...]:
    """The panels in ``--help`` order: the command's own options, then each system's in registry
    order, then the groups of options several systems share (``shared_options``: MCP discovery)."""
    shared = {o.group for o in vars(shared_options).values() if isinstance(o, OptionSpec)}
    panels = dict.fromkeys([OWN_PANEL, *(panel(o) for o in registry.options() if panel(o) not in shared)])
    return (*panels, *sorted(shared))


def spec_named(name: str) -> OptionSpec:
    """The system option declared as ``name`` (KeyError: no system declares it)."""
    for spec in registry.options():
        if spec.name == name:
            return spec
    raise KeyError(name)
