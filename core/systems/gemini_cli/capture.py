"""A capture of Gemini CLI against toolscope's prediction, in Gemini CLI's terms.

Each request's ``tools[0].functionDeclarations`` names the MCP tools as sent
(``mcp_<server>_<tool>``, sanitised, cut to 63); built-in tools (``read_file``, ``glob``…) are
not modelled and are listed in ``offer.left_out``. A name is an MCP tool when it starts with
``mcp_`` (every sent MCP name does) or toolscope predicted it. The router request of the default
model ("auto": a ``:generateContent`` to a flash-lite model, no tools) is predicted empty.
Calls: a scripted ``functionCall`` is compared with the next request's ``functionResponse``
(``--keep-messages``): the CLI's refusals are "requires user confirmation", "denied by policy"
and "not found".

Public API::

    capture_plan(subject, capture, mode) -> CapturePlan   # the registry's capture hook
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...model.prediction import NameRule, Prediction
from ..coding_cli.capture_offer import CallCheck, OfferComparison
from ..coding_cli.offered import offer_differences
from ..contract import CapturePlan
from .ids import GeminiStage

if TYPE_CHECKING:
    from ...capture.observed import ObservedCapture, ObservedRequest
    from ...model.subject import Subject
    from ...model.verdicts import Evaluation

REFUSALS = ("requires user confirmation", "denied by policy", "not found", "not supported in non-interactive")
RULE = NameRule(
    "Gemini CLI sends an MCP tool as mcp_<server>_<tool> (characters outside A-Za-z0-9_.:- → _, over 63 characters "
    "cut to the first 30 + ... + the last 30) in the request's functionDeclarations (gemini-cli.md §1, §2); "
    "built-in tools are left out of the comparison",
    documented=True,
)


def predicted_sent(evaluation: Evaluation) -> dict[str, str]:
    """The MCP tools toolscope says are sent (every stage up to policy passes)."""
    out = {}
    for tool in evaluation.tools:
        policy = tool.stage(GeminiStage.POLICY)
        if policy is not None and all(s.passed for s in tool.stages[: tool.stages.index(policy) + 1]):
            out[tool.name] = "full"
    return out


def _is_router(request: ObservedRequest) -> bool:
    return not request.tools and "lite" in (request.model or "")


def _observed(request: ObservedRequest, predicted: dict[str, str]) -> tuple[dict[str, str], tuple[str, ...]]:
    seen = {n: "full" for n in request.tools if n.startswith("mcp_") or n in predicted}
    return seen, tuple(n for n in request.tools if n not in seen)


def _outcome(name: str, following: ObservedRequest | None) -> tuple[str, str]:
    """What the binary did with a call, read from the next request's functionResponse."""
    if following is None:
        return "unknown", "no later request carries its result"
    if following.results is None:
        return "unknown", "messages not kept: capture with --keep-messages"
    result = next((r for r in reversed(following.results) if r.name == name), None)
    if result is None:
        return "unknown", f"request {following.index} carries no result"
    return ("refused" if any(p in result.text for p in REFUSALS) else "ran"), result.text


def _calls(
    request: ObservedRequest, following: ObservedRequest | None, callable_tools: set[str]
) -> tuple[CallCheck, ...]:
    out = []
    for call in request.calls:
        if call.name.startswith("mcp_") or call.name in callable_tools:
            outcome, evidence = _outcome(call.name, following)
            out.append(CallCheck(call.name, call.name in callable_tools, outcome, evidence))
    return tuple(out)


def capture_plan(subject: Subject, capture: ObservedCapture, mode: str | None) -> CapturePlan:
    """Every captured request's MCP tools (and calls) against the prediction in ``mode``."""
    evaluation = subject.evaluate(mode)
    predicted = predicted_sent(evaluation)
    callable_tools = {t.name for t in evaluation.tools if t.first_failing is None and t.name in predicted}
    offers, received, predictions = [], [], []
    requests = capture.requests
    for position, request in enumerate(requests):
        following = requests[position + 1] if position + 1 < len(requests) else None
        expected = {} if _is_router(request) else predicted
        observed, left_out = _observed(request, expected)
        calls = _calls(request, following, callable_tools)
        offers.append(
            OfferComparison(observed, expected, tuple(offer_differences(expected, observed)), calls, left_out)
        )
        received.append(tuple(observed))
        predictions.append(
            Prediction(
                tuple(expected), f"mode {evaluation.loaded.mode}: the MCP tools that pass every stage up to policy"
            )
        )
    notes = ["Gemini CLI's built-in tools are not modelled and not compared: each request's offer.left_out lists them"]
    if not requests:
        notes.append("no request was captured: an untrusted folder makes gemini -p exit 55 before any request")
    known = frozenset(t.name for t in evaluation.tools)
    return CapturePlan(predictions, RULE, known, notes, offers=offers, received=received)
