"""``toolscope registry check REGISTRY --go-src DIR``: the registry against the Go source it models."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ...core.model.errors import EXIT_NEGATIVE
from ..output import handle_errors
from .common import JsonOpt


@handle_errors
def registry_check_command(
    registry: Annotated[Path, typer.Argument(help="Registry file (or AgentWorks' product.yaml).")],
    go_src: Annotated[
        list[Path],
        typer.Option(
            "--go-src",
            help="A Go checkout to read (never built or run); repeat for the app and mcpagent.",
        ),
    ],
    as_json: JsonOpt = False,
) -> None:
    """Compare the registry's lists with the literal facts of the Go source; exit 1 on drift."""
    from ...core.systems.agentworks.registry_drift import check_registry_against_source

    report = check_registry_against_source(registry, list(go_src))
    from ..render.registry_drift import print_drift_human, print_drift_json

    (print_drift_json if as_json else print_drift_human)(report)
    if report.drifted:
        raise typer.Exit(EXIT_NEGATIVE)
