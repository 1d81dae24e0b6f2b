"""A small, real Subject over hand-built verdicts, for the report and TUI tests.

``HandSubject`` implements the ``Subject`` protocol faithfully (mode resolution with errors,
per-mode evaluations, checklists with did-you-mean, findings) over verdicts the test chooses:
for hostile names or secrets the sample loaders would not produce, or a table of tools small
enough to reason about. The golden and snapshot tests run on the real samples.
"""

from __future__ import annotations

from collections.abc import Sequence

from toolscope.core.model.enums import ToolKind
from toolscope.core.model.errors import InputError
from toolscope.core.model.verdicts import (
    Checklist,
    ChecklistStep,
    Evaluation,
    Finding,
    LoadedInput,
    Stage,
    ToolVerdict,
)
from toolscope.core.systems.agentworks.ids import AGENTWORKS_STAGES
from toolscope.core.text.suggest import close_matches


def make_tool(name: str, namespace: str, fail_at: str | None, rule: str = "", description: str = "") -> ToolVerdict:
    """A tool that passes every AgentWorks stage before ``fail_at`` and fails there."""
    stages = []
    failed = False
    for stage in AGENTWORKS_STAGES:
        if failed:
            stages.append(Stage(stage, None, "not_reached", "not evaluated: an earlier stage hid the tool"))
            continue
        if stage == fail_at:
            stages.append(
                Stage(
                    stage,
                    False,
                    f"{stage}.fail",
                    rule or f"{name} fails {stage}",
                    entry=name,
                    source="step_config.json",
                )
            )
            failed = True
        else:
            stages.append(Stage(stage, True, f"{stage}.pass", f"{name} passes {stage}"))
    return ToolVerdict(name, namespace, ToolKind.CUSTOM, tuple(stages), description)


class HandSubject:
    """A Subject over fixed evaluations, one per mode."""

    def __init__(self, loaded: LoadedInput, modes: dict[str, Sequence[ToolVerdict]], findings: Sequence[Finding] = ()):
        self.loaded = loaded
        self._modes = {name: tuple(tools) for name, tools in modes.items()}
        self._findings = list(findings)

    @property
    def mode_names(self) -> tuple[str, ...]:
        return tuple(self._modes)

    @property
    def default_mode(self) -> str | None:
        return next(iter(self._modes))

    def resolve_mode(self, mode: str | None) -> str | None:
        if mode is None:
            return self.default_mode
        canonical = mode.strip().lower()
        if canonical not in self._modes:
            raise InputError("--mode", f"unknown mode {mode!r}; modes: {', '.join(self._modes)}")
        return canonical

    def evaluate(self, mode: str | None) -> Evaluation:
        mode = self.resolve_mode(mode)
        return Evaluation(self.loaded, AGENTWORKS_STAGES, self._modes[mode], notes=(f"mode {mode} evaluated",))

    def checklist(self, tool: str, mode: str | None) -> Checklist:
        evaluation = self.evaluate(mode)
        found = evaluation.find(tool)
        if not found:
            close = close_matches(tool, self.all_tool_names(), n=3)
            return Checklist(tool, mode, None, (ChecklistStep("Is it registered?", "no", False),), None, close)
        verdict = found[0]
        steps = tuple(
            ChecklistStep(f"Does it pass {s.name}?", "yes" if s.passed else "no", s.passed, (s.rule,))
            for s in verdict.stages
        )
        failing = verdict.first_failing
        fix = f"add {verdict.name!r} to the list named by: {failing.rule}" if failing else None
        return Checklist(tool, mode, verdict, steps, fix)

    def findings(self, modes: Sequence[str | None]) -> list[Finding]:
        return list(self._findings)

    def all_tool_names(self) -> tuple[str, ...]:
        return tuple(sorted({t.name for tools in self._modes.values() for t in tools}))
