"""Building a report: CONFIG opened with every file given or read (never written over, and
read for secrets to mask), its ``ReportData``, and that rendered as Markdown, HTML or JSON.

The report modules are imported by the functions that use them: registering ``report`` must
not cost every other command their import time.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from .subject_options import NO_SUBJECT_OPTIONS, SubjectOptions

if TYPE_CHECKING:
    from ...core.model.subject import Subject
    from ...core.report.data import Environment, ReportData


def _factory_file(config: str) -> Path | None:
    # "path/to/file.py:function" names a file too; "package.module:function" does not.
    head, sep, _ = config.rpartition(":")
    return Path(head) if sep and head.endswith(".py") else None


def input_files(config: str, subject: Subject | None, *explicit: Path | None) -> list[Path]:
    """Every file this command was given or read, for output protection and secret masking: the
    paths named on the command line (CONFIG or a factory's file, registry, snapshot, script,
    session) and, once loaded, the files the subject read (``LoadedInput.paths``: a registry
    found next to the config, the mcp_config and its ``_user.json`` override, …). Each file once,
    in a stable order. Before loading (``subject`` None) only the named paths are known."""
    paths = [p for p in explicit if p is not None]
    paths.append(_factory_file(config) or Path(config))
    if subject is not None:
        paths += subject.loaded.paths
    unique: dict[Path, Path] = {}
    for path in paths:
        unique.setdefault(path.resolve(), path)
    return list(unique.values())


def open_with_inputs(config: str, subject_options: SubjectOptions, *named: Path | None) -> tuple[Subject, list[Path]]:
    """CONFIG as one subject, with every file given or read (``named``: --script, --session)."""
    subject = subject_options.open_subject(config)
    return subject, input_files(config, subject, *subject_options.named_paths, *named)


def make_report(
    config: str,
    *,
    modes: list[str] | None = None,
    tools: list[str] | None = None,
    script: Path | None = None,
    session: Path | None = None,
    session_id: str | None = None,
    subject_options: SubjectOptions = NO_SUBJECT_OPTIONS,
    timestamp: bool = False,
    environment: Environment | None = None,
) -> tuple[ReportData, list[Path]]:
    """Open CONFIG and build its report; returns it with every input file's path.

    ``environment`` replaces the running software's versions (golden tests).
    """
    from ...core.report.build import build_report
    from ...core.report.redaction import secret_values_in_files

    subject, inputs = open_with_inputs(config, subject_options, script, session)
    transcript = None
    extra_files: list[tuple[str, str]] = []
    if script is not None:
        from ...core.report.adapters import run_transcript

        transcript, script_file = run_transcript(subject, script)
        extra_files.append(script_file)
    elif session is not None:
        from ...core.report.adapters import run_session_transcript
        from ..replay_progress import replay_progress

        with replay_progress():
            transcript, session_file = run_session_transcript(
                subject, session, session_id, subject_options.groups is not None
            )
        extra_files.append(session_file)
    report = build_report(
        subject,
        modes or (),
        tools or (),
        transcript=transcript,
        extra_files=extra_files,
        environment=environment,
        secrets=sorted(secret_values_in_files(inputs)),
        generated_at=datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ") if timestamp else None,
    )
    return report, inputs


def render(report: ReportData, fmt: str) -> str:
    """The report in md, html or json."""
    if fmt == "md":
        from ...core.report.markdown import render_markdown

        return render_markdown(report)
    if fmt == "html":
        from ...core.report.html import render_html

        return render_html(report)
    from ...core.report.json_report import render_json

    return render_json(report)
