"""What a system predicts one captured request carries, and how its names reach the model.

Every system gives the comparison (``core.comparison``) one ``Prediction`` per captured
request and a ``NameRule``; a system that says more per request (the coding-agent CLIs: how
each tool is offered, what each call did) adds an ``OfferCheck``. Pure data.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

__all__ = ["NameRule", "OfferCheck", "Prediction"]


class OfferCheck(Protocol):
    """An input's own account of one request beyond the names (the coding-agent CLIs: ``core.systems.coding_cli``)."""

    @property
    def agrees(self) -> bool:
        """Nothing in it differs from the capture."""
        ...

    def to_json(self) -> dict[str, Any]:
        """The request's ``offer`` block."""
        ...

    def sentences(self) -> list[tuple[str, str]]:
        """(label, sentence) for each difference beyond the names: how a tool is offered, what a call did."""
        ...


@dataclass(frozen=True)
class NameRule:
    """How names reach the model for one input kind."""

    summary: str
    """One sentence: how a configured tool's name becomes the name the model receives."""
    documented: bool
    """A reference (the system's source or docs) says so; False: toolscope's assumption, said in the output."""
    canonical: Callable[[str], str] | None = None
    """A received name as the input names it (None: unchanged)."""

    def of(self, name: str) -> str:
        """The received ``name`` in the input's spelling."""
        return self.canonical(name) if self.canonical is not None else name


@dataclass(frozen=True)
class Prediction:
    """What toolscope predicts one request carries."""

    tools: tuple[str, ...]
    """In the order toolscope predicts (the wire spelling, after ``NameRule.of``)."""
    basis: str
    """Why this list: "initial groups: basic", "after request 2's reset_tools {…}"."""
    tokens: int | None = None
    lanes: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Other lanes' predictions for the same request (step: the guarded lane)."""
