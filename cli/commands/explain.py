"""``toolscope explain CONFIG TOOL``: the checklist for one tool, ending at the fix."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ...core.model.enums import Verdict
from ...core.model.errors import EXIT_NEGATIVE
from ..input_kind import config_help
from ..output import handle_errors
from .common import CaptureOpt, JsonOpt, ModeOpt
from .subject_options import NO_SUBJECT_OPTIONS, SubjectOptions, with_subject_options


@handle_errors
@with_subject_options
def explain_command(
    config: Annotated[str, typer.Argument(help=config_help())],
    tool: Annotated[str, typer.Argument(help="Tool name (or namespace:tool).")],
    mode: ModeOpt = None,
    subject_options: SubjectOptions = NO_SUBJECT_OPTIONS,
    capture: CaptureOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Explain why TOOL is or is not usable, stage by stage, and print the fix.

    Exit 0 when the tool is visible, 1 when it is hidden or unknown (in any step, when a
    step config with several steps is explained without --step: one row per step).
    """
    explain_config(config, tool, mode, subject_options, capture=capture, as_json=as_json)


def explain_config(
    config: str,
    tool: str,
    mode: str | None,
    subject_options: SubjectOptions,
    *,
    capture: Path | None = None,
    as_json: bool = False,
) -> None:
    """Print ``explain``'s answer for ``tool`` (``toolscope mcp``'s ``why_not`` prints the same);
    typer.Exit(1) when it is hidden or unknown."""
    subjects = subject_options.open_workflow(config, capture=capture)
    if subjects is not None:
        from .explain_workflow import explain_workflow

        explain_workflow(subjects, tool, mode, as_json)
        return
    from ..render.explain import print_explain_human, print_explain_json

    subject = subject_options.open_subject(config)
    resolved = subject.resolve_mode(mode)
    checklist = subject.checklist(tool, resolved)
    comparison = None
    if capture is not None:
        from ..render.capture import compare_capture

        comparison = compare_capture(capture, subject, resolved)
    (print_explain_json if as_json else print_explain_human)(subject, checklist, comparison)
    if checklist.outcome != Verdict.VISIBLE:
        raise typer.Exit(EXIT_NEGATIVE)
