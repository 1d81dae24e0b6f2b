"""``toolscope check``, rendered: the ``check/1`` and ``workflow-check/1`` documents, or the
findings in Rich with what was checked and the verdict."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ...core.model.enums import SharedFinding
from ..output import era_sentence, print_document, print_findings, print_wrapped, stdout_console

if TYPE_CHECKING:
    from pathlib import Path

    from ...core.model.verdicts import Finding
    from ..commands.check_answer import CheckAnswer, WorkflowCheckAnswer


def no_drift_sentence(drift_findings: Sequence[Finding], snapshot: str, servers: int) -> str:
    """What ``--drift-from`` found when no server drifted: "no drift" only when every server could be
    compared; a server that failed in the snapshot leaves its drift unknown (never "no drift")."""
    unknown = [f.entry for f in drift_findings if f.kind == SharedFinding.MCP_OUTAGE and f.entry]
    if not unknown:
        return f"MCP tools: no drift since {snapshot}"
    if len(unknown) >= servers:
        return f"MCP tools: drift since {snapshot} is unknown: every server failed when it was taken"
    return (
        f"MCP tools: drift since {snapshot} is unknown for {', '.join(unknown)} (failed when it was taken); "
        f"no drift in the other {servers - len(unknown)}"
    )


def _say_no_drift(
    console: Any, drift: Sequence[Finding] | None, drift_from: Path | None, seen: Sequence[Finding], live: int
) -> None:
    """The drift sentence, when --drift-from was given and no finding in ``seen`` is a drift."""
    from rich.text import Text

    if drift_from is None or drift is None or any(f.kind == SharedFinding.MCP_DRIFT for f in seen):
        return
    print_wrapped(console, Text(""), no_drift_sentence(drift, drift_from.name, live), "dim")


def _modes_checked(modes: Sequence[str | None]) -> str:
    return "modes checked: " + ", ".join(str(m) if m is not None else "(none: no permission modes)" for m in modes)


def _live_servers(subject: Any) -> int:
    """How many MCP servers a step's live discovery reached (0 for the other inputs)."""
    from ...core.systems.agentworks.subject import AgentWorksSubject

    return len(subject.discovery.servers) if isinstance(subject, AgentWorksSubject) and subject.discovery else 0


def print_check_json(answer: CheckAnswer, drift_from: Path | None) -> None:
    """The ``check/1`` document (with the ``capture`` block when a capture was compared)."""
    from ...core.schemas.verdicts import CheckEnvelope
    from .capture import with_capture

    name = drift_from.name if drift_from is not None else None
    document = CheckEnvelope.of(answer.ok, answer.modes, name, answer.findings, answer.subject.loaded.era)
    print_document(with_capture(document, answer.comparison))


def print_check_human(answer: CheckAnswer, drift_from: Path | None) -> None:
    """Disagreements with the capture first, then what was checked, the findings and the verdict."""
    from rich.text import Text

    from .capture import capture_source, print_disagreements, print_totals

    console = stdout_console()
    comparison = answer.comparison
    if comparison is not None:
        print_disagreements(console, comparison, capture_source(comparison))
    loaded = answer.subject.loaded
    print_wrapped(console, Text(""), loaded.label, "dim")
    era = era_sentence(loaded)
    if era:
        print_wrapped(console, Text(""), era, "dim")
    print_wrapped(console, Text(""), _modes_checked(answer.modes), "dim")
    _say_no_drift(console, answer.drift, drift_from, answer.findings, _live_servers(answer.subject))
    print_findings(answer.findings, console)
    if comparison is not None:
        print_totals(console, comparison, capture_source(comparison))
    verdict = "ok" if answer.ok else f"{answer.failing_count} failing"
    console.print(Text(verdict, style="green" if answer.ok else "bold red"))


def print_workflow_json(answer: WorkflowCheckAnswer, drift_from: Path | None) -> None:
    """The ``workflow-check/1`` document: the workflow's own findings, then each step's."""
    from ...core.schemas.verdicts import FindingJson, StepCheckJson, WorkflowCheckEnvelope

    steps = {
        s.step.step.id: StepCheckJson(ok=not answer.step_failing(found), findings=[FindingJson.of(f) for f in found])
        for s, found in answer.per_step
    }
    print_document(
        WorkflowCheckEnvelope(
            ok=answer.ok,
            modes=answer.modes,
            era=answer.subjects[0].loaded.era,
            drift_from=drift_from.name if drift_from is not None else None,
            findings=[FindingJson.of(f) for f in answer.shared],
            steps=steps,
        )
    )


def print_workflow_human(answer: WorkflowCheckAnswer, drift_from: Path | None) -> None:
    """What was checked, the workflow's own findings, a section per step, and the verdict."""
    from rich.text import Text

    from .workflow import workflow_label

    console = stdout_console()
    first = answer.subjects[0]
    print_wrapped(console, Text(""), workflow_label(answer.subjects), "dim")
    print_wrapped(console, Text(""), first.era_sentence, "dim")
    print_wrapped(console, Text(""), "modes checked: " + ", ".join(str(m) for m in answer.modes), "dim")
    live = len(first.discovery.servers) if first.discovery is not None else 0
    _say_no_drift(console, answer.drift, drift_from, answer.drift or (), live)
    if answer.shared:
        console.print(Text("workflow", style="bold underline"))
        print_findings(answer.shared, console)
    for subject, found in answer.per_step:
        failing = answer.step_failing(found)
        head = Text(f"step {subject.step.step.id}", style="bold underline")
        head.append(": ok" if not failing else f": {failing} failing", style="green" if not failing else "bold red")
        console.print(head, soft_wrap=True, crop=False)
        print_findings(found, console)
    console.print(Text(_workflow_summary(answer), style="green" if answer.ok else "bold red"))


def _workflow_summary(answer: WorkflowCheckAnswer) -> str:
    steps = len(answer.subjects)
    if answer.ok:
        return f"ok: {steps} steps"
    own = "; the workflow's own findings fail" if answer.shared_fail else ""
    return f"{len(answer.failing_steps)} of {steps} steps failing{own}"
