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
    if as_json:
        from ...core.schemas.drift import RegistryCheckEnvelope
        from ..output import print_document

        print_document(RegistryCheckEnvelope.of(report))
    else:
        from rich.text import Text

        from ..output import print_wrapped, stdout_console

        console = stdout_console()
        print_wrapped(console, Text(""), f"registry {report.registry} · era: {report.era.label}", "dim")
        for item in report.lists:
            head = Text(f"{item.fact}: ", style="bold")
            head.append(
                "drift" if item.drifted else f"in sync ({item.compared} name{'' if item.compared == 1 else 's'})",
                style="bold red" if item.drifted else "green",
            )
            console.print(head, soft_wrap=True, crop=False)
            print_wrapped(console, Text("    "), f"source {item.source} · registry {item.registry}", "dim")
            if item.lacks:
                print_wrapped(console, Text("    registry lacks: "), ", ".join(item.lacks))
            if item.stale:
                print_wrapped(console, Text("    registry has, source no longer: "), ", ".join(item.stale))
        for line in report.not_found:
            print_wrapped(console, Text("not found in the source: ", style="yellow"), line)
        for line in report.not_compared:
            print_wrapped(console, Text("not compared: ", style="dim"), line, "dim")
        drifted = sum(1 for item in report.lists if item.drifted)
        console.print(
            Text(
                f"drift: {drifted} of {len(report.lists)} lists differ" if drifted else "no drift",
                style="bold red" if drifted else "green",
            )
        )
    if report.drifted:
        raise typer.Exit(EXIT_NEGATIVE)
