"""``toolscope step TOOLKIT --capture FILE``, rendered: prediction against reality for an AgentScope agent.

The reset_tools calls the model made (the reply tool calls in the capture) are replayed
through the stock and the guarded lane, and every captured request's tool list is compared
with what the lanes predict the model sees at that point. Disagreements come first: each
is a layer toolscope does not model or a bug. Then the header, then a block per request.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.text import Text

from ..output import print_document, print_wrapped, stdout_console
from .capture import capture_source, print_disagreements, print_requests
from .step import step_fields

if TYPE_CHECKING:
    from ...core.comparison.predict import SubjectComparison
    from ...core.systems.agentscope.subject import ToolkitSubject
    from ...core.systems.agentscope.v1.subject import ToolkitSubjectV1


def print_capture_json(subject: ToolkitSubject | ToolkitSubjectV1, result: SubjectComparison, probe: Any) -> None:
    """``toolscope.step/1`` with the ``capture`` block."""
    from ...core.schemas.step import CaptureStepEnvelope

    # Validated: the capture block is assembled by core.comparison.compare as plain data.
    fields = step_fields(subject, result.session, probe, subject.active_groups(), None)
    print_document(CaptureStepEnvelope.model_validate(fields | {"capture": result.comparison.to_json()}))


def print_capture_human(subject: ToolkitSubject | ToolkitSubjectV1, result: SubjectComparison, probe: Any) -> None:
    """Disagreements first, then the header, a block per request, and the verdict."""
    console = stdout_console()
    comparison = result.comparison
    source = capture_source(comparison)
    print_disagreements(console, comparison, source)
    print_wrapped(console, Text(""), f"{subject.loaded.label} · {source}", "bold")
    print_wrapped(console, Text("stock    ", style="bold"), probe.summary())
    print_wrapped(
        console,
        Text("guarded  ", style="bold"),
        "GroupActivationGuard on reset_tools: validates names and booleans first; a refusal changes nothing",
    )
    print_wrapped(
        console,
        Text(""),
        "each request is compared with the stock lane (the installed AgentScope); the guarded lane is shown beside it",
        "dim",
    )
    print_requests(console, comparison)
    console.print()
    _print_verdict(console, comparison)


def _print_verdict(console: Any, comparison: Any) -> None:
    """What was cut or skipped, whether the prediction agrees, and a hint when only the guarded lane does."""
    cap = comparison.capture
    if cap.truncated:
        print_wrapped(console, Text("cut: ", style="yellow"), cap.truncated, "yellow")
    for skipped in cap.skipped[:5]:
        print_wrapped(console, Text("skipped ", style="dim"), skipped, "dim")
    if comparison.agrees:
        console.print(
            Text(f"prediction agrees with the capture at every request ({len(cap.requests)})", style="bold green")
        )
    else:
        bad = len(comparison.disagreeing)
        console.print(
            Text(
                f"prediction disagrees with the capture at {bad} of {len(cap.requests)} requests (≠ above)", "bold red"
            )
        )
    for lane, agrees in comparison.lanes_agreeing().items():
        if agrees and not comparison.agrees:
            print_wrapped(
                console,
                Text(""),
                f"the {lane} lane agrees at every request: the agent probably runs with GroupActivationGuard",
                "yellow",
            )
