"""Turns of a step-through session: what each lane saw, as data and as JSON.

Token estimate: ``ceil(len(json.dumps(schemas, separators=(",", ":"))) / 4)`` over the
schemas ``get_tool_schemas`` returns — about four characters of JSON per token, the usual
rule of thumb for OpenAI-style tokenizers. An estimate, not a tokenizer count. The JSON
field is ``token_estimate``.

Public API (re-exported by ``session``)::

    LANES = ("stock", "guarded");  Lane
    LaneTurn(...).to_json();  Turn(...).to_json(), .stock, .guarded
    estimate_tokens(schemas) -> int
    session_json(history: Sequence[Turn]) -> {"lanes": {...}, "events": [...]}
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from ...text.clip import clip_all
from .planner import ActivationPlan

Lane = Literal["stock", "guarded"]
LANES: tuple[Lane, ...] = ("stock", "guarded")


def estimate_tokens(schemas: list[dict[str, Any]]) -> int:
    """About four characters of compact JSON per token (see the module docstring)."""
    return math.ceil(len(json.dumps(schemas, ensure_ascii=False, separators=(",", ":"))) / 4)


@dataclass(frozen=True)
class LaneTurn:
    """One lane's side of a turn."""

    lane: Lane
    call: str
    """The raw argument text sent to reset_tools."""
    args: dict[str, Any] | None
    accepted: bool
    """The ToolResponse's state is success (2.0.6 reports some refusals as success)."""
    response_state: str
    response_text: str
    groups_before: tuple[str, ...]
    groups_after: tuple[str, ...]
    visible_tools: tuple[str, ...]
    token_estimate: int
    plan: ActivationPlan | None
    """The guard's plan (guarded lane; None when the guard never ran, e.g. invalid JSON)."""
    state_before: Any = field(repr=False, compare=False)
    state_after: Any = field(repr=False, compare=False)
    received: dict[str, Any] | None = None
    """Guarded lane: the arguments as the guard received them when they differ from
    ``args`` (2.0.11's argument repair); None when they arrived as written."""

    def to_json(self) -> dict[str, Any]:
        """This lane's call, response, groups before/after, offered tools and tokens."""
        out: dict[str, Any] = {
            "call": self.call,
            "args": self.args,
            "accepted": self.accepted,
            "response_state": self.response_state,
            "response_text": self.response_text,
            "groups_before": list(self.groups_before),
            "groups_after": list(self.groups_after),
            "visible_tools": list(self.visible_tools),
            "token_estimate": self.token_estimate,
        }
        if self.lane == "guarded":
            out["plan"] = self.plan.to_json() if self.plan else None
            if self.received is not None:
                out["received_args"] = self.received
        return clip_all(out)  # a recorded call can carry megabytes: shown clipped, replayed whole


@dataclass(frozen=True)
class Turn:
    """One executed step: a call on both lanes, or a group registration."""

    index: int
    """1-based position in the session."""
    kind: Literal["call", "register_group"]
    description: str
    lanes: dict[str, LaneTurn] = field(default_factory=dict)
    group: Any = field(default=None, repr=False, compare=False)
    """The ToolGroup a register_group turn added (re-added on redo)."""
    group_name: str | None = None

    @property
    def stock(self) -> LaneTurn | None:
        """The stock lane's side (None for a register_group turn)."""
        return self.lanes.get("stock")

    @property
    def guarded(self) -> LaneTurn | None:
        """The guarded lane's side (None for a register_group turn)."""
        return self.lanes.get("guarded")

    @property
    def diverged(self) -> bool:
        """The lanes ended this call turn differently: other groups active, or one lane
        accepted the call and the other did not."""
        stock, guarded = self.stock, self.guarded
        if stock is None or guarded is None:
            return False
        return stock.groups_after != guarded.groups_after or stock.accepted != guarded.accepted

    def to_json(self) -> dict[str, Any]:
        """The turn as JSON: kind, description, and each lane's side (or the group)."""
        out: dict[str, Any] = {"turn": self.index, "kind": self.kind, "description": self.description}
        if self.kind == "register_group":
            out["group"] = self.group_name
        else:
            out.update({lane: t.to_json() for lane, t in self.lanes.items()})
        return out


def session_json(history: Sequence[Turn]) -> dict[str, Any]:
    """Lanes as lists of call turns plus the registration events (``step --json`` body)."""
    lanes: dict[str, list[dict[str, Any]]] = {lane: [] for lane in LANES}
    events = []
    for turn in history:
        if turn.kind == "register_group":
            events.append(
                {"turn": turn.index, "kind": turn.kind, "group": turn.group_name, "description": turn.description}
            )
            continue
        for lane, lane_turn in turn.lanes.items():
            lanes[lane].append({"turn": turn.index, **lane_turn.to_json()})
    return {"lanes": lanes, "events": events}
