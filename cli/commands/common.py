"""Options shared by several commands, declared once."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ...core.model.errors import InputError

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
DiscoverOpt = Annotated[
    bool,
    typer.Option(
        "--discover",
        help="Start the MCP servers the input names (as the modelled CLI or AgentWorks would) to list their tools: "
        "this runs their commands. Without it only the servers your own ~/.claude.json or $CODEX_HOME/config.toml "
        "defines start; the others' tools are unknown, not started.",
    ),
]
SessionOpt = Annotated[
    Path | None,
    typer.Option(
        "--session",
        help="Toolkits: a recorded AgentScope session to replay (2.x: AgentState JSON, Msg JSON/JSONL, app storage "
        "SQLite with --session-id, or a toolscope tap file; 1.x: a JSONSession file, an agent state_dict or a "
        "memory dump).",
    ),
]
SessionIdOpt = Annotated[
    str | None,
    typer.Option(
        "--session-id",
        help="With --session DATABASE: the app storage session to read; with a tap several agents wrote: the run "
        "(its id, listed when it is missing); 1.x JSONSession file: the agent's key.",
    ),
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
CaptureOpt = Annotated[
    Path | None,
    typer.Option(
        "--capture",
        help="A toolscope capture file (toolscope capture -o FILE): compare the tools each model request "
        "really carried with toolscope's prediction; disagreements are printed first.",
    ),
]
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


# Coding-agent CLI inputs (claude-code:DIR, codex:DIR) and the AgentWorks link to them.
HomeOpt = Annotated[
    Path | None,
    typer.Option("--home", help="claude-code: the user's home (~/.claude.json, ~/.claude/). Default: $HOME."),
]
ManagedDirOpt = Annotated[
    Path | None,
    typer.Option("--managed-dir", help="claude-code: managed settings folder. Default: /etc/claude-code."),
]
ClientArgsOpt = Annotated[
    str | None,
    typer.Option(
        "--client-args",
        help='claude-code: the flags the session was started with, e.g. "-p --mcp-config f.json --allowedTools mcp__x".',
    ),
]
CodexHomeOpt = Annotated[
    Path | None, typer.Option("--codex-home", help="codex: CODEX_HOME (config.toml). Default: $CODEX_HOME or ~/.codex.")
]
CodexConfigOpt = Annotated[
    list[str] | None,
    typer.Option("--config", "-c", help="codex: a -c key=value override (value parsed as TOML); repeatable."),
]
CodexSystemDirOpt = Annotated[
    Path | None, typer.Option("--codex-system-dir", help="codex: the system folder. Default: /etc/codex.")
]
ClientHomeOpt = Annotated[
    Path | None,
    typer.Option(
        "--client-home",
        help="Step configs with provider claude-code / codex-cli: also check the bridge against that CLI's "
        "own settings in this home.",
    ),
]
