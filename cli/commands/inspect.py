"""``toolscope inspect CONFIG``: the interactive TUI (or a headless screenshot of it)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from toolscope.app import app
from toolscope.commands.common import (
    GroupsOpt,
    ModeOpt,
    RegistryOpt,
    SnapshotOpt,
    StepOpt,
    split_groups,
)
from toolscope.core.enums import InputKind
from toolscope.core.errors import InputError, Problem
from toolscope.output import handle_errors

VIEWS = ("pipeline", "checklist", "activation")


@app.command("inspect", short_help="Open the interactive terminal app (or take a screenshot).")
@handle_errors
def inspect_command(
    config: Annotated[str, typer.Argument(help="Step config, toolkit spec, or module:function.")],
    mode: ModeOpt = None,
    step: StepOpt = None,
    registry: RegistryOpt = None,
    groups: GroupsOpt = None,
    snapshot: SnapshotOpt = None,
    tool: Annotated[str | None, typer.Option("--tool", "-t", help="Open the checklist on this tool.")] = None,
    view: Annotated[str | None, typer.Option("--view", help="First view: pipeline, checklist or activation.")] = None,
    script: Annotated[
        Path | None,
        typer.Option("--script", "-s", help="Toolkits: a reset_tools script to load into the activation view."),
    ] = None,
    screenshot: Annotated[
        Path | None,
        typer.Option("--screenshot", help="Render the first view headless to this SVG file and exit."),
    ] = None,
    size: Annotated[str, typer.Option("--size", help="Terminal size for --screenshot, COLUMNSxROWS.")] = "120x36",
    export_dir: Annotated[
        Path, typer.Option("--export-dir", help="Where the export key (e) writes its SVG and Markdown.")
    ] = Path("."),
) -> None:
    """Open the interactive view: pipeline, live mode switching, checklist, export (F1 for keys)."""
    from toolscope.inputs import open_subject

    first_view = view or ("checklist" if tool else "activation" if script else "pipeline")
    if first_view not in VIEWS:
        raise InputError("--view", f"unknown view {first_view!r}", [Problem("", "expected " + ", ".join(VIEWS))])
    subject = open_subject(config, step=step, registry=registry, groups=split_groups(groups), snapshot=snapshot)
    resolved_mode = subject.resolve_mode(mode)
    if (first_view == "activation" or script is not None) and subject.loaded.kind == InputKind.STEP_CONFIG:
        raise InputError(
            "--view activation" if script is None else "--script",
            "the activation view steps reset_tools calls: it is for AgentScope toolkits, not step configs",
        )
    # Textual is imported here only: every other command starts without it.
    if screenshot is not None:
        from toolscope.tui.screenshot import parse_size, render_svg_sync

        try:
            dimensions = parse_size(size)
        except ValueError as exc:
            raise InputError("--size", str(exc)) from None
        if Path(config).exists() and screenshot.resolve() == Path(config).resolve():
            raise InputError("--screenshot", "would overwrite the input file; pick another path")
        svg = render_svg_sync(
            subject, resolved_mode, dimensions, first_view, tool=tool, script=str(script) if script else None
        )
        screenshot.parent.mkdir(parents=True, exist_ok=True)
        screenshot.write_text(svg, encoding="utf-8")
        typer.echo(f"wrote {screenshot}")
        return
    from toolscope.tui.app import ToolscopeApp
    from toolscope.tui.options import TuiOptions

    options = TuiOptions(view=first_view, tool=tool, export_dir=str(export_dir), script=str(script) if script else None)
    ToolscopeApp(subject, resolved_mode, options).run()
