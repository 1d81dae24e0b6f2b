"""``toolscope report --capture FILE [CONFIG]``: the capture report (``core.report.capture_report``)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from ...core.model.errors import InputError

if TYPE_CHECKING:
    from .subject_options import SubjectOptions


def write_capture_report(
    capture: Path,
    config: str | None,
    kind: str,
    output: str,
    force: bool,
    modes: list[str] | None,
    subject_options: SubjectOptions,
) -> None:
    """Read the capture, compare it with CONFIG when given, write md / html / json."""
    from ...core import __version__
    from ...core.capture.observed_file import load_capture
    from ...core.outputs.output_file import check_output, write_output
    from ...core.report.capture_report import CaptureReport, render_capture
    from ..render.written import say_written
    from .report_document import open_with_inputs

    if kind not in ("md", "html", "json"):
        raise InputError(f"--format {kind}", "a capture report is md, html or json")
    if modes and len(modes) > 1:
        raise InputError("--mode", "a capture is compared in one mode; give a single --mode")
    named = [capture, *subject_options.named_paths]
    inputs = [p for p in named if p is not None] + ([Path(config)] if config else [])
    check_output(output, force=force, inputs=inputs)
    observed = load_capture(capture)
    comparison, label = None, None
    if config is not None:
        from ...core.comparison.predict import compare_subject
        from ..replay_progress import replay_progress

        subject, inputs = open_with_inputs(config, subject_options, capture)
        check_output(output, force=force, inputs=inputs)
        mode = subject.resolve_mode(modes[0] if modes else None)
        with replay_progress("request"):
            comparison = compare_subject(subject, observed, mode).comparison
        label = subject.loaded.label
    report = CaptureReport.of(observed, comparison, label, __version__)
    payload = render_capture(report, kind).encode("utf-8")
    say_written(write_output(payload, output, force=force, inputs=inputs), kind, payload, "capture report")
