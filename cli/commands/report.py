"""``toolscope report CONFIG``: a shareable answer in Markdown, HTML, JSON or SVG."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Annotated, Any

import typer

from ...core.model.errors import InputError
from ..input_kind import config_help
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


@handle_errors
@with_subject_options
def report_command(
    config: Annotated[
        str | None,
        typer.Argument(help=config_help() + " Optional with --capture."),
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
            help="A toolscope capture file, an OTLP JSON trace or phoenix+http://HOST:PORT/projects/NAME: report its requests and tool-list changes (md, html, json), "
            "and with CONFIG the comparison with toolscope's prediction.",
        ),
    ] = None,
) -> None:
    """Write a report of the config's tool visibility: provenance, verdicts, findings, fixes.

    The same inputs give byte-identical Markdown and JSON. Secrets from MCP server configs
    are shown as ***. The output file is written atomically and never over an input file.
    """
    request = ReportRequest(
        config=config,
        modes=mode,
        tools=tool,
        script=script,
        session=session,
        session_id=session_id,
        kind=pick_format(fmt, output),
        output=output,
        force=force,
        timestamp=timestamp,
        size=size,
    )
    if capture is not None:
        from .report_capture import write_capture_report

        write_capture_report(capture, config, request.kind, output, force, mode, subject_options)
        return
    request = request.checked(subject_options)
    subjects = subject_options.open_workflow(request.target, one_step=request.one_step)
    if subjects is not None:
        _write_workflow(request, subjects, subject_options)
    elif request.picture:
        _write_picture(request, subject_options)
    else:
        _write_document(request, subject_options)


@dataclass(frozen=True)
class ReportRequest:
    """What ``toolscope report`` was asked, beyond the subject's options."""

    config: str | None
    modes: list[str] | None
    tools: list[str] | None
    script: Path | None
    session: Path | None
    session_id: str | None
    kind: str
    """md, html, json, svg or png."""
    output: str
    force: bool
    timestamp: bool
    size: str

    @property
    def target(self) -> str:
        """CONFIG (given: ``checked`` refuses a request without one)."""
        assert self.config is not None
        return self.config

    @property
    def picture(self) -> bool:
        """svg or png: a screenshot of one step's pipeline view."""
        return self.kind in ("svg", "png")

    @property
    def one_step(self) -> tuple[str, str] | None:
        """A screenshot shows one step's pipeline view; the other formats cover every step."""
        return (f"--format {self.kind}", "is a screenshot of one step's pipeline view") if self.picture else None

    def checked(self, subject_options: SubjectOptions) -> ReportRequest:
        """This request with --script found, after the refusals that need nothing loaded (the
        output too: checked again once the subject has said which files it read)."""
        from ...core.outputs.output_file import check_output

        if self.config is None:
            raise InputError("CONFIG", "give the config to report on (or --capture FILE for a capture report)")
        request = self
        if self.script is not None:
            from ...core.systems.agentscope.script import script_for_config

            request = replace(self, script=script_for_config(self.script, self.config))
        if self.picture:
            parse_size(self.size)
        named = (*subject_options.named_paths, request.script, self.session)
        check_output(self.output, force=self.force, inputs=input_files(self.config, None, *named))
        if request.script is not None and self.session is not None:
            raise InputError("--session", "give one of --script or --session, not both")
        if self.session_id is not None and self.session is None:
            raise InputError(
                "--session-id", "--session-id goes with --session (a database, or a tap holding several runs)"
            )
        return request


def _write_workflow(request: ReportRequest, subjects: list[Any], subject_options: SubjectOptions) -> None:
    from .report_workflow import write_workflow_report

    if request.script is not None or request.session is not None:
        raise InputError("--script" if request.script is not None else "--session", "applies to AgentScope toolkits")
    write_workflow_report(
        subjects,
        request.target,
        request.kind,
        request.output,
        request.force,
        request.modes,
        request.tools,
        subject_options.named_paths,
        request.timestamp,
    )


def _write_picture(request: ReportRequest, subject_options: SubjectOptions) -> None:
    """--format svg or png: the TUI's pipeline view of one subject, headless."""
    from ...core.outputs.output_file import check_output, write_output
    from ...tui.screenshot import render_svg_sync
    from ...tui.views import View

    kind = request.kind
    if request.script is not None or request.session is not None or request.tools:
        raise InputError(
            f"--format {kind}", "is a screenshot of the pipeline view; --script and --tool need md, html or json"
        )
    if request.modes and len(request.modes) > 1:
        raise InputError(f"--format {kind}", "shows one mode; give a single --mode")
    subject, inputs = open_with_inputs(request.target, subject_options)
    check_output(request.output, force=request.force, inputs=inputs)
    mode = subject.resolve_mode(request.modes[0] if request.modes else None)
    picture: str | bytes = render_svg_sync(subject, mode, parse_size(request.size), view=View.PIPELINE)
    if kind == "png":
        from ...core.report.png import svg_to_png

        picture = svg_to_png(str(picture), what="--format png")
    say_written(write_output(picture, request.output, force=request.force, inputs=inputs), kind, picture)


def _write_document(request: ReportRequest, subject_options: SubjectOptions) -> None:
    """md, html or json of one subject: rendered once, written, and its size said."""
    from ...core.outputs.output_file import write_output
    from ...core.report.data import mode_label

    report, inputs = make_report(
        request.target,
        modes=request.modes,
        tools=request.tools,
        script=request.script,
        session=request.session,
        session_id=request.session_id,
        subject_options=subject_options,
        timestamp=request.timestamp,
    )
    payload = render(report, request.kind).encode("utf-8")  # once (10 MB for 50k tools)
    used = ", ".join(mode_label(section.mode) for section in report.sections)
    default = " (the default)" if not request.modes and report.provenance.default_mode is not None else ""
    written = write_output(payload, request.output, force=request.force, inputs=inputs)
    say_written(written, request.kind, payload, f"mode {used}{default}")
