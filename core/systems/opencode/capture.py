"""A capture of ``opencode run`` against toolscope's prediction, in OpenCode's own terms.

OpenCode reaches an OpenAI-compatible provider (``"npm": "@ai-sdk/openai-compatible"`` with
``options.baseURL`` at ``toolscope capture``) with Chat Completions. Each ``run`` first sends a
title request (the hidden ``title`` agent: every tool denied, so no tools and no ``tool_choice``):
predicted empty. Every other request carries the agent's tools, flat names sorted, all ``full``
(OpenCode defers nothing; in code mode one ``execute`` tool stands for the MCP tools). Built-in
tools are compared too. A call's outcome is read from the next request's tool result:
OpenCode's refusal texts (a scoped deny, an unavailable tool, ``ask`` auto-rejected) mean refused.

Public API::

    capture_plan(subject, capture, mode) -> CapturePlan   # the registry's capture hook
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...model.enums import ToolKind
from ...model.prediction import NameRule, Prediction
from ..coding_cli.capture_offer import CallCheck, OfferComparison
from ..coding_cli.offered import offer_differences
from ..contract import CapturePlan
from .ids import OpenCodeStage as S

if TYPE_CHECKING:
    from ...capture.observed import ObservedCapture, ObservedRequest
    from ...model.subject import Subject
    from ...model.verdicts import Evaluation

REFUSALS = (
    "prevents you from using this specific tool call",  # a scoped deny
    "unavailable tool",  # "Model tried to call unavailable tool 'x'"
    "rejected permission",
    "The user rejected",
    "auto-rejecting",
)
_RULE = NameRule(
    "OpenCode offers an MCP tool as <server>_<tool> (every character outside A-Za-z0-9_- → _, case kept, no "
    "length limit) in full in the request's tools, next to its built-in tools; the title request carries none "
    "(shared/reference/opencode.md §1, tests/opencode)",
    documented=True,
)


def predicted_tools(evaluation: Evaluation) -> dict[str, str]:
    """Every tool toolscope says the agent's request carries (``execute`` for code mode's MCP tools)."""
    out: dict[str, str] = {}
    code_mode = False
    for tool in evaluation.tools:
        context = tool.stage(S.IN_CONTEXT)
        if context is None or not all(s.passed for s in tool.stages[: tool.stages.index(context) + 1]):
            continue
        if context.code == "context.code_mode":
            code_mode = True
            continue
        out[tool.name] = "full"
    if code_mode:
        out["execute"] = "full"
    return dict(sorted(out.items()))


def _callable(evaluation: Evaluation) -> set[str]:
    return {t.name for t in evaluation.tools if t.first_failing is None}


def is_title_request(request: ObservedRequest) -> bool:
    """OpenCode's title request: no tools and no tool_choice (the ``title`` agent denies every tool)."""
    return not request.tools and request.tool_choice is None


def _outcome(name: str, following: ObservedRequest | None, used: set[int]) -> tuple[str, str]:
    """ran / refused / unknown, read from the next request's tool result for this call."""
    if following is None:
        return "unknown", "no later request carries its result"
    if following.results is None:
        return "unknown", "messages not kept: capture with --keep-messages to compare what the call did"
    for position, result in enumerate(following.results):
        if position not in used and result.name == name:
            used.add(position)
            return ("refused" if any(p in result.text for p in REFUSALS) else "ran"), result.text
    return "unknown", f"request {following.index} carries no result for {name}"


def _calls(
    request: ObservedRequest, following: ObservedRequest | None, callable_tools: set[str], mcp: set[str]
) -> tuple[CallCheck, ...]:
    used: set[int] = set()
    checks = []
    for call in (c for c in request.calls if c.name in mcp):
        outcome, evidence = _outcome(call.name, following, used)
        checks.append(CallCheck(call.name, call.name in callable_tools, outcome, evidence))
    return tuple(checks)


def _notes(offers: list[OfferComparison]) -> list[str]:
    notes = ["a request with no tools and no tool_choice is taken for OpenCode's title request (predicted empty)"]
    if any(c.outcome == "unknown" for o in offers for c in o.calls):
        notes.append("a call whose outcome is unknown (no later request, or no --keep-messages) is not compared")
    return notes


def capture_plan(subject: Subject, capture: ObservedCapture, mode: str | None) -> CapturePlan:
    """Every captured request's tools and MCP calls against ``subject``'s prediction for one agent."""
    evaluation = subject.evaluate(mode)
    predicted = predicted_tools(evaluation)
    callable_tools = _callable(evaluation)
    mcp = {t.name for t in evaluation.tools if t.kind == ToolKind.MCP}
    basis = f"agent {evaluation.loaded.mode}: the tools toolscope says pass every stage up to in context"
    offers, received, predictions = [], [], []
    requests = capture.requests
    for position, request in enumerate(requests):
        following = requests[position + 1] if position + 1 < len(requests) else None
        title = is_title_request(request)
        expected = {} if title else predicted
        observed = {name: "full" for name in request.tools}
        calls = _calls(request, following, callable_tools, mcp)
        offers.append(OfferComparison(observed, expected, tuple(offer_differences(expected, observed)), calls, ()))
        received.append(tuple(observed))
        predictions.append(Prediction(tuple(expected), "OpenCode's title request (no tools)" if title else basis))
    notes = _notes(offers)
    known = frozenset({t.name for t in evaluation.tools} | {"execute"})
    return CapturePlan(predictions, _RULE, known, notes, offers=offers, received=received)
