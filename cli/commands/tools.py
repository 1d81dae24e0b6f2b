"""``toolscope tools CONFIG``: every tool with one column per stage and the verdict."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from ...core.model.presentation import verdict_counts_text
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
    config: Annotated[str, typer.Argument(help="Step config, toolkit spec, or module:function.")],
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
    subject = subject_options.open_subject(config)
    resolved = subject.resolve_mode(mode)
    evaluation = subject.evaluate(resolved)
    comparison = None
    if capture is not None:
        from ..capture_output import compare_capture

        comparison = compare_capture(capture, subject, resolved)
    if as_json:
        from ...core.outputs.stdout import write_stdout_text
        from ...core.schemas.tools_json import write_tools_document
        from ...core.text.safe_text import inert_json

        # Indented for a person at a terminal; compact for pipes and files (50,000 tools
        # make a 6 MB document that is written in pieces, never held whole).
        write_tools_document(
            lambda chunk: write_stdout_text(inert_json(chunk)),
            evaluation,
            hidden_only=hidden_only,
            config_findings=subject.config_findings,
            indent=sys.stdout.isatty(),
            capture=comparison.to_json() if comparison is not None else None,
        )
        return
    from rich.text import Text

    from ..output import era_sentence, mode_sentence, print_findings, print_lines, print_wrapped, stdout_console
    from ..verdict_table import marks_legend, verdict_layout

    console = stdout_console()
    if comparison is not None:
        from ..capture_output import capture_source, print_disagreements

        print_disagreements(console, comparison, capture_source(comparison))
    print_findings(subject.config_findings, console)
    print_wrapped(console, Text(""), evaluation.loaded.label, "bold")
    era = era_sentence(subject.loaded)
    if era:
        print_wrapped(console, Text(""), era, "dim")
    print_wrapped(console, Text(""), mode_sentence(subject, mode, resolved), "bold")
    for note in evaluation.notes:
        print_wrapped(console, Text(""), note, "dim")
    layout = verdict_layout(evaluation, console.width, wide=wide, hidden_only=hidden_only)
    print_lines(console, layout.lines)
    counts = evaluation.counts()
    offered = evaluation.offered_count()
    # Toolkits: the activation lanes count the tools offered to the model; visible ones are also callable.
    console.print(Text(verdict_counts_text(counts) + (f" · {offered} offered" if offered is not None else "")))
    legend = marks_legend(layout.marks, "toolscope explain CONFIG TOOL")
    if legend:
        print_wrapped(console, Text(""), legend, "dim")
    if layout.shortened:
        print_wrapped(
            console,
            Text(""),
            f"Rules shortened to {console.width} columns: toolscope explain CONFIG TOOL shows one whole, --wide all.",
            "dim",
        )
    if comparison is not None:
        from ..capture_output import capture_source, print_totals

        print_totals(console, comparison, capture_source(comparison))
