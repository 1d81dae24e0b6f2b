"""``toolscope inspect CONFIG``: the interactive TUI (or a headless screenshot of it)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from ...core.model.errors import EXIT_INTERNAL, InputError, Problem
from ...core.model.presentation import MARK
from ...core.systems.agentworks.ids import AgentWorksInput
from ...tui.views import DEFAULT_VIEW, VIEWS, View
from ..display import require_display
from ..input_kind import config_help
from ..output import handle_errors, plain, stdout_console
from .common import ModeOpt, SessionIdOpt, SessionOpt, parse_size
from .subject_options import NO_SUBJECT_OPTIONS, SubjectOptions, with_subject_options

if TYPE_CHECKING:
    from ...core.model.subject import Subject


@handle_errors
@with_subject_options
def inspect_command(
    config: Annotated[
        str | None,
        typer.Argument(help=config_help() + " With --capture: checked against it."),
    ] = None,
    mode: ModeOpt = None,
    subject_options: SubjectOptions = NO_SUBJECT_OPTIONS,
    tool: Annotated[str | None, typer.Option("--tool", "-t", help="Open the checklist on this tool.")] = None,
    view: Annotated[
        str | None, typer.Option("--view", help=f"First view: {', '.join(VIEWS[:-1])} or {VIEWS[-1]}.")
    ] = None,
    script: Annotated[
        Path | None,
        typer.Option("--script", "-s", help="Toolkits: a reset_tools script to load into the activation view."),
    ] = None,
    session: SessionOpt = None,
    session_id: SessionIdOpt = None,
    follow: Annotated[
        Path | None,
        typer.Option(
            "--follow",
            metavar="TAP",
            help="Toolkits: follow a running agent live through its tap file (toolscope.tap.SessionTap).",
        ),
    ] = None,
    screenshot: Annotated[
        Path | None,
        typer.Option(
            "--screenshot",
            help="Render the first view headless to this file and exit: SVG, or PNG for a .png name (needs Chromium).",
        ),
    ] = None,
    size: Annotated[str, typer.Option("--size", help="Terminal size for --screenshot, COLUMNSxROWS.")] = "120x36",
    force: Annotated[bool, typer.Option("--force", help="--screenshot: replace an existing file.")] = False,
    export_dir: Annotated[
        Path, typer.Option("--export-dir", help="Where the export key (e) writes its SVG and Markdown.")
    ] = Path("."),
    capture: Annotated[
        Path | None,
        typer.Option(
            "--capture",
            help="A toolscope capture file (or an OTLP JSON trace, a phoenix+http:// project): the model requests in order, each one's tools and what changed, "
            f"followed live as the file grows; with CONFIG, each marked {MARK[True]} or ≠ against toolscope's "
            "prediction.",
        ),
    ] = None,
) -> None:
    """Open the interactive view: pipeline, live mode switching, checklist, export (F1 for keys)."""
    if capture is not None:
        from .inspect_capture import run_capture_view

        run_capture_view(capture, config, screenshot, mode, subject_options)
        return
    if config is None:
        raise InputError("CONFIG", "give the config to inspect (or --capture FILE for a capture)")
    request = InspectRequest(
        config, mode, tool, view, script, session, session_id, follow, screenshot, size, force, export_dir
    )
    request.check()
    if subject_options.step is None and screenshot is None:
        picker = _step_picker(config, mode, subject_options, request.first_view, request.feeds)
        if picker is not None:
            _run_app(None, None, request.tui_options(), picker)
            return
    subject = subject_options.open_subject(config)
    resolved_mode = subject.resolve_mode(mode)
    request = request.with_feeds_loaded(subject)
    if screenshot is not None:
        _write_screenshot(request, subject, resolved_mode, subject_options)
        return
    _run_app(subject, resolved_mode, request.tui_options(), None)


@dataclass(frozen=True)
class InspectRequest:
    """What ``toolscope inspect CONFIG`` was asked, beyond the subject's options."""

    config: str
    mode: str | None
    tool: str | None
    view: str | None
    script: Path | None
    session: Path | None
    session_id: str | None
    follow: Path | None
    screenshot: Path | None
    size: str
    force: bool
    export_dir: Path

    @property
    def feeds(self) -> list[str]:
        """The activation view's feeds given: --script, --session, --follow."""
        given = (("--script", self.script), ("--session", self.session), ("--follow", self.follow))
        return [name for name, value in given if value]

    @property
    def first_view(self) -> str:
        """--view, else the checklist for --tool, the activation view for a feed, else the default."""
        return self.view or (View.CHECKLIST if self.tool else View.ACTIVATION if self.feeds else DEFAULT_VIEW)

    def check(self) -> None:
        """Exit 2 on what needs nothing loaded: two feeds, --session-id alone, an unknown view."""
        feeds = self.feeds
        if len(feeds) > 1:
            raise InputError(feeds[1], f"give one of --script, --session or --follow, not {' and '.join(feeds)}")
        if self.session_id is not None and self.session is None:
            raise InputError(
                "--session-id", "--session-id goes with --session (a database, or a tap holding several runs)"
            )
        if self.first_view not in VIEWS:
            raise InputError(
                "--view", f"unknown view {self.first_view!r}", [Problem("", "expected " + ", ".join(VIEWS))]
            )

    def with_feeds_loaded(self, subject: Subject) -> InspectRequest:
        """This request with --script found; a feed that cannot be read is exit 2 here, not a blank
        view or a notification inside the app."""
        if subject.loaded.kind == AgentWorksInput.STEP_CONFIG:
            _refuse_activation(self.first_view, self.feeds)
        follow = self.follow
        if follow is not None and follow.exists() and not follow.is_file():
            what = "a folder" if follow.is_dir() else "not a regular file (a named pipe or a device)"
            raise InputError(str(follow), f"is {what}; --follow takes the tap file the agent writes (SessionTap(path))")
        request = self
        if self.script is not None:
            from ...core.systems.agentscope.script import load_script, script_for_config

            # Resolved here (beside the config when not found from the current folder) so that a
            # --screenshot finds the same file the interactive view does.
            script = script_for_config(self.script, self.config)
            load_script(script)
            request = replace(self, script=script)
        if self.session is not None:
            from ...core.systems.agentscope.session_source import load_session

            load_session(self.session, session_id=self.session_id)
        if self.screenshot is not None and follow is not None:
            raise InputError("--screenshot", "a screenshot is one picture; --follow watches an agent over time")
        return request

    def tui_options(self) -> Any:
        """The terminal app's options (``tui.options.TuiOptions``)."""
        return _tui_options(
            self.config,
            self.first_view,
            self.tool,
            self.export_dir,
            self.script,
            self.session,
            self.session_id,
            self.follow,
        )


def _write_screenshot(
    request: InspectRequest, subject: Subject, mode: str | None, subject_options: SubjectOptions
) -> None:
    """--screenshot FILE: the first view rendered headless, SVG or (a .png name) PNG."""
    from ...core.outputs.output_file import check_output, write_output
    from ...tui.screenshot import render_svg_sync
    from .report_document import input_files

    screenshot = request.screenshot
    assert screenshot is not None
    dimensions = parse_size(request.size)
    # The same rules as report -o: never an input, an existing file only with --force.
    inputs = input_files(request.config, subject, *subject_options.named_paths, request.script, request.session)
    check_output(str(screenshot), force=request.force, inputs=inputs, what="the screenshot")
    svg = render_svg_sync(
        subject,
        mode,
        dimensions,
        request.first_view,
        tool=request.tool,
        script=str(request.script) if request.script else None,
        session=str(request.session) if request.session else None,
        session_id=request.session_id,
    )
    picture: str | bytes = svg
    if screenshot.suffix.lower() == ".png":
        from ...core.report.png import svg_to_png

        picture = svg_to_png(svg, what="--screenshot")
    written = write_output(picture, str(screenshot), force=request.force, inputs=inputs, what="the screenshot")
    stdout_console().print(plain(f"wrote {written}"))


def _tui_options(
    config: str,
    first_view: str,
    tool: str | None,
    export_dir: Path,
    script: Path | None,
    session: Path | None,
    session_id: str | None,
    follow: Path | None,
) -> Any:
    from ...tui.options import TuiOptions

    return TuiOptions(
        view=first_view,
        tool=tool,
        export_dir=str(export_dir),
        script=str(script) if script else None,
        config_dir=str(Path(config).parent) if Path(config).is_file() else None,
        session=str(session) if session else None,
        session_id=session_id,
        follow=str(follow) if follow else None,
    )


def _run_app(subject: Subject | None, mode: str | None, options: Any, picker: Any) -> None:
    require_display(
        "run it in a terminal, or give --screenshot FILE for a picture of the view",
        "for text output use toolscope explain, tools or report",
    )
    from ...tui.app import ToolscopeApp

    app = ToolscopeApp(subject, mode, options, picker=picker)
    app.run()
    if app.return_code:  # Textual printed the crash's traceback; exiting 0 would call it a success
        import typer

        from ..output import stderr_console

        stderr_console().print(
            f"toolscope bug: the terminal app crashed (the traceback above); please report it (exit {EXIT_INTERNAL})",
            style="red",
            markup=False,
        )
        raise typer.Exit(EXIT_INTERNAL)


def _refuse_activation(first_view: str, feeds: list[str]) -> None:
    """Exit 2 when the activation view (or a feed for it) is asked for on a step config."""
    if first_view == View.ACTIVATION or feeds:
        raise InputError(
            feeds[0] if feeds else "--view activation",
            "the activation view steps reset_tools calls: it is for AgentScope toolkits, not step configs",
        )


def _step_picker(
    config: str,
    mode: str | None,
    subject_options: SubjectOptions,
    first_view: str,
    feeds: list[str],
) -> Any:
    """A step picker when CONFIG is a step config with several steps (else None).

    What can be refused before a step is chosen is refused here, as without the picker
    (options of the other input kind, the activation view); what needs a step (an unknown
    --mode, a broken registry) is said in the picker when the step is opened, with every
    option given.
    """
    steps = subject_options.workflow_steps(config)
    if steps is None:
        return None
    _refuse_activation(first_view, feeds)
    from ...tui.screens.step_picker import StepChoice, StepPicker

    def load(step_id: str) -> tuple[Any, str | None]:
        subject = subject_options.for_step(step_id).open_subject(config)
        return subject, subject.resolve_mode(mode)

    return StepPicker(Path(config).name, [StepChoice.of(s) for s in steps], load)
