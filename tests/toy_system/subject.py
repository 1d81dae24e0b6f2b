"""The toy system's subject: every tool of the toybox, through two stages."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from toolscope.core.model.answers import Checklist, ChecklistStep, Finding
from toolscope.core.model.enums import Severity, ToolKind
from toolscope.core.model.errors import InputError, Problem
from toolscope.core.model.verdicts import Evaluation, LoadedInput, Stage, ToolVerdict
from toolscope.core.systems.contract import OpenRequest

from .system import TOY_INPUT, ToyFinding, ToyStage

FILE = "toybox.json"
MODES = ("play", "tidy")


class ToySubject:
    """A toybox: ``{"toys": [{"name": "ball", "on": true}, ...]}``; mode tidy switches every toy off."""

    def __init__(self, path: Path, toys: list[dict[str, object]]) -> None:
        self.path = path
        self.toys = toys
        self.loaded = LoadedInput(kind=TOY_INPUT, label=f"toybox {path.parent.name or '.'}", files=((FILE, "0" * 64),))
        self.config_findings: tuple[Finding, ...] = ()

    @property
    def mode_names(self) -> tuple[str, ...]:
        return MODES

    @property
    def default_mode(self) -> str | None:
        return MODES[0]

    def resolve_mode(self, mode: str | None) -> str | None:
        if mode is None:
            return self.default_mode
        if mode not in MODES:
            raise InputError("--mode", f"unknown mode {mode!r}", [Problem("", "modes: " + ", ".join(MODES))])
        return mode

    def _verdict(self, toy: dict[str, object], mode: str) -> ToolVerdict:
        name = str(toy["name"])
        on = bool(toy.get("on")) and mode == "play"
        why = f"{name} is switched {'on' if on else 'off'} ({FILE}" + (")" if mode == "play" else "; mode tidy)")
        stages = (
            Stage(ToyStage.LISTED, True, "toy.listed", f"{name} is in the box ({FILE})", name, FILE),
            Stage(ToyStage.SWITCHED_ON, on, "toy.on" if on else "toy.off", why, name, FILE),
        )
        return ToolVerdict(name, "box", ToolKind.TOOL, stages, f"the toy {name}")

    def evaluate(self, mode: str | None) -> Evaluation:
        mode = self.resolve_mode(mode)
        assert mode is not None
        tools = tuple(self._verdict(toy, mode) for toy in self.toys)
        return Evaluation(self.loaded, tuple(ToyStage), tools, (f"mode {mode}",))

    def checklist(self, tool: str, mode: str | None) -> Checklist:
        mode = self.resolve_mode(mode)
        found = self.evaluate(mode).find(tool)
        if not found:
            return Checklist(tool, mode, None, (ChecklistStep("Is it in the box?", "no", False),), None)
        verdict = found[0]
        steps = tuple(
            ChecklistStep(
                f"Is it {s.name.removeprefix('toy_').replace('_', ' ')}?",
                "yes" if s.passed else "no",
                s.passed,
                (s.rule,),
            )
            for s in verdict.stages
        )
        fix = None if verdict.first_failing is None else f'set "on": true for {tool} in {FILE}'
        return Checklist(tool, mode, verdict, steps, fix)

    def findings(self, modes: Sequence[str | None]) -> list[Finding]:
        off = [str(t["name"]) for t in self.toys if not t.get("on")]
        return [
            Finding(ToyFinding.SWITCHED_OFF, f"{name} is in the box but switched off", name, name, FILE, Severity.ERROR)
            for name in off
        ]

    def all_tool_names(self) -> tuple[str, ...]:
        return tuple(str(t["name"]) for t in self.toys)


def open_subject(request: OpenRequest) -> ToySubject:
    """The registry's opener: ``toy:DIR``, a folder with toybox.json, or the file."""
    path = request.path / FILE if request.path.is_dir() else request.path
    try:
        data = json.loads(path.read_text("utf-8"))
    except (OSError, ValueError) as exc:
        raise InputError(str(path), "not a readable toybox", [Problem("", str(exc))]) from None
    toys = data.get("toys") if isinstance(data, dict) else None
    if not isinstance(toys, list) or not all(isinstance(t, dict) and isinstance(t.get("name"), str) for t in toys):
        raise InputError(str(path), "not a toybox", [Problem("toys", "expected a list of {name, on}")])
    return ToySubject(path, toys[:1000])
