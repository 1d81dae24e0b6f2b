"""The capture as a timeline: per request, what appeared and disappeared since the one before, the
token cost, and the tool calls in between that caused the change.

Pure (no Textual, no Rich): ``inspect --capture`` and ``report --capture`` draw from it.

Public API::

    Step(request, appeared, disappeared, tokens, token_change, caused_by)
    timeline(capture) -> list[Step]
    describe_calls(calls) -> str
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .observed import ObservedCall, ObservedCapture, ObservedRequest, changes

CALL_TEXT_CAP = 120
"""Characters of one call's argument text shown (the rest is cut with …)."""


@dataclass(frozen=True)
class Step:
    """One request in the timeline."""

    request: ObservedRequest
    appeared: tuple[str, ...]
    disappeared: tuple[str, ...]
    token_change: int
    caused_by: tuple[ObservedCall, ...]
    """The previous request's reply tool calls (what the agent ran before this request)."""

    @property
    def changed(self) -> bool:
        """The tool list differs from the previous request's (the first request: not a change)."""
        return self.request.index > 1 and bool(self.appeared or self.disappeared)

    def to_json(self) -> dict[str, Any]:
        """One entry of a report's capture timeline."""
        req = self.request
        return {
            **req.head_json(),
            "tools": list(req.tools),
            "deferred": sorted(req.deferred),
            "tokens": req.tokens,
            "token_change": self.token_change,
            "appeared": list(self.appeared),
            "disappeared": list(self.disappeared),
            "caused_by": [_call_json(c) for c in self.caused_by],
            "reply_calls": [_call_json(c) for c in req.calls],
        }


def _call_json(call: ObservedCall) -> dict[str, Any]:
    # Only reset_tools' argument text (group flags) is kept; other tools' arguments are user data.
    return {"name": call.name, "arguments": call.arguments if call.name == "reset_tools" else None}


def timeline(capture: ObservedCapture) -> list[Step]:
    """Every request with its change since the previous one."""
    out: list[Step] = []
    previous: ObservedRequest | None = None
    for request in capture.requests:
        appeared, disappeared = changes(previous, request)
        tokens_before = previous.tokens if previous is not None else 0
        caused = previous.calls if previous is not None else ()
        out.append(Step(request, appeared, disappeared, request.tokens - tokens_before, caused))
        previous = request
    return out


def describe_calls(calls: Sequence[ObservedCall]) -> str:
    """``reset_tools {"web_search": true}; web_search`` — the argument text of reset_tools only (cut at
    the cap): other tools' arguments can hold anything the user's data holds, and are not needed."""
    parts = []
    for call in calls:
        if call.name != "reset_tools":
            parts.append(call.name)
            continue
        text = call.arguments if len(call.arguments) <= CALL_TEXT_CAP else call.arguments[: CALL_TEXT_CAP - 1] + "…"
        parts.append(f"{call.name} {text}")
    return "; ".join(parts) if parts else "(no tool calls)"
