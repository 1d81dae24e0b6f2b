"""Prediction against reality: the tools toolscope predicts per request vs the tools the model received.

Pure data, no AgentScope, Textual or Rich. Every input kind plugs in the same way: it
provides one ``Prediction`` per captured request (the tool names it predicts the model
sees, spelt as the model sees them) and a ``NameRule`` (how received names map back to
its own, and whether a reference documents that). ``compare`` lines them up with the
``Observed`` requests and says, per request, what was missing and what was unexpected.

Matching is by exact name after the rule's ``canonical`` step (e.g. the AgentWorks CLI
bridge strips ``mcp__api-bridge__``); order is reported apart (``same_order``) and never
decides ``agrees``. A received name the input does not know at all is *foreign* (a
client's own tool, or a layer toolscope does not model) and is listed apart from a known
tool that toolscope said the model would not see. Either way the request disagrees: the
user must see it.

Public API::

    NameRule(summary, documented, canonical=None)
    Prediction(tools, basis, tokens=None, lanes={})
    compare(observed, predictions, rule, *, known=None, lane=None, notes=(), offers=(), received=())
        -> CaptureComparison
    CaptureComparison: .requests, .agrees, .disagreeing, .never_received, .unpredicted, .to_json()
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..capture.observed import ObservedCapture, ObservedRequest
from ..model.prediction import NameRule, OfferCheck, Prediction

__all__ = [
    "CaptureComparison",
    "LaneComparison",
    "RequestComparison",
    "compare",
]

# Names listed per request and in the totals: enough to read, bounded for a 1,000-tool list.
LIST_CAP = 200


@dataclass(frozen=True)
class LaneComparison:
    """One prediction against one received list."""

    predicted: tuple[str, ...]
    missing: tuple[str, ...]
    """Predicted, not received."""
    unexpected: tuple[str, ...]
    """Received, not predicted (known and foreign)."""

    @property
    def agrees(self) -> bool:
        """The same set of tools."""
        return not self.missing and not self.unexpected

    @classmethod
    def of(cls, received: Sequence[str], predicted: Sequence[str]) -> LaneComparison:
        """Set differences, each in its own list's order."""
        got, want = set(received), set(predicted)
        return cls(
            tuple(predicted),
            tuple(n for n in predicted if n not in got),
            tuple(dict.fromkeys(n for n in received if n not in want)),
        )


@dataclass(frozen=True)
class RequestComparison:
    """One captured request against toolscope's prediction for it."""

    request: ObservedRequest
    received: tuple[str, ...]
    """The received names in the input's spelling, in the order sent."""
    prediction: Prediction
    main: LaneComparison
    foreign: tuple[str, ...]
    """Unexpected names the input does not know at all."""
    others: dict[str, LaneComparison]
    offer: OfferCheck | None = None
    """How each tool is offered and what its calls did, in the input's own terms (None: not compared)."""

    @property
    def agrees(self) -> bool:
        """The received set is the predicted set (and the offer, when compared, agrees)."""
        return self.main.agrees and (self.offer is None or self.offer.agrees)

    @property
    def same_order(self) -> bool:
        """Same set, and sent in the predicted order."""
        return self.agrees and self.received == self.main.predicted

    def to_json(self, cap: int = LIST_CAP) -> dict[str, Any]:
        """One entry of ``capture.requests``."""
        req = self.request
        return {
            **req.head_json(),
            "received": list(self.received[:cap]),
            "received_count": len(self.received),
            "received_tokens": req.tokens,
            "predicted": list(self.main.predicted[:cap]),
            "predicted_count": len(self.main.predicted),
            "predicted_tokens": self.prediction.tokens,
            "basis": self.prediction.basis,
            "agrees": self.agrees,
            "same_order": self.same_order,
            "missing": list(self.main.missing[:cap]),
            "unexpected": list(self.main.unexpected[:cap]),
            "foreign": list(self.foreign[:cap]),
            "other_lanes": {
                lane: {
                    "predicted": list(c.predicted[:cap]),
                    "agrees": c.agrees,
                    "missing": list(c.missing[:cap]),
                    "unexpected": list(c.unexpected[:cap]),
                }
                for lane, c in self.others.items()
            },
            "offer": None if self.offer is None else self.offer.to_json(),
        }


@dataclass(frozen=True)
class CaptureComparison:
    """Every captured request against its prediction, and the totals."""

    capture: ObservedCapture
    rule: NameRule
    lane: str | None
    """Which lane ``predicted`` comes from (step: "stock"); None for inputs with one prediction."""
    requests: tuple[RequestComparison, ...]
    notes: tuple[str, ...]
    cause: str | None = None
    """What the system names as the likely cause of a disagreement (``CapturePlan.cause``; also a note)."""

    def blame(self) -> str:
        """Why the capture may disagree, in words: the named cause, else the unmodelled layer or a bug."""
        return self.cause or "a layer toolscope does not model, or a bug in toolscope"

    @property
    def disagreeing(self) -> tuple[RequestComparison, ...]:
        """The requests whose received set is not the predicted one."""
        return tuple(r for r in self.requests if not r.agrees)

    @property
    def agrees(self) -> bool:
        """Every request agrees (and there was at least one)."""
        return bool(self.requests) and not self.disagreeing

    @property
    def never_received(self) -> tuple[str, ...]:
        """Predicted in some request, received in none."""
        got = {n for r in self.requests for n in r.received}
        return tuple(dict.fromkeys(n for r in self.requests for n in r.main.predicted if n not in got))

    @property
    def unpredicted(self) -> tuple[str, ...]:
        """Received in some request, predicted in none."""
        want = {n for r in self.requests for n in r.main.predicted}
        return tuple(dict.fromkeys(n for r in self.requests for n in r.received if n not in want))

    def lanes_agreeing(self) -> dict[str, bool]:
        """Per other lane: it agrees with the capture at every request."""
        names = dict.fromkeys(lane for r in self.requests for lane in r.others)
        return {lane: all(r.others[lane].agrees for r in self.requests if lane in r.others) for lane in names}

    def to_json(self) -> dict[str, Any]:
        """The ``capture`` block of ``step`` / ``tools`` / ``explain`` / ``check`` ``--json``."""
        cap = self.capture
        return {
            "source": cap.to_json(),
            "name_rule": {"summary": self.rule.summary, "documented": self.rule.documented},
            "lane": self.lane,
            "agrees": self.agrees,
            "disagreeing_requests": [r.request.index for r in self.disagreeing],
            "never_received": list(self.never_received[:LIST_CAP]),
            "unpredicted": list(self.unpredicted[:LIST_CAP]),
            "other_lanes_agree": self.lanes_agreeing(),
            "requests": [r.to_json() for r in self.requests],
            "notes": list(self.notes),
        }


def compare(
    capture: ObservedCapture,
    predictions: Sequence[Prediction],
    rule: NameRule,
    *,
    known: Callable[[str], bool] | None = None,
    lane: str | None = None,
    notes: Sequence[str] = (),
    offers: Sequence[OfferCheck | None] = (),
    received: Sequence[Sequence[str]] = (),
) -> CaptureComparison:
    """Line up each observed request with its prediction (``predictions[i]`` is for request ``i``).

    ``known(name)``: the input has a tool of that name (spelt as the model sees it); an
    unexpected name it does not know is foreign. Requests without a prediction (a shorter
    list) are compared against nothing and noted. ``offers[i]`` is request ``i``'s own account
    (how each tool is offered, what its calls did); it takes part in ``agrees``. ``received[i]``,
    when given, replaces request ``i``'s tool names (an input that compares only some of them).
    """
    out = []
    extra = list(notes)
    if len(predictions) < len(capture.requests):
        extra.append(
            f"toolscope predicted {len(predictions)} of {len(capture.requests)} requests; "
            "the rest are compared against an empty list"
        )
    for position, request in enumerate(capture.requests):
        prediction = predictions[position] if position < len(predictions) else Prediction((), "no prediction")
        names = received[position] if position < len(received) else request.tools
        got = tuple(rule.of(name) for name in names)
        main = LaneComparison.of(got, prediction.tools)
        foreign = tuple(n for n in main.unexpected if known is not None and not known(n))
        others = {name: LaneComparison.of(got, tools) for name, tools in prediction.lanes.items()}
        offer = offers[position] if position < len(offers) else None
        out.append(RequestComparison(request, got, prediction, main, foreign, others, offer))
    return CaptureComparison(capture, rule, lane, tuple(out), tuple(extra))
