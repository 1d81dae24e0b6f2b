"""``toolscope check CONFIG``: invariant checks and expectations, for CI."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from ...core.model.enums import Severity, SharedFinding
from ...core.model.errors import EXIT_NEGATIVE, InputError
from ..output import handle_errors

if TYPE_CHECKING:
    from ...core.model.verdicts import Finding

from .common import (
    CaptureOpt,
    JsonOpt,
    SessionIdOpt,
    SessionOpt,
)
from .subject_options import NO_SUBJECT_OPTIONS, SubjectOptions, with_subject_options


@handle_errors
@with_subject_options
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
    subject_options: SubjectOptions = NO_SUBJECT_OPTIONS,
    drift_from: Annotated[
        Path | None,
        typer.Option(
            "--drift-from", help="Compare live MCP discovery with this saved snapshot (added/removed/renamed tools)."
        ),
    ] = None,
    session: SessionOpt = None,
    session_id: SessionIdOpt = None,
    warnings_fail: Annotated[bool, typer.Option("--strict", help="Warnings fail too.")] = False,
    capture: CaptureOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Run the invariant checks and expectations; exit 1 when one fails."""
    from rich.text import Text

    from ...core.model.expectations import check_expectations, parse_expectation
    from ...core.systems.agentworks.subject import AgentWorksSubject
    from ..output import era_sentence, print_document, print_findings, print_wrapped, stdout_console

    expectations = [parse_expectation(e) for e in expect or []]
    subjects = subject_options.open_workflow(config, capture=capture)
    if subjects is not None:
        from .check_workflow import check_workflow

        check_workflow(subjects, mode, expectations, drift_from, warnings_fail, as_json)
        return
    subject = subject_options.open_subject(config)
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
    if session is not None:
        findings += _session_findings(subject, session, session_id, subject_options.groups is not None)
    comparison = None
    if capture is not None:
        from ..capture_output import compare_capture

        # One mode per capture: the first checked (a workshop mode is fixed for a run).
        comparison = compare_capture(capture, subject, modes[0])
    failing = [f for f in findings if f.severity == Severity.ERROR or warnings_fail]
    ok = not failing and (comparison is None or comparison.agrees)
    if as_json:
        from ...core.schemas.verdicts import CheckEnvelope

        document = CheckEnvelope.of(
            ok, modes, drift_from.name if drift_from is not None else None, findings, subject.loaded.era
        )
        from ..capture_output import with_capture

        print_document(with_capture(document, comparison))
    else:
        console = stdout_console()
        if comparison is not None:
            from ..capture_output import capture_source, print_disagreements

            print_disagreements(console, comparison, capture_source(comparison))
        print_wrapped(console, Text(""), subject.loaded.label, "dim")
        era = era_sentence(subject.loaded)
        if era:
            print_wrapped(console, Text(""), era, "dim")
        shown = ", ".join(str(m) if m is not None else "(none: no permission modes)" for m in modes)
        print_wrapped(console, Text(""), "modes checked: " + shown, "dim")
        if drift_from is not None and not any(f.kind == SharedFinding.MCP_DRIFT for f in findings):
            live = subject.discovery.servers if isinstance(subject, AgentWorksSubject) and subject.discovery else ()
            print_wrapped(console, Text(""), no_drift_sentence(drift_findings, drift_from.name, len(live)), "dim")
        print_findings(findings, console)
        if comparison is not None:
            from ..capture_output import capture_source, print_totals

            print_totals(console, comparison, capture_source(comparison))
        failing_count = len(failing) + (comparison is not None and not comparison.agrees)
        console.print(Text("ok" if ok else f"{failing_count} failing", style="green" if ok else "bold red"))
    if not ok:
        raise typer.Exit(EXIT_NEGATIVE)


def no_drift_sentence(drift_findings: list[Finding], snapshot: str, servers: int) -> str:
    """What ``--drift-from`` found when no server drifted: "no drift" only when every server could be
    compared; a server that failed in the snapshot leaves its drift unknown (never "no drift")."""
    unknown = [f.entry for f in drift_findings if f.kind == SharedFinding.MCP_OUTAGE and f.entry]
    if not unknown:
        return f"MCP tools: no drift since {snapshot}"
    if len(unknown) >= servers:
        return f"MCP tools: drift since {snapshot} is unknown: every server failed when it was taken"
    return (
        f"MCP tools: drift since {snapshot} is unknown for {', '.join(unknown)} (failed when it was taken); "
        f"no drift in the other {servers - len(unknown)}"
    )


def _session_findings(subject: object, session: Path, session_id: str | None, groups_given: bool) -> list:
    """Findings from a recorded session replayed on the toolkit (a group the model activated that does not exist)."""
    from ...core.model.subject import StepsActivation
    from ...core.systems.agentscope.session_replay import replay_session
    from ...core.systems.agentscope.session_source import load_session
    from ...core.systems.agentscope.v1.explain import session_findings

    if not isinstance(subject, StepsActivation):
        raise InputError("--session", "applies to AgentScope toolkits (a spec or a factory)")
    return session_findings(replay_session(subject.built, load_session(session, session_id), groups_given))
