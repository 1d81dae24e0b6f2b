"""AgentWorks ``step_config.json``: models and loader.

Two shapes load: ``{"steps": [...]}`` and a single step object (as in the seed). Unknown
AgentWorks fields are kept, not rejected: real files carry two dozen of them. The models
are immutable records validated by pydantic-core (``core.inputs.validation``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from ...inputs.documents import Document, load_document
from ...inputs.validation import EMPTY, validate
from ...model.errors import InputError, Problem
from ...text.suggest import did_you_mean


def _null_is_empty(value: Any) -> Any:
    # Go unmarshals JSON null into a nil slice, which the app treats as empty.
    return [] if value is None else value


def _null_is_object(value: Any) -> Any:
    return {} if value is None else value


_LIST = {"before": _null_is_empty}


class ExecutionLLM(NamedTuple):
    """``agent_configs.execution_llm``: which provider runs the step."""

    __extra__ = "ignore"  # type: ignore[misc]  # read by core.inputs.validation, not a field

    provider: str | None = None
    model_id: str | None = None


class AgentConfigs(NamedTuple):
    """The tool fields of ``agent_configs``; other fields are kept in ``extra``."""

    __extra__ = "allow"  # type: ignore[misc]  # read by core.inputs.validation, not a field
    __validation__ = {  # type: ignore[misc]  # read by core.inputs.validation, not a field
        "selected_servers": _LIST,
        "selected_tools": _LIST,
        "enabled_custom_tools": _LIST,
        "extra": {"extras": True},
    }

    selected_servers: tuple[str, ...] = ()
    """Server names; each means all of that server's tools."""
    selected_tools: tuple[str, ...] = ()
    """``server:tool`` / ``server:*`` entries."""
    enabled_custom_tools: tuple[str, ...] = ()
    """``category:tool`` / ``category:*`` entries for custom (internal) tools."""
    use_code_execution_mode: bool | None = None
    """Code-execution mode (forced on for CLI providers)."""
    execution_llm: ExecutionLLM | None = None
    extra: Mapping[str, Any] = EMPTY
    """Every other key of ``agent_configs``, as written."""


class Step(NamedTuple):
    """One step of the workflow."""

    __extra__ = "ignore"  # type: ignore[misc]  # read by core.inputs.validation, not a field

    __validation__ = {"id": {"min_length": 1}, "agent_configs": {"before": _null_is_object}}  # type: ignore[misc]  # read by core.inputs.validation, not a field

    id: str
    title: str | None = None
    agent_configs: AgentConfigs = AgentConfigs()  # type: ignore[call-arg]  # __extra__ is not a field


class StepConfigFile(NamedTuple):
    """The ``{"steps": [...]}`` file."""

    __extra__ = "ignore"  # type: ignore[misc]  # read by core.inputs.validation, not a field

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

    def target(self, field: str) -> str:
        """``path in file``: where a fix adds an entry to this field."""
        return f"{self.location(field)} in {self.file_name}"


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
        step = validate(Step, data, source, "step config")
        if step_id is not None and step_id != step.id:
            raise InputError(source, f"no step with id {step_id!r}", [Problem("", f"step ids: {step.id}")])
        return LoadedStep(document, step, None)
    parsed = validate(StepConfigFile, data, source, "step config")
    if not parsed.steps:
        raise InputError(source, "has no steps", [Problem("steps", "expected at least one step")])
    index_of = _step_indexes(parsed.steps, source)
    ids = ", ".join(index_of)
    if step_id is None:
        if len(parsed.steps) == 1:
            return LoadedStep(document, parsed.steps[0], 0)
        raise InputError(source, "has several steps: choose one with --step ID", [Problem("", f"step ids: {ids}")])
    if step_id not in index_of:
        raise InputError(source, f"no step with id {step_id!r}", _step_problems(step_id, list(index_of), ids))
    return LoadedStep(document, parsed.steps[index_of[step_id]], index_of[step_id])


def _step_indexes(steps: Sequence[Step], source: str) -> dict[str, int]:
    """Step id → its index; a duplicate id is refused where it repeats."""
    seen: dict[str, int] = {}
    for index, step in enumerate(steps):
        if step.id in seen:
            raise InputError(
                source,
                "duplicate step id",
                [Problem(f"steps[{index}].id", f"id {step.id!r} is also used at steps[{seen[step.id]}]")],
            )
        seen[step.id] = index
    return seen


def load_all_steps(path: Path) -> list[LoadedStep]:
    """Every step of a step config, in file order (one step object: that step)."""
    document = load_document(path, "step config")
    if isinstance(document.data, dict) and "steps" not in document.data:
        return [load_step_config(path, None)]
    first = load_step_config(path, _first_id(document))  # validates the whole file
    parsed = validate(StepConfigFile, document.data, str(path), "step config")
    return [first, *(LoadedStep(first.document, s, i) for i, s in enumerate(parsed.steps) if i > 0)]


def _first_id(document: Document) -> str | None:
    steps = document.data.get("steps") if isinstance(document.data, dict) else None
    if isinstance(steps, list) and steps and isinstance(steps[0], dict) and isinstance(steps[0].get("id"), str):
        return steps[0]["id"]
    return None


def steps_to_choose(path: Path) -> tuple[Step, ...]:
    """The steps of a ``{"steps": [...]}`` file with more than one step (the TUI's step picker);
    ``()`` when there is nothing to choose. Bad files raise the same InputError as loading."""
    document = load_document(path, "step config")
    data = document.data
    if not isinstance(data, dict) or not isinstance(data.get("steps"), list) or len(data["steps"]) < 2:
        return ()
    return validate(StepConfigFile, data, str(path), "step config").steps


def _step_problems(step_id: str, known: list[str], ids: str) -> list[Problem]:
    """The step ids, and the one probably meant (``pulse`` → ``pulse-monitor``)."""
    close = did_you_mean(step_id, known, limit=1)
    hint = [Problem("", f"did you mean --step {close[0]}?")] if close else []
    return [*hint, Problem("", f"step ids: {ids}")]
