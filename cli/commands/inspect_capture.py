"""``toolscope inspect [CONFIG] --capture FILE``: the capture view, each request checked against
CONFIG's prediction when CONFIG is given. It follows the file, which may not exist yet."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...core.model.errors import InputError
from ..display import require_display

if TYPE_CHECKING:
    from .subject_options import SubjectOptions


def run_capture_view(
    capture: Path, config: str | None, screenshot: Path | None, mode: str | None, subject_options: SubjectOptions
) -> None:
    """Refuse what cannot be, load CONFIG's prediction when given, run the capture view."""
    # Before a config is loaded (seconds for a toolkit): the cheap refusals first.
    if screenshot is not None:
        raise InputError("--screenshot", "is not available with --capture (the view follows a growing file)")
    if capture.exists() and not capture.is_file():
        raise InputError(str(capture), "is not a file; --capture takes the file toolscope capture -o writes")
    require_display()
    predict = _prediction(config, mode, subject_options, capture) if config is not None else None
    from ...tui.capture.app import CaptureApp

    CaptureApp(str(capture), predict, Path(config).name if config else None).run()


def _prediction(config: str, mode: str | None, subject_options: SubjectOptions, capture: Path) -> Any:
    """What toolscope predicts per request, for the view to check each one against."""
    from ...core.comparison.predict import compare_subject

    subject_options.open_workflow(config, capture=capture)  # a whole workflow: exit 2, asking for --step
    subject = subject_options.open_subject(config)
    resolved = subject.resolve_mode(mode)
    return lambda observed: compare_subject(subject, observed, resolved).comparison
