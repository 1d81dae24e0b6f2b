"""What ``toolscope check`` asks core, as one request, and the answer it gets back.

``check_subject`` answers for one subject (a step, a toolkit, a CLI's settings);
``check_steps`` for every step of a workflow (``check_workflow``). The renderers in
``cli.render.check`` print either answer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...core.model.enums import Severity
from ...core.model.errors import InputError

if TYPE_CHECKING:
    from ...core.comparison.compare import CaptureComparison
    from ...core.model.expectations import Expectation
    from ...core.model.subject import Subject
    from ...core.model.verdicts import Finding
    from ...core.systems.agentworks.subject import AgentWorksSubject


@dataclass(frozen=True)
class CheckRequest:
    """The options of ``toolscope check`` beyond the subject's."""

    modes: Sequence[str] = ()
    """As given (--mode, repeatable); empty: every mode."""
    expectations: Sequence[Expectation] = ()
    drift_from: Path | None = None
    session: Path | None = None
    session_id: str | None = None
    groups_given: bool = False
    warnings_fail: bool = False
    capture: Path | None = None

    def fails(self, finding: Finding) -> bool:
        """Whether ``finding`` fails the check (an error; with --strict, a warning too)."""
        return finding.severity == Severity.ERROR or self.warnings_fail

    def resolve_modes(self, subject: Any) -> list[str | None]:
        """The modes to check: the given ones (aliases of one mode once), else every mode, else [None]."""
        if self.modes:
            return list(dict.fromkeys(subject.resolve_mode(m) for m in self.modes))
        return [*subject.mode_names] or [None]


@dataclass
class CheckAnswer:
    """One subject's check: its findings, the drift and the capture comparison asked for."""

    subject: Subject
    modes: list[str | None]
    findings: list[Finding]
    drift: list[Finding] | None = None
    """The --drift-from findings (None: not asked)."""
    comparison: CaptureComparison | None = None
    failing: list[Finding] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """No failing finding, and the capture (when given) agrees with the prediction."""
        return not self.failing and (self.comparison is None or self.comparison.agrees)

    @property
    def failing_count(self) -> int:
        """Failing findings, plus one for a capture that disagrees."""
        return len(self.failing) + (self.comparison is not None and not self.comparison.agrees)


def check_subject(subject: Subject, request: CheckRequest) -> CheckAnswer:
    """Run the checks, the expectations, the drift and session checks and the capture comparison."""
    from ...core.model.expectations import check_expectations

    modes = request.resolve_modes(subject)
    from ...core.systems.registry import stage_titles

    findings = subject.findings(modes) + check_expectations(subject, modes, request.expectations, stage_titles())
    drift = _drift_findings(subject, request.drift_from)
    findings += drift or []
    if request.session is not None:
        findings += _session_findings(subject, request.session, request.session_id, request.groups_given)
    comparison = None
    if request.capture is not None:
        from ..render.capture import compare_capture

        # One mode per capture: the first checked (a workshop mode is fixed for a run).
        comparison = compare_capture(request.capture, subject, modes[0])
    failing = [f for f in findings if request.fails(f)]
    return CheckAnswer(subject, modes, findings, drift, comparison, failing)


def _drift_findings(subject: Subject, drift_from: Path | None) -> list[Finding] | None:
    """What --drift-from finds (None without it); exit 2 on a subject without MCP discovery."""
    if drift_from is None:
        return None
    from ...core.model.subject import ChecksDrift

    if not isinstance(subject, ChecksDrift):
        raise InputError("--drift-from", "applies to step configs whose registry has mcp_config")
    return subject.drift_findings(drift_from)


def _session_findings(subject: object, session: Path, session_id: str | None, groups_given: bool) -> list[Finding]:
    """Findings from a recorded session replayed on the toolkit (a group the model activated that does not exist)."""
    from ...core.systems.agentscope.capability import StepsActivation
    from ...core.systems.agentscope.session_replay import replay_session
    from ...core.systems.agentscope.session_source import load_session
    from ...core.systems.agentscope.v1.explain import session_findings

    if not isinstance(subject, StepsActivation):
        raise InputError("--session", "applies to AgentScope toolkits (a spec or a factory)")
    found: list[Finding] = session_findings(
        replay_session(subject.built, load_session(session, session_id), groups_given)
    )
    return found


@dataclass
class WorkflowCheckAnswer:
    """Every step's check: the workflow's own findings once, then each step's."""

    subjects: list[AgentWorksSubject]
    modes: list[str | None]
    shared: list[Finding]
    """The workflow's own findings (registry era, product.yaml, workflow.json) and the drift."""
    drift: list[Finding] | None
    per_step: list[tuple[AgentWorksSubject, list[Finding]]]
    request: CheckRequest

    def step_failing(self, found: Sequence[Finding]) -> int:
        """How many of a step's findings fail."""
        return sum(1 for f in found if self.request.fails(f))

    @property
    def failing_steps(self) -> list[AgentWorksSubject]:
        """The steps with a failing finding."""
        return [s for s, found in self.per_step if self.step_failing(found)]

    @property
    def shared_fail(self) -> bool:
        """Whether the workflow's own findings fail."""
        return any(self.request.fails(f) for f in self.shared)

    @property
    def ok(self) -> bool:
        """No step fails and neither do the workflow's own findings."""
        return not self.failing_steps and not self.shared_fail


def check_steps(subjects: list[AgentWorksSubject], request: CheckRequest) -> WorkflowCheckAnswer:
    """Check every step of a workflow (each released once answered)."""
    first = subjects[0]
    modes = request.resolve_modes(first)
    shared: list[Finding] = list(first.world.findings)
    drift = None
    if request.drift_from is not None:
        if first.discovery is None:
            raise InputError("--drift-from", "applies to step configs whose registry has mcp_config")
        drift = first.drift_findings(request.drift_from)
        shared += drift
    per_step = [(subject, step_findings(subject, modes, request.expectations)) for subject in subjects]
    return WorkflowCheckAnswer(subjects, modes, shared, drift, per_step, request)


def step_findings(
    subject: AgentWorksSubject, modes: Sequence[str | None], expectations: Sequence[Expectation]
) -> list[Finding]:
    """The step's findings without the workflow's own (those are reported once)."""
    from ...core.model.expectations import check_expectations

    shared = set(subject.world.findings)
    own = [f for f in subject.findings(modes) if f not in shared]
    from ...core.systems.registry import stage_titles

    found = own + check_expectations(subject, modes, expectations, stage_titles())
    subject.release()  # answered: its verdicts are not needed again
    return found
