"""Helpers for the report tests: a small, real Subject over hand-built evaluations, and the samples.

``HandSubject`` implements the ``Subject`` protocol faithfully (mode resolution with
errors, per-mode evaluations, checklists with did-you-mean, findings) over data the
test chooses — used where a test needs hostile names or secrets that the sample
loaders would not produce. The golden tests run on the real samples.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from toolscope.cli.commands.subject_options import SubjectOptions
from toolscope.core.model.enums import ToolKind
from toolscope.core.model.errors import InputError
from toolscope.core.model.verdicts import (
    AGENTWORKS_STAGES,
    Checklist,
    ChecklistStep,
    Evaluation,
    Finding,
    LoadedInput,
    Stage,
    ToolVerdict,
)
from toolscope.core.text.suggest import close_matches

REPO = Path(__file__).resolve().parents[2]
SAMPLES = REPO / "sample_configs"
GOLDEN = Path(__file__).resolve().parent / "golden"


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


# -- the real samples -------------------------------------------------------------
# Each case: golden name → (config, options for make_report). Paths are relative to the
# repository root, as a user would type them there (tests chdir into it).
SAMPLE_CASES: dict[str, tuple[str, dict]] = {
    "seed": (
        "sample_configs/seed/step_config.json",
        {"modes": ["build", "run"], "tools": ["notify_user", "get_pulse_module_state", "notfy_user"]},
    ),
    "realistic": (
        "sample_configs/realistic/step_config.json",
        {
            "subject_options": SubjectOptions(step="collect-issues"),
            "modes": ["workshop", "run"],
            "tools": ["notify_user"],
        },
    ),
    "toolkit": (
        "sample_configs/agentscope/toolkit.yaml",
        {
            "modes": ["default", "explore"],
            "tools": ["web_search"],
            "script": Path("sample_configs/agentscope/typo.json"),
        },
    ),
}


def golden_environment(case: str):
    """Fixed versions, so goldens don't change with the machine's Python or toolscope's version.

    Toolkit reports keep the installed AgentScope's version and probe: their transcript comes
    from that AgentScope too, so their golden files are per AgentScope version.
    """
    from toolscope.core.report.build import current_environment
    from toolscope.core.report.data import Environment

    if case == "toolkit":
        real = current_environment("toolkit_spec")
        return Environment("golden", "3.x", real.agentscope_version, real.reset_tools)
    return Environment("golden", "3.x")


def golden_stem(case: str) -> str:
    """File stem of a case's golden files (toolkit ones carry the AgentScope version)."""
    if case == "toolkit":
        from importlib.metadata import version

        return f"toolkit-agentscope-{version('agentscope')}"
    return case
