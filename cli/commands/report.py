"""``toolscope report CONFIG``: a shareable answer in Markdown, HTML, JSON or SVG."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ...core.model.errors import InputError
from ..output import handle_errors
from ..render.written import say_written
from .common import SessionIdOpt, SessionOpt, parse_size
from .report_document import input_files, make_report, open_with_inputs, render
from .subject_options import NO_SUBJECT_OPTIONS, SubjectOptions, with_subject_options

FORMATS = ("md", "html", "json", "svg", "png")
_SUFFIX_FORMAT = {
    ".md": "md",
    ".markdown": "md",
    ".html": "html",
    ".htm": "html",
    ".json": "json",
    ".svg": "svg",
    ".png": "png",
}
STDOUT = "-"
"""``-o -``: write to stdout (``core.outputs.output_file.STDOUT``)."""


def pick_format(fmt: str | None, output: str) -> str:
    """The --format value, or the one the output file's suffix names, or md."""
    if fmt is None:
        return _SUFFIX_FORMAT.get(Path(output).suffix.lower(), "md") if output != STDOUT else "md"
    if fmt.lower() not in FORMATS:
        raise InputError("--format", f"expected one of {', '.join(FORMATS)}, got {fmt!r}")
    return fmt.lower()


def _write_picture(
    config: str,
    subject_options: SubjectOptions,
    kind: str,
    mode: str | None,
    size: tuple[int, int],
    output: str,
    force: bool,
) -> None:
    """--format svg or png: the TUI's pipeline view of one subject, headless."""
    from ...core.outputs.output_file import check_output, write_output
    from ...tui.screenshot import render_svg_sync
    from ...tui.views import View

    subject, inputs = open_with_inputs(config, subject_options)
    check_output(output, force=force, inputs=inputs)
    picture: str | bytes = render_svg_sync(subject, subject.resolve_mode(mode), size, view=View.PIPELINE)
    if kind == "png":
        from ...core.report.png import svg_to_png

        picture = svg_to_png(str(picture), what="--format png")
    say_written(write_output(picture, output, force=force, inputs=inputs), kind, picture)


@handle_errors
@with_subject_options
def report_command(
    config: Annotated[
        str | None,
        typer.Argument(help="Step config, toolkit spec, or module:function (optional with --capture)."),
    ] = None,
    mode: Annotated[
        list[str] | None,
        typer.Option(
            "--mode",
            "-m",
            help="Mode to report on; repeat for several (adds a diff). Default: the config's default mode.",
        ),
    ] = None,
    tool: Annotated[
        list[str] | None,
        typer.Option("--tool", "-t", help="Add the checklist walkthrough and fix for this tool; repeatable."),
    ] = None,
    script: Annotated[
        Path | None,
        typer.Option("--script", "-s", help="Toolkits: a reset_tools script to step through, stock vs guarded."),
    ] = None,
    session: SessionOpt = None,
    session_id: SessionIdOpt = None,
    subject_options: SubjectOptions = NO_SUBJECT_OPTIONS,
    fmt: Annotated[
        str | None,
        typer.Option(
            "--format",
            "-f",
            help="md, html, json, svg, or png (a picture of the svg, rendered by headless Chromium). Default: from the -o suffix, else md.",
        ),
    ] = None,
    output: Annotated[str, typer.Option("--output", "-o", help="Output file, or - for stdout.")] = STDOUT,
    force: Annotated[bool, typer.Option("--force", help="Replace an existing output file.")] = False,
    timestamp: Annotated[
        bool, typer.Option("--timestamp", help="Record the time (reports are otherwise reproducible).")
    ] = False,
    size: Annotated[str, typer.Option("--size", help="SVG and PNG: terminal size COLUMNSxROWS.")] = "120x36",
    capture: Annotated[
        Path | None,
        typer.Option(
            "--capture",
            help="A toolscope capture file: report its requests and tool-list changes (md, html, json), "
            "and with CONFIG the comparison with toolscope's prediction.",
        ),
    ] = None,
) -> None:
    """Write a report of the config's tool visibility: provenance, verdicts, findings, fixes.

    The same inputs give byte-identical Markdown and JSON. Secrets from MCP server configs
    are shown as ***. The output file is written atomically and never over an input file.
    """
    from ...core.outputs.output_file import check_output, write_output

    kind = pick_format(fmt, output)
    if capture is not None:
        from .report_capture import write_capture_report

        write_capture_report(capture, config, kind, output, force, mode, subject_options)
        return
    if config is None:
        raise InputError("CONFIG", "give the config to report on (or --capture FILE for a capture report)")
    if script is not None:
        from ...core.systems.agentscope.script import script_for_config

        script = script_for_config(script, config)
    picture = kind in ("svg", "png")
    columns_rows = parse_size(size) if picture else None
    # Fail fast on the output before loading anything; checked again once the subject
    # has said which files it read (e.g. a registry found next to the config).
    named = (*subject_options.named_paths, script, session)
    check_output(output, force=force, inputs=input_files(config, None, *named))

    if script is not None and session is not None:
        raise InputError("--session", "give one of --script or --session, not both")
    if session_id is not None and session is None:
        raise InputError("--session-id", "--session-id goes with --session (a database, or a tap holding several runs)")
    # A screenshot shows one step's pipeline view; the other formats cover every step.
    one_step = (f"--format {kind}", "is a screenshot of one step's pipeline view") if picture else None
    subjects = subject_options.open_workflow(config, one_step=one_step)
    if subjects is not None:
        if script is not None or session is not None:
            raise InputError("--script" if script is not None else "--session", "applies to AgentScope toolkits")
        from .report_workflow import write_workflow_report

        write_workflow_report(subjects, config, kind, output, force, mode, tool, subject_options.named_paths, timestamp)
        return
    if picture:
        if script is not None or session is not None or tool:
            raise InputError(
                f"--format {kind}", "is a screenshot of the pipeline view; --script and --tool need md, html or json"
            )
        if mode and len(mode) > 1:
            raise InputError(f"--format {kind}", "shows one mode; give a single --mode")
        assert columns_rows is not None
        _write_picture(config, subject_options, kind, mode[0] if mode else None, columns_rows, output, force)
        return

    report, inputs = make_report(
        config,
        modes=mode,
        tools=tool,
        script=script,
        session=session,
        session_id=session_id,
        subject_options=subject_options,
        timestamp=timestamp,
    )
    payload = render(report, kind).encode("utf-8")  # once: written, and its size said (10 MB for 50k tools)
    from ...core.report.data import mode_label

    used = ", ".join(mode_label(section.mode) for section in report.sections)
    default = " (the default)" if not mode and report.provenance.default_mode is not None else ""
    say_written(write_output(payload, output, force=force, inputs=inputs), kind, payload, f"mode {used}{default}")
