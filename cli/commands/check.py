"""``toolscope check CONFIG``: invariant checks and expectations, for CI."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ...core.model.enums import FindingKind, Severity
from ...core.model.errors import EXIT_NEGATIVE, InputError
from ..output import handle_errors
from .common import (
    ClientArgsOpt,
    ClientHomeOpt,
    CodexConfigOpt,
    CodexHomeOpt,
    CodexSystemDirOpt,
    GroupsOpt,
    HomeOpt,
    JsonOpt,
    ManagedDirOpt,
    RegistryOpt,
    SnapshotOpt,
    StepOpt,
    split_groups,
)


@handle_errors
def check_command(
    config: Annotated[str, typer.Argument(help="Step config, toolkit spec, or module:function.")],
    mode: Annotated[
        list[str] | None,
        typer.Option("--mode", "-m", help="Mode(s) to check; repeat the option. Default: every mode."),
    ] = None,
    expect: Annotated[
        list[str] | None,
        typer.Option("--expect", help="visible:NAME or hidden:NAME (in every checked mode); repeatable."),
    ] = None,
    step: StepOpt = None,
    registry: RegistryOpt = None,
    groups: GroupsOpt = None,
    snapshot: SnapshotOpt = None,
    home: HomeOpt = None,
    managed_dir: ManagedDirOpt = None,
    client_args: ClientArgsOpt = None,
    codex_home: CodexHomeOpt = None,
    codex_system_dir: CodexSystemDirOpt = None,
    codex_config: CodexConfigOpt = None,
    client_home: ClientHomeOpt = None,
    drift_from: Annotated[
        Path | None,
        typer.Option(
            "--drift-from", help="Compare live MCP discovery with this saved snapshot (added/removed/renamed tools)."
        ),
    ] = None,
    warnings_fail: Annotated[bool, typer.Option("--strict", help="Warnings fail too.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Run the invariant checks and expectations; exit 1 when one fails."""
    from rich.text import Text

    from ...core.model.expectations import check_expectations, parse_expectation
    from ..inputs import ClientOptions, open_subject  # noqa: F401
    from ..output import print_document, print_findings, print_wrapped, stdout_console

    expectations = [parse_expectation(e) for e in expect or []]
    subject = open_subject(
        config,
        step=step,
        registry=registry,
        groups=split_groups(groups),
        snapshot=snapshot,
        client=ClientOptions(
            home, managed_dir, client_args, codex_home, codex_system_dir, tuple(codex_config or ()), client_home
        ),
    )
    # Aliases of one mode (build, builder) are checked once.
    modes: list[str | None] = (
        list(dict.fromkeys(subject.resolve_mode(m) for m in mode)) if mode else [*subject.mode_names] or [None]
    )
    findings = subject.findings(modes)
    findings += check_expectations(subject, modes, expectations)
    if drift_from is not None:
        from ...core.model.subject import ChecksDrift

        if not isinstance(subject, ChecksDrift):
            raise InputError("--drift-from", "applies to step configs whose registry has mcp_config")
        drift_findings = subject.drift_findings(drift_from)
        findings += drift_findings
    failing = [f for f in findings if f.severity == Severity.ERROR or warnings_fail]
    ok = not failing
    if as_json:
        from ...core.schemas.verdicts import CheckEnvelope

        print_document(CheckEnvelope.of(ok, modes, drift_from.name if drift_from is not None else None, findings))
    else:
        console = stdout_console()
        print_wrapped(console, Text(""), subject.loaded.label, "dim")
        print_wrapped(console, Text(""), "modes checked: " + ", ".join(str(m) for m in modes), "dim")
        if drift_from is not None and not any(f.kind == FindingKind.MCP_DRIFT for f in findings):
            print_wrapped(console, Text(""), f"MCP tools: no drift since {drift_from.name}", "dim")
        print_findings(findings, console)
        console.print(Text("ok" if ok else f"{len(failing)} failing", style="green" if ok else "bold red"))
    if not ok:
        raise typer.Exit(EXIT_NEGATIVE)
