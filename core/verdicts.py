"""The shared result model: a tool's path through the gates, stage by stage.

Both systems produce the same shapes. AgentWorks step configs have the stages
``registered``, ``allow_listed``, ``discoverable`` and ``callable``; AgentScope toolkits
have ``registered``, ``visible`` and ``callable``. Every stage carries the rule that
decided it, as a code (data) and as a sentence naming the entry, list and file.

These are frozen, slotted dataclasses rather than pydantic models: a 50,000-tool
universe builds 50,000 verdicts, and stage results are shared between tools that were
decided by the same rule (see ``core.agentworks.pipeline``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

Verdict = Literal["visible", "hidden", "unknown"]

AGENTWORKS_STAGES = ("registered", "allow_listed", "discoverable", "callable")
AGENTSCOPE_STAGES = ("registered", "visible", "callable")

STAGE_TITLES = {
    "registered": "registered",
    "allow_listed": "allow-listed",
    "discoverable": "discoverable",
    "callable": "callable",
    "visible": "visible",
}


@dataclass(frozen=True, slots=True)
class Stage:
    """One gate's answer for one tool."""

    name: str
    """Stage id: registered, allow_listed, discoverable, callable, visible."""
    passed: bool | None
    """True passes, False hides the tool, None means unknown (e.g. an MCP outage)."""
    code: str
    """Machine-readable rule id, e.g. ``filter.specific_entry`` or ``mode.not_listed``."""
    rule: str
    """The deciding rule as a sentence naming the entry, the list and the file."""
    entry: str | None = None
    """The config entry that decided, verbatim, when one did."""
    source: str | None = None
    """Where that entry lives: ``file`` or ``file: path.in.document``."""

    def to_json(self) -> dict[str, Any]:
        """JSON form used by ``--json`` outputs and reports."""
        return {
            "name": self.name,
            "passed": self.passed,
            "code": self.code,
            "rule": self.rule,
            "entry": self.entry,
            "source": self.source,
        }


@dataclass(frozen=True, slots=True)
class ToolVerdict:
    """A tool and every stage it passed or failed, in pipeline order."""

    name: str
    namespace: str
    """MCP server, custom category, virtual, or AgentScope group."""
    kind: str
    """``mcp``, ``custom``, ``virtual`` (AgentWorks); ``tool``, ``mcp``, ``meta`` (AgentScope)."""
    stages: tuple[Stage, ...]
    description: str = ""

    @property
    def first_failing(self) -> Stage | None:
        """The first stage that did not pass (failed or unknown), or None when visible."""
        for stage in self.stages:
            if stage.passed is not True:
                return stage
        return None

    @property
    def verdict(self) -> Verdict:
        """visible when every stage passes; unknown when the first non-pass is unknown."""
        stage = self.first_failing
        if stage is None:
            return "visible"
        return "hidden" if stage.passed is False else "unknown"

    def stage(self, name: str) -> Stage | None:
        """The stage with this id, if the pipeline has it."""
        for stage in self.stages:
            if stage.name == name:
                return stage
        return None

    def to_json(self) -> dict[str, Any]:
        """JSON form: the per-tool object of ``tools --json`` and ``explain --json``."""
        failing = self.first_failing
        return {
            "tool": self.name,
            "namespace": self.namespace,
            "kind": self.kind,
            "verdict": self.verdict,
            "first_failing_stage": failing.name if failing else None,
            "stages": [s.to_json() for s in self.stages],
        }


@dataclass(frozen=True)
class LoadedInput:
    """What was loaded, for headers, reports and provenance."""

    kind: Literal["step_config", "toolkit_spec", "toolkit_factory"]
    label: str
    """Short, machine-independent description shown in headers."""
    files: tuple[tuple[str, str], ...] = ()
    """(file name as given, sha256) of every input file read."""
    step: str | None = None
    registry: str | None = None
    mode: str | None = None
    extra: tuple[tuple[str, str], ...] = ()
    """Other facts worth showing (e.g. AgentScope version, code-execution mode)."""


@dataclass(frozen=True)
class Evaluation:
    """Every tool's verdict for one input and one mode."""

    loaded: LoadedInput
    stage_names: tuple[str, ...]
    tools: tuple[ToolVerdict, ...]
    notes: tuple[str, ...] = field(default=())
    """Facts about the whole evaluation (e.g. 'code-execution mode: claude-code')."""

    def find(self, name: str) -> list[ToolVerdict]:
        """Tools with this exact name; ``ns:tool`` narrows to one namespace."""
        matches = [t for t in self.tools if t.name == name]
        if not matches and ":" in name:
            namespace, _, tool = name.partition(":")
            matches = [t for t in self.tools if t.name == tool and t.namespace == namespace]
        return matches

    def counts(self) -> dict[str, int]:
        """How many tools are visible, hidden and unknown."""
        out = {"visible": 0, "hidden": 0, "unknown": 0}
        for tool in self.tools:
            out[tool.verdict] += 1
        return out


@dataclass(frozen=True)
class ChecklistStep:
    """One question of the "agent says it doesn't have tool X" checklist."""

    question: str
    answer: str
    """Short answer: yes, no, unknown, n/a."""
    passed: bool | None
    evidence: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """JSON form for ``explain --json`` and reports."""
        return {
            "question": self.question,
            "answer": self.answer,
            "passed": self.passed,
            "evidence": list(self.evidence),
        }


@dataclass(frozen=True)
class Checklist:
    """The walkthrough for one tool name, ending at a concrete fix."""

    tool: str
    mode: str | None
    verdict: ToolVerdict | None
    """None when the name is not in the universe at all."""
    steps: tuple[ChecklistStep, ...]
    fix: str | None
    """The concrete fix (exact entry, list, file), or None when visible."""
    did_you_mean: tuple[str, ...] = ()

    @property
    def outcome(self) -> Verdict:
        """visible / hidden / unknown; a name outside the universe is unknown."""
        return self.verdict.verdict if self.verdict else "unknown"

    def to_json(self) -> dict[str, Any]:
        """The ``toolscope.explain/1`` body (without the schema field)."""
        verdict = self.verdict
        failing = verdict.first_failing if verdict else None
        return {
            "tool": self.tool,
            "mode": self.mode,
            "verdict": self.outcome,
            "namespace": verdict.namespace if verdict else None,
            "kind": verdict.kind if verdict else None,
            "first_failing_stage": failing.name if failing else (None if verdict else "registered"),
            "stages": [s.to_json() for s in verdict.stages] if verdict else [],
            "checklist": [s.to_json() for s in self.steps],
            "fix": self.fix,
            "did_you_mean": list(self.did_you_mean),
        }


@dataclass(frozen=True)
class Finding:
    """One result of ``check``: an invariant that does not hold, or an expectation that failed."""

    kind: str
    """e.g. allow_listed_unregistered, registered_not_allow_listed, dead_rule, bare_entry,
    unknown_category, duplicate_name, expectation_failed, mcp_outage."""
    message: str
    tool: str | None = None
    entry: str | None = None
    source: str | None = None
    severity: Literal["error", "warning"] = "error"

    def to_json(self) -> dict[str, Any]:
        """JSON form for ``check --json`` and reports."""
        return {
            "kind": self.kind,
            "severity": self.severity,
            "message": self.message,
            "tool": self.tool,
            "entry": self.entry,
            "source": self.source,
        }
