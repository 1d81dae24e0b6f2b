"""Which tools the subject's system predicts per captured request, compared with the capture.

The one entry point every front end uses (``step``, ``tools``, ``explain``, ``check``,
``report``, the TUI): ``compare_subject(subject, capture, mode)``. It names no system: the
subject's system (``core.systems.registry``, by the subject's input kind) gives a
``CapturePlan`` through its capture hook: one ``Prediction`` per request, a ``NameRule``, and
optionally its own account of each request (``OfferCheck``). A system without a hook, or a
hook that returns None for a subject it does not predict for, gets the generic plan: the tools
its evaluation calls visible, names unchanged, the rule marked undocumented.

Public API::

    compare_subject(subject, capture, mode) -> SubjectComparison (.comparison, .session)
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from ..capture.observed import ObservedCapture
from ..model.enums import Verdict
from ..model.prediction import NameRule, Prediction
from ..systems.contract import CapturePlan
from ..systems.registry import system_of_kind
from .compare import CaptureComparison, compare

if TYPE_CHECKING:
    from ..model.subject import Subject

_GENERIC_RULE = NameRule(
    "names compared unchanged (toolscope has no reference for how this input's names reach the model)",
    documented=False,
)


@dataclass(frozen=True)
class SubjectComparison:
    """The comparison, and (toolkits) the StepSession whose turns are the replayed reset_tools calls."""

    comparison: CaptureComparison
    session: Any = None


def generic_plan(subject: Subject, capture: ObservedCapture, mode: str | None) -> CapturePlan:
    """Every visible tool for every request, names unchanged."""
    tools = subject.evaluate(mode).tools
    visible = tuple(dict.fromkeys(t.name for t in tools if t.verdict == Verdict.VISIBLE))
    predictions = [Prediction(visible, "every visible tool") for _ in capture.requests]
    return CapturePlan(predictions, _GENERIC_RULE, frozenset(subject.all_tool_names()))


def _plan(subject: Subject, capture: ObservedCapture, mode: str | None) -> CapturePlan:
    try:
        hook = system_of_kind(subject.loaded.kind).capture
    except KeyError:
        hook = None
    plan: CapturePlan | None = hook(subject, capture, mode) if hook is not None else None
    return plan if plan is not None else generic_plan(subject, capture, mode)


def compare_subject(subject: Subject, capture: ObservedCapture, mode: str | None) -> SubjectComparison:
    """The capture's requests against what ``subject``'s system predicts for each (see the module docstring)."""
    plan = _plan(subject, capture, mode)
    comparison = compare(
        capture,
        plan.predictions,
        plan.rule,
        known=plan.known.__contains__,
        lane=plan.lane,
        notes=plan.notes,
        offers=plan.offers,
        received=plan.received,
    )
    if plan.cause is not None:
        comparison = replace(comparison, cause=plan.cause)
    return SubjectComparison(comparison, plan.session)
