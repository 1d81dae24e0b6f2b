"""``toolscope check CONFIG`` on a step config with several steps and no ``--step``: every step.

The workflow's own findings (registry era, product.yaml, workflow.json) are reported once;
then one section per step with its findings. Exit 1 when any step fails.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from ...core.model.enums import Severity, SharedFinding
from ...core.model.errors import EXIT_NEGATIVE, InputError

if TYPE_CHECKING:
    from ...core.model.expectations import Expectation
    from ...core.model.verdicts import Finding
    from ...core.systems.agentworks.subject import AgentWorksSubject


def workflow_label(subjects: Sequence[AgentWorksSubject]) -> str:
    """``AgentWorks step config steps.json · 23 steps · registry toolscope.registry.yaml``."""
    first = subjects[0]
    return (
        f"AgentWorks step config {first.step.file_name} · {len(subjects)} steps · "
        f"registry {first.world.registry_doc.name}"
    )


def step_findings(
    subject: AgentWorksSubject, modes: Sequence[str | None], expectations: Sequence[Expectation]
) -> list[Finding]:
    """The step's findings without the workflow's own (those are reported once)."""
    from ...core.model.expectations import check_expectations

    shared = set(subject.world.findings)
    own = [f for f in subject.findings(modes) if f not in shared]
    found = own + check_expectations(subject, modes, expectations)
    subject.release()  # answered: its verdicts are not needed again
    return found


def check_workflow(
    subjects: list[AgentWorksSubject],
    mode: list[str] | None,
    expectations: Sequence[Expectation],
    drift_from: Path | None,
    warnings_fail: bool,
    as_json: bool,
) -> None:
    """Check every step; print one section per step (or the workflow-check/1 document)."""
    from rich.text import Text

    from ..output import print_document, print_findings, print_wrapped, stdout_console

    first = subjects[0]
    modes: list[str | None] = (
        list(dict.fromkeys(first.resolve_mode(m) for m in mode)) if mode else [*first.mode_names] or [None]
    )
    shared: list[Finding] = list(first.world.findings)
    drift: list[Finding] = []
    if drift_from is not None:
        if first.discovery is None:
            raise InputError("--drift-from", "applies to step configs whose registry has mcp_config")
        drift = first.drift_findings(drift_from)
        shared += drift

    def fails(finding: Finding) -> bool:
        return finding.severity == Severity.ERROR or warnings_fail

    per_step = [(subject, step_findings(subject, modes, expectations)) for subject in subjects]
    failing_steps = [s for s, found in per_step if any(fails(f) for f in found)]
    ok = not failing_steps and not any(fails(f) for f in shared)
    if as_json:
        from ...core.schemas.verdicts import FindingJson, StepCheckJson, WorkflowCheckEnvelope

        print_document(
            WorkflowCheckEnvelope(
                ok=ok,
                modes=modes,
                era=first.loaded.era,
                drift_from=drift_from.name if drift_from is not None else None,
                findings=[FindingJson.of(f) for f in shared],
                steps={
                    s.step.step.id: StepCheckJson(
                        ok=not any(fails(f) for f in found), findings=[FindingJson.of(f) for f in found]
                    )
                    for s, found in per_step
                },
            )
        )
    else:
        console = stdout_console()
        print_wrapped(console, Text(""), workflow_label(subjects), "dim")
        print_wrapped(console, Text(""), first.era_sentence, "dim")
        print_wrapped(console, Text(""), "modes checked: " + ", ".join(str(m) for m in modes), "dim")
        if drift_from is not None and not any(f.kind == SharedFinding.MCP_DRIFT for f in drift):
            from .check import no_drift_sentence

            live = first.discovery.servers if first.discovery is not None else ()
            print_wrapped(console, Text(""), no_drift_sentence(drift, drift_from.name, len(live)), "dim")
        if shared:
            console.print(Text("workflow", style="bold underline"))
            print_findings(shared, console)
        for subject, found in per_step:
            failing = sum(1 for f in found if fails(f))
            head = Text(f"step {subject.step.step.id}", style="bold underline")
            head.append(": ok" if not failing else f": {failing} failing", style="green" if not failing else "bold red")
            console.print(head, soft_wrap=True, crop=False)
            print_findings(found, console)
        summary = (
            f"ok: {len(subjects)} steps"
            if ok
            else f"{len(failing_steps)} of {len(subjects)} steps failing"
            + ("; the workflow's own findings fail" if any(fails(f) for f in shared) else "")
        )
        console.print(Text(summary, style="green" if ok else "bold red"))
    if not ok:
        raise typer.Exit(EXIT_NEGATIVE)
