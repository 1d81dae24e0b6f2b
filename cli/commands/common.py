"""Options shared by several commands, declared once."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

ModeOpt = Annotated[
    str | None,
    typer.Option(
        "--mode",
        "-m",
        help="Workshop mode (step configs) or permission mode (toolkits: default, "
        "accept_edits, explore, bypass, dont_ask).",
    ),
]
StepOpt = Annotated[str | None, typer.Option("--step", help="Step id, when the config has several steps.")]
RegistryOpt = Annotated[
    Path | None,
    typer.Option(
        "--registry",
        "-r",
        help="Registry file (the tool universe). Default: toolscope.registry.yaml/.yml/.json next to the config.",
    ),
]
GroupsOpt = Annotated[
    str | None,
    typer.Option(
        "--groups",
        help="Toolkits: the active groups, comma-separated (replaces the spec's; basic is always active).",
    ),
]
SnapshotOpt = Annotated[
    Path | None, typer.Option("--snapshot", help="Use a saved MCP discovery snapshot instead of live discovery.")
]
SessionOpt = Annotated[
    Path | None,
    typer.Option(
        "--session",
        help="Toolkits: a recorded AgentScope 2.x session (AgentState JSON, Msg JSON/JSONL, app storage "
        "SQLite with --session-id, or a toolscope tap file) to replay.",
    ),
]
SessionIdOpt = Annotated[
    str | None, typer.Option("--session-id", help="With --session DATABASE: the app storage session to read.")
]
WorkflowOpt = Annotated[
    Path | None,
    typer.Option(
        "--workflow",
        help="AgentWorks workflow.json. Default: workflow.json next to the step config, or one folder up "
        "for planning/step_config.json.",
    ),
]
OriginOpt = Annotated[
    str | None,
    typer.Option(
        "--origin",
        help="Product-manifest registries: who starts the turn (interactive, scheduled, pulse, child, bot, "
        "notification, external_builder), or external: a token-backed caller of the external API.",
    ),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")]


def split_groups(groups: str | None) -> list[str] | None:
    """``a,b`` → ``["a", "b"]``; an empty string means no groups active."""
    if groups is None:
        return None
    return [g.strip() for g in groups.split(",") if g.strip()]
