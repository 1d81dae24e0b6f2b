"""AgentWorks ``step_config.json``: models and loader.

Two shapes load: ``{"steps": [...]}`` and a single step object (as in the seed). Unknown
AgentWorks fields are kept, not rejected: real files carry two dozen of them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from toolscope.core.documents import Document, load_document, validate_model
from toolscope.core.errors import InputError, Problem


def _null_is_empty(value: Any) -> Any:
    # Go unmarshals JSON null into a nil slice, which the app treats as empty.
    return [] if value is None else value


class ExecutionLLM(BaseModel):
    """``agent_configs.execution_llm``: which provider runs the step."""

    model_config = ConfigDict(extra="allow", frozen=True)

    provider: str | None = None
    model_id: str | None = None


class AgentConfigs(BaseModel):
    """The tool fields of ``agent_configs``; other fields are kept as extras."""

    model_config = ConfigDict(extra="allow", frozen=True)

    selected_servers: tuple[str, ...] = ()
    """Server names; each means all of that server's tools."""
    selected_tools: tuple[str, ...] = ()
    """``server:tool`` / ``server:*`` entries."""
    enabled_custom_tools: tuple[str, ...] = ()
    """``category:tool`` / ``category:*`` entries for custom (internal) tools."""
    use_code_execution_mode: bool | None = None
    """Code-execution mode (forced on for CLI providers)."""
    execution_llm: ExecutionLLM | None = None

    _lists = field_validator("selected_servers", "selected_tools", "enabled_custom_tools", mode="before")(
        _null_is_empty
    )


class Step(BaseModel):
    """One step of the workflow."""

    model_config = ConfigDict(extra="allow", frozen=True)

    id: str = Field(min_length=1)
    title: str | None = None
    agent_configs: AgentConfigs = AgentConfigs()

    @field_validator("agent_configs", mode="before")
    @classmethod
    def _null_configs(cls, value: Any) -> Any:
        return {} if value is None else value


class StepConfigFile(BaseModel):
    """The ``{"steps": [...]}`` file."""

    model_config = ConfigDict(extra="allow", frozen=True)

    steps: tuple[Step, ...]


class LoadedStep:
    """The selected step, with where it came from (for rule sentences and fixes)."""

    def __init__(self, document: Document, step: Step, index: int | None) -> None:
        self.document = document
        self.step = step
        self.index = index
        self.file_name = document.name
        """The step config's file name (no directories)."""

    def location(self, field: str, item: int | None = None) -> str:
        """Path inside the document: ``steps[0].agent_configs.selected_tools[2]``."""
        base = f"steps[{self.index}].agent_configs" if self.index is not None else "agent_configs"
        out = f"{base}.{field}"
        return f"{out}[{item}]" if item is not None else out

    def where(self, field: str, item: int | None = None) -> str:
        """``file: path`` for rule sentences."""
        return f"{self.file_name}: {self.location(field, item)}"


def load_step_config(path: Path, step_id: str | None) -> LoadedStep:
    """Load a step config and select a step (``--step``; required when there are several)."""
    document = load_document(path, "step config")
    data = document.data
    source = str(path)
    if not isinstance(data, dict):
        raise InputError(
            source,
            "not a step config",
            [Problem("(top level)", f"expected an object with 'steps', got {type(data).__name__}")],
        )
    if "steps" not in data:
        step = validate_model(Step, data, source, "step config")
        if step_id is not None and step_id != step.id:
            raise InputError(source, f"no step with id {step_id!r}", [Problem("", f"step ids: {step.id}")])
        return LoadedStep(document, step, None)
    parsed = validate_model(StepConfigFile, data, source, "step config")
    if not parsed.steps:
        raise InputError(source, "has no steps", [Problem("steps", "expected at least one step")])
    seen: dict[str, int] = {}
    for index, step in enumerate(parsed.steps):
        if step.id in seen:
            raise InputError(
                source,
                "duplicate step id",
                [Problem(f"steps[{index}].id", f"id {step.id!r} is also used at steps[{seen[step.id]}]")],
            )
        seen[step.id] = index
    ids = ", ".join(seen)
    if step_id is None:
        if len(parsed.steps) == 1:
            return LoadedStep(document, parsed.steps[0], 0)
        raise InputError(source, "has several steps: choose one with --step ID", [Problem("", f"step ids: {ids}")])
    if step_id not in seen:
        raise InputError(source, f"no step with id {step_id!r}", [Problem("", f"step ids: {ids}")])
    return LoadedStep(document, parsed.steps[seen[step_id]], seen[step_id])


def steps_to_choose(path: Path) -> tuple[Step, ...]:
    """The steps of a ``{"steps": [...]}`` file with more than one step (the TUI's step picker);
    ``()`` when there is nothing to choose. Bad files raise the same InputError as loading."""
    document = load_document(path, "step config")
    data = document.data
    if not isinstance(data, dict) or not isinstance(data.get("steps"), list) or len(data["steps"]) < 2:
        return ()
    return validate_model(StepConfigFile, data, str(path), "step config").steps
