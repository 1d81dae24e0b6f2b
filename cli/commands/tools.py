"""``toolscope tools CONFIG``: every tool with one column per stage and the verdict."""

from __future__ import annotations

from pathlib import Path
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
    tools_of_config(config, mode, subject_options, hidden_only=hidden_only, wide=wide, capture=capture, as_json=as_json)


def tools_of_config(
    config: str,
    mode: str | None,
    subject_options: SubjectOptions,
    *,
    hidden_only: bool = False,
    wide: bool = False,
    capture: Path | None = None,
    as_json: bool = False,
) -> None:
    """Print ``tools``' answer: every tool's verdict and deciding rule (``toolscope mcp``'s ``tools`` too)."""
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
