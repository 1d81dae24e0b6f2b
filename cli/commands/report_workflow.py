"""``toolscope report CONFIG`` on a step config with several steps and no ``--step``: every step.

Markdown, HTML or ``toolscope.workflow-report/1`` JSON (``core.report.workflow``): the workflow's
own findings once, then one section per step. ``--format svg``/``png`` needs ``--step`` (a
screenshot shows one step); ``report`` checks that before loading anything.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ...core.systems.agentworks.subject import AgentWorksSubject


def write_workflow_report(
    subjects: list[AgentWorksSubject],
    config: str,
    kind: str,
    output: str,
    force: bool,
    modes: list[str] | None,
    tools: list[str] | None,
    named: tuple[Path | None, ...],
    timestamp: bool,
) -> None:
    """Build, render and write the report of every step (``named``: the paths given as options)."""
    from ...core.outputs.output_file import check_output, write_output
    from ...core.report.redaction import secret_values_in_files
    from ...core.report.workflow import (
        build_workflow_report,
        render_workflow_html,
        render_workflow_json,
        render_workflow_markdown,
    )
    from ..render.written import say_written
    from .report_document import input_files

    inputs = input_files(config, subjects[0], *named)
    check_output(output, force=force, inputs=inputs)
    data = build_workflow_report(
        subjects,
        modes or (),
        tools or (),
        secrets=sorted(secret_values_in_files(inputs)),
        generated_at=datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ") if timestamp else None,
    )
    render = {"md": render_workflow_markdown, "html": render_workflow_html, "json": render_workflow_json}[kind]
    payload = render(data).encode("utf-8")
    say_written(write_output(payload, output, force=force, inputs=inputs), kind, payload, f"{len(subjects)} steps")
