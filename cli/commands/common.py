"""Options shared by several commands, declared once."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ...core.model.errors import InputError
from ..system_options import SESSION_PANEL, spec_named, typer_option

ModeOpt = Annotated[
    str | None,
    typer.Option(
        "--mode",
        "-m",
        help="Workshop mode (step configs) or permission mode (toolkits: default, "
        "accept_edits, explore, bypass, dont_ask).",
    ),
]
SessionOpt = Annotated[
    Path | None,
    typer.Option(
        "--session",
        help="Toolkits: a recorded AgentScope session to replay (2.x: AgentState JSON, Msg JSON/JSONL, app storage "
        "SQLite with --session-id, or a toolscope tap file; 1.x: a JSONSession file, an agent state_dict or a "
        "memory dump).",
        rich_help_panel=SESSION_PANEL,
    ),
]
SessionIdOpt = Annotated[
    str | None,
    typer.Option(
        "--session-id",
        help="With --session DATABASE: the app storage session to read; with a tap several agents wrote: the run "
        "(its id, listed when it is missing); 1.x JSONSession file: the agent's key.",
        rich_help_panel=SESSION_PANEL,
    ),
]
CaptureOpt = Annotated[
    Path | None,
    typer.Option(
        "--capture",
        help="A toolscope capture file (toolscope capture -o FILE), an OTLP JSON trace, or a Phoenix project "
        "(phoenix+http://HOST:PORT/projects/NAME): compare the tools each model request "
        "really carried with toolscope's prediction; disagreements are printed first.",
    ),
]
# The systems' options are declared by the systems (core.systems.registry); these two are
# used alone (step, serve), outside the subject options.
GroupsOpt = typer_option(spec_named("groups"))
StepOpt = typer_option(spec_named("step"))
RegistryOpt = typer_option(spec_named("registry"))
DiscoverOpt = typer_option(spec_named("discover"))
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")]


def parse_size(size: str) -> tuple[int, int]:
    """``--size 120x36`` → (120, 36): columns and rows of the headless terminal (``report`` and
    ``inspect --screenshot``)."""
    from ...tui.screenshot import parse_size as parse_terminal_size

    try:
        return parse_terminal_size(size)
    except ValueError as exc:
        raise InputError("--size", str(exc)) from None


def split_groups(groups: str | None) -> list[str] | None:
    """``a,b`` → ``["a", "b"]``; an empty string means no groups active."""
    if groups is None:
        return None
    return [g.strip() for g in groups.split(",") if g.strip()]
