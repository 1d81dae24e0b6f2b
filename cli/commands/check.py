"""``toolscope check CONFIG``: invariant checks and expectations, for CI."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ...core.model.errors import EXIT_NEGATIVE
from ..input_kind import config_help
from ..output import handle_errors
from .check_answer import CheckRequest
from .common import CaptureOpt, JsonOpt, SessionIdOpt, SessionOpt
from .subject_options import NO_SUBJECT_OPTIONS, SubjectOptions, with_subject_options


@handle_errors
@with_subject_options
def check_command(
    config: Annotated[str, typer.Argument(help=config_help())],
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
    from ...core.model.expectations import parse_expectation

    request = CheckRequest(
        modes=tuple(mode or ()),
        expectations=tuple(parse_expectation(e) for e in expect or []),
        drift_from=drift_from,
        session=session,
        session_id=session_id,
        groups_given=subject_options.groups is not None,
        warnings_fail=warnings_fail,
        capture=capture,
    )
    if not check_config(config, request, subject_options, as_json=as_json):
        raise typer.Exit(EXIT_NEGATIVE)


def check_config(config: str, request: CheckRequest, subject_options: SubjectOptions, *, as_json: bool = False) -> bool:
    """Print ``check``'s answer (``toolscope mcp``'s ``check`` too); whether every check holds."""
    from ..render import check as render
    from .check_answer import check_steps, check_subject

    capture, drift_from = request.capture, request.drift_from
    subjects = subject_options.open_workflow(config, capture=capture)
    if subjects is not None:
        steps = check_steps(subjects, request)
        (render.print_workflow_json if as_json else render.print_workflow_human)(steps, drift_from)
        return steps.ok
    answer = check_subject(subject_options.open_subject(config), request)
    (render.print_check_json if as_json else render.print_check_human)(answer, drift_from)
    return answer.ok
