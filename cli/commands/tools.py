"""``toolscope tools CONFIG``: every tool with one column per stage and the verdict."""

from __future__ import annotations

from typing import Annotated

import typer

from ..input_kind import config_help
from ..output import handle_errors
from .common import (
    CaptureOpt,
    JsonOpt,
    ModeOpt,
)
from .subject_options import NO_SUBJECT_OPTIONS, SubjectOptions, with_subject_options


@handle_errors
@with_subject_options
def tools_command(
    config: Annotated[str, typer.Argument(help=config_help())],
    mode: ModeOpt = None,
    subject_options: SubjectOptions = NO_SUBJECT_OPTIONS,
    hidden_only: Annotated[bool, typer.Option("--hidden", help="Only tools that are not visible.")] = False,
    wide: Annotated[
        bool, typer.Option("--wide", help="Print each deciding rule whole, however long the line gets.")
    ] = False,
    capture: CaptureOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Print every tool of the config with one column per stage and the verdict."""
    subjects = subject_options.open_workflow(config, capture=capture)
    if subjects is not None:
        from .tools_workflow import tools_workflow

        tools_workflow(subjects, mode, hidden_only=hidden_only, wide=wide, as_json=as_json)
        return
    from ..render.tools import ToolsAnswer, print_tools_human, print_tools_json

    subject = subject_options.open_subject(config)
    resolved = subject.resolve_mode(mode)
    evaluation = subject.evaluate(resolved)
    comparison = None
    if capture is not None:
        from ..render.capture import compare_capture

        comparison = compare_capture(capture, subject, resolved)
    answer = ToolsAnswer(subject, mode, resolved, evaluation, comparison)
    (print_tools_json if as_json else print_tools_human)(answer, hidden_only=hidden_only, wide=wide)
