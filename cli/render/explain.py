"""``toolscope explain``, rendered: the ``explain/1`` document, or in Rich the capture's
disagreements, the config findings, the checklist and where the tool stood in the capture."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.systems.codex.ids import CodexInput
from ..output import era_sentence, print_document, print_findings, stdout_console
from .checklist import print_checklist

if TYPE_CHECKING:
    from ...core.comparison.compare import CaptureComparison
    from ...core.model.subject import Subject
    from ...core.model.verdicts import Checklist
    from ...core.systems.agentworks.selection_rewrite import SelectionRewrite


def _rewrite(subject: Subject) -> SelectionRewrite | None:
    """The app's rewrite of the step's lists (AgentWorks steps), else None."""
    from ...core.systems.agentworks.selection_rewrite import RewritesSelection

    return subject.selection_rewrite if isinstance(subject, RewritesSelection) else None


def print_explain_json(subject: Subject, checklist: Checklist, comparison: CaptureComparison | None) -> None:
    """The ``explain/1`` document (with the ``capture`` block when a capture was compared)."""
    from ...core.schemas.verdicts import ExplainEnvelope
    from .capture import with_capture

    document = ExplainEnvelope.of(checklist, subject.config_findings, _rewrite(subject), subject.loaded.era)
    print_document(with_capture(document, comparison))


def print_explain_human(subject: Subject, checklist: Checklist, comparison: CaptureComparison | None) -> None:
    """Disagreements with the capture first, the config findings, the checklist, then the tool in the capture."""
    from .capture import capture_source, print_disagreements, print_tool_in_capture

    console = stdout_console()
    if comparison is not None:
        print_disagreements(console, comparison, capture_source(comparison))
    print_findings(subject.config_findings, console)
    print_checklist(checklist, subject.loaded.label, _rewrite(subject), era_sentence(subject.loaded))
    if comparison is None:
        return
    verdict = checklist.verdict
    aliases = (
        (f"{verdict.namespace}:{verdict.name}", f"{verdict.namespace}:*")
        if verdict is not None and subject.loaded.kind == CodexInput.CODEX
        else ()
    )
    print_tool_in_capture(console, comparison, checklist.tool, capture_source(comparison), aliases)
