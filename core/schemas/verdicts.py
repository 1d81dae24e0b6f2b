"""Per-tool JSON: ``toolscope.tools/2``, ``explain/1`` and ``check/1``, and the pieces
``report/2`` reuses (a tool with its stages, a checklist, a finding).

A stage is ``core.model.verdicts.Stage`` itself (a dataclass pydantic serializes as it is), so a
50,000-tool document converts no stage objects.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Literal

from pydantic import Field

from ..model.enums import SharedStage

if TYPE_CHECKING:
    from ..systems.agentworks.selection_rewrite import SelectionRewrite

from ..model.enums import FindingKind, InputKind, Severity, StageId, ToolKind, Verdict
from ..model.verdicts import Checklist, ChecklistStep, Finding, Stage, ToolVerdict
from .base import Model


class FindingJson(Model):
    """One finding of ``check``."""

    kind: FindingKind
    severity: Severity
    message: str
    tool: str | None
    entry: str | None
    source: str | None

    @classmethod
    def of(cls, finding: Finding) -> FindingJson:
        """From the core finding."""
        return cls(
            kind=finding.kind,
            severity=finding.severity,
            message=finding.message,
            tool=finding.tool,
            entry=finding.entry,
            source=finding.source,
        )


class ToolJson(Model):
    """One tool: its verdict, the first stage that did not pass, every stage."""

    tool: str
    namespace: str
    kind: ToolKind
    verdict: Verdict
    first_failing_stage: StageId | None
    stages: tuple[Stage, ...]

    @classmethod
    def of(cls, tool: ToolVerdict) -> ToolJson:
        """Unvalidated (hot path: one per tool); the types are the ToolVerdict's own."""
        failing = tool.first_failing
        return cls.model_construct(
            tool=tool.name,
            namespace=tool.namespace,
            kind=tool.kind,
            verdict=tool.verdict,
            first_failing_stage=failing.name if failing else None,
            stages=tool.stages,
        )


class VerdictCounts(Model):
    """How many tools are visible, hidden and unknown."""

    visible: int = Field(ge=0)
    hidden: int = Field(ge=0)
    unknown: int = Field(ge=0)


class ToolRefJson(Model):
    """One tool of ``tools/2``: its stages are indexes into the document's ``stage_results``."""

    tool: str
    namespace: str
    kind: ToolKind
    verdict: Verdict
    first_failing_stage: StageId | None
    stages: list[int]
    """Indexes into ``stage_results``, in pipeline order."""


class ToolsEnvelope(Model):
    """``toolscope tools --json``: every tool of one input in one mode.

    Written by ``core.schemas.tools_json`` as text for speed (50,000 tools); this model is the
    contract that writer follows (``tests/test_contracts.py`` reads its output back
    through this model).
    """

    schema_: Literal["toolscope.tools/2"] = Field("toolscope.tools/2", alias="schema")
    input: InputKind
    step: str | None
    mode: str | None
    era: str | None
    """AgentWorks: the era of layer 2 the registry models (allow_list, registration_only,
    product_manifest); null for toolkits."""
    stages: tuple[StageId, ...]
    counts: VerdictCounts
    config_findings: list[FindingJson]
    """Configuration mistakes found while loading (unknown keys), also printed first by the table."""
    stage_results: list[Stage]
    """Every distinct stage result once, in order of first use."""
    tools: list[ToolRefJson]


class ChecklistStepJson(Model):
    """One question of the checklist, its short answer and the evidence."""

    question: str
    answer: str
    passed: bool | None
    evidence: tuple[str, ...]

    @classmethod
    def of(cls, step: ChecklistStep) -> ChecklistStepJson:
        """From the core checklist step."""
        return cls(question=step.question, answer=step.answer, passed=step.passed, evidence=step.evidence)


class ChecklistJson(Model):
    """The walkthrough for one tool name (``explain --json`` and a report's ``checklists``)."""

    tool: str
    mode: str | None
    verdict: Verdict
    namespace: str | None
    kind: ToolKind | None
    first_failing_stage: StageId | None
    """``registered`` for a name outside the universe."""
    stages: tuple[Stage, ...]
    checklist: list[ChecklistStepJson]
    fix: str | None
    did_you_mean: tuple[str, ...]

    @classmethod
    def fields_of(cls, checklist: Checklist) -> dict[str, object]:
        """The field values for a checklist (shared by the explain envelope)."""
        verdict = checklist.verdict
        failing = verdict.first_failing if verdict else None
        return {
            "tool": checklist.tool,
            "mode": checklist.mode,
            "verdict": checklist.outcome,
            "namespace": verdict.namespace if verdict else None,
            "kind": verdict.kind if verdict else None,
            "first_failing_stage": failing.name if failing else (None if verdict else SharedStage.REGISTERED),
            "stages": verdict.stages if verdict else (),
            "checklist": [ChecklistStepJson.of(s) for s in checklist.steps],
            "fix": checklist.fix,
            "did_you_mean": checklist.did_you_mean,
        }

    @classmethod
    def of(cls, checklist: Checklist) -> ChecklistJson:
        """From the core checklist."""
        return cls(**cls.fields_of(checklist))


class ListRewriteJson(Model):
    """One list as the step wrote it and as the filter receives it."""

    before: list[str]
    after: list[str]
    rules: list[str]
    """One sentence per change the app made."""


class SelectionRewriteJson(Model):
    """The app's rewrite of selected_servers / selected_tools before ToolFilter sees them."""

    modelled: bool
    note: str
    selected_servers: ListRewriteJson
    selected_tools: ListRewriteJson


class _ExplainSchema(Model):
    schema_: Literal["toolscope.explain/1"] = Field("toolscope.explain/1", alias="schema")


class ExplainEnvelope(ChecklistJson, _ExplainSchema):
    """``toolscope explain --json``: ``schema`` first, then the checklist's fields.

    (pydantic orders inherited fields from the last base to the first, so ``schema`` leads.)
    """

    config_findings: list[FindingJson]
    """Configuration mistakes found while loading (unknown keys)."""
    selection_rewrite: SelectionRewriteJson | None
    """AgentWorks: the lists ToolFilter receives after the app's rewrite (None for toolkits)."""
    era: str | None = None
    """AgentWorks: the era of layer 2 the answer is true for; null for toolkits."""

    @classmethod
    def of(
        cls,
        checklist: Checklist,
        config_findings: Iterable[Finding] = (),
        rewrite: SelectionRewrite | None = None,
        era: str | None = None,
    ) -> ExplainEnvelope:
        """The document for one checklist."""
        return cls(
            **cls.fields_of(checklist),
            config_findings=[FindingJson.of(f) for f in config_findings],
            selection_rewrite=None if rewrite is None else SelectionRewriteJson.model_validate(rewrite.to_json()),
            era=era,
        )


class CheckEnvelope(Model):
    """``toolscope check --json``: ok, the modes checked, every finding."""

    schema_: Literal["toolscope.check/1"] = Field("toolscope.check/1", alias="schema")
    ok: bool
    modes: list[str | None]
    era: str | None
    """AgentWorks: the era of layer 2 the checks are true for; null for toolkits."""
    drift_from: str | None
    """The --drift-from snapshot's file name, when given."""
    findings: list[FindingJson]

    @classmethod
    def of(
        cls,
        ok: bool,
        modes: Sequence[str | None],
        drift_from: str | None,
        findings: Iterable[Finding],
        era: str | None = None,
    ) -> CheckEnvelope:
        """The document for one check run."""
        return cls(
            ok=ok, modes=list(modes), era=era, drift_from=drift_from, findings=[FindingJson.of(f) for f in findings]
        )


class StepCheckJson(Model):
    """One step of a whole-workflow check: whether it passes and its own findings."""

    ok: bool
    findings: list[FindingJson]


class WorkflowCheckEnvelope(Model):
    """``toolscope check --json`` on a step config with several steps and no ``--step``: every step.

    ``findings`` are the workflow's own (the registry, product.yaml, workflow.json: once, not per
    step); ``steps`` holds each step's, keyed by step id, in file order.
    """

    schema_: Literal["toolscope.workflow-check/1"] = Field("toolscope.workflow-check/1", alias="schema")
    ok: bool
    modes: list[str | None]
    era: str | None
    drift_from: str | None
    findings: list[FindingJson]
    steps: dict[str, StepCheckJson]


class StepExplainJson(ChecklistJson):
    """One step's answer in a whole-workflow explain."""

    config_findings: list[FindingJson]
    """The step's own findings about its configuration (unknown keys, workflow.json overrides, the CLI
    provider's own settings with ``--client-home``); the workflow's are the envelope's."""


class WorkflowExplainEnvelope(Model):
    """``toolscope explain --json`` without ``--step`` on a step config with several steps: one
    checklist per step, keyed by step id, in file order."""

    schema_: Literal["toolscope.workflow-explain/1"] = Field("toolscope.workflow-explain/1", alias="schema")
    tool: str
    mode: str | None
    era: str | None
    config_findings: list[FindingJson]
    """The workflow's own findings (registry, product.yaml, workflow.json)."""
    steps: dict[str, StepExplainJson]


class WorkflowToolsEnvelope(Model):
    """``toolscope tools --json`` without ``--step`` on a step config with several steps: a
    ``toolscope.tools/2`` document per step, keyed by step id (written by ``tools_json`` as text)."""

    schema_: Literal["toolscope.workflow-tools/1"] = Field("toolscope.workflow-tools/1", alias="schema")
    mode: str | None
    era: str | None
    steps: dict[str, ToolsEnvelope]
