"""What an AgentScope toolkit's subject offers beyond the Subject protocol (``core.model.subject``):
a front end asks ``isinstance(subject, StepsActivation)``. No AgentScope import here."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from ...model.subject import EvaluatesActiveGroups

if TYPE_CHECKING:
    from .session import StepSession
    from .spec import BuiltToolkit

__all__ = ["StepsActivation"]


@runtime_checkable
class StepsActivation(EvaluatesActiveGroups, Protocol):
    """A subject with reset_tools activation: a real toolkit, its groups, and step-through sessions."""

    built: BuiltToolkit
    """The real toolkit and initial state the subject evaluates."""

    def session(self, steps: Sequence[Any] = ()) -> StepSession:
        """A step-through session over this toolkit (stock vs guarded lanes)."""
        ...

    def all_tool_names(self) -> tuple[str, ...]:
        """Every tool name in the toolkit."""
        ...
