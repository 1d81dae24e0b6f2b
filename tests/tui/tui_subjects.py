"""A small, real Subject for widget tests: registration and per-mode allow lists by hand.

Used until (and beside) the real engines; the Pilot and snapshot tests of the final views
use the real samples under ``sample_configs/``.
"""

from __future__ import annotations

from collections.abc import Sequence

from toolscope.core.model.enums import InputKind, StageId, ToolKind
from toolscope.core.model.errors import InputError, Problem
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
from toolscope.tui.completion import complete

# (namespace, name, kind, registered, modes allowing it)
TOOLS = [
    ("human_tools", "notify_user", "custom", True, {"build"}),
    ("human_tools", "human_feedback", "custom", True, {"build", "run"}),
    ("workspace", "read_file", "custom", True, {"build", "run"}),
    ("workspace", "write_file", "custom", True, {"build"}),
    ("github", "create_issue", "mcp", False, {"build", "run"}),
    ("github", "list_issues", "mcp", True, {"build", "run"}),
    ("virtual", "get_api_spec", "virtual", True, {"build", "run"}),
]


class HandSubject:
    """Implements the Subject protocol over the table above."""

    config_findings: tuple[Finding, ...] = ()

    def __init__(self, tools: list[tuple[str, str, str, bool, set[str]]] | None = None) -> None:
        self.tools = tools if tools is not None else TOOLS
        self.loaded = LoadedInput(
            kind=InputKind.STEP_CONFIG,
            label="hand/step_config.json",
            files=(("hand/step_config.json", "0" * 64),),
            step="main",
            registry="hand/toolscope.registry.yaml",
        )

    @property
    def mode_names(self) -> tuple[str, ...]:
        return ("build", "run")

    @property
    def default_mode(self) -> str | None:
        return "build"

    def resolve_mode(self, mode: str | None) -> str | None:
        if mode is None:
            return self.default_mode
        if mode not in self.mode_names:
            raise InputError("--mode", f"unknown mode {mode!r}", [Problem("", "expected build or run")])
        return mode

    def _verdict(self, entry: tuple[str, str, str, bool, set[str]], mode: str) -> ToolVerdict:
        namespace, name, kind, registered, modes = entry
        source = "hand/step_config.json"
        stages = [
            Stage(
                StageId.REGISTERED,
                registered,
                "filter.wildcard" if registered else "filter.not_selected",
                f"{namespace}:* in selected_tools ({source})"
                if registered
                else f"{namespace} is not in selected_tools ({source})",
                f"{namespace}:*" if registered else None,
                source,
            ),
            Stage(
                StageId.ALLOW_LISTED,
                mode in modes,
                "mode.listed" if mode in modes else "mode.not_listed",
                f"{name} is {'in' if mode in modes else 'not in'} the {mode} allow list (modes.py)",
                name if mode in modes else None,
                "modes.py",
            ),
            Stage(StageId.DISCOVERABLE, True, "discovery.ok", "listed by discovery"),
            Stage(StageId.CALLABLE, True, "exec.ok", "no execution gate"),
        ]
        return ToolVerdict(name, namespace, ToolKind(kind), tuple(stages), description=f"The {name} tool.")

    def evaluate(self, mode: str | None) -> Evaluation:
        mode = self.resolve_mode(mode) or "build"
        return Evaluation(self.loaded, AGENTWORKS_STAGES, tuple(self._verdict(t, mode) for t in self.tools))

    def checklist(self, tool: str, mode: str | None) -> Checklist:
        mode = self.resolve_mode(mode)
        found = self.evaluate(mode).find(tool)
        if not found:
            return Checklist(
                tool,
                mode,
                None,
                (ChecklistStep("Is the tool registered?", "no", False),),
                f"add {tool} to the registry",
                did_you_mean=tuple(complete(tool, self.all_tool_names(), 3)),
            )
        verdict = found[0]
        steps = tuple(
            ChecklistStep(f"Does it pass {s.name}?", "yes" if s.passed else "no", s.passed, (s.rule,))
            for s in verdict.stages
        )
        fix = None if verdict.verdict == "visible" else f"add {verdict.name} to the {mode} allow list in modes.py"
        return Checklist(tool, mode, verdict, steps, fix)

    def findings(self, modes: Sequence[str | None]) -> list[Finding]:
        return []

    def all_tool_names(self) -> tuple[str, ...]:
        return tuple(name for _ns, name, *_ in self.tools)
