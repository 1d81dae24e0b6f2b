"""A capture of Claude Code or Codex against toolscope's prediction, in the CLI's own terms.

The generic comparison (``core.comparison.compare``) lines up names; this module gives it the
CLI's predictions (``capture_plan``, the capture hook Claude Code and Codex declare). A coding-agent CLI needs
more, because both hide MCP tools from the tool array by default (reference
``coding-agent-clis.md`` §1.8, §2.7): each request gets an ``offer`` block, with

- ``received`` / ``predicted``: every MCP tool, marked ``full`` or ``deferred`` (``offered.py``);
- ``differences``: one sentence each, the capture being right;
- ``calls``: per MCP tool call of the request's reply, whether toolscope predicted it callable
  and whether the binary ran it or refused it, read from the next request's tool result
  (``--keep-messages``; without it the outcome is ``unknown`` and not compared).

Built-in tools are left out (listed per request in ``left_out``). The names compared in
the generic block (``received``, ``predicted``) are the offer's names.

Public API::

    capture_plan(subject, capture, mode) -> CapturePlan   # the registry's capture hook (Claude Code, Codex)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ...model.prediction import NameRule, Prediction
from ..codex.ids import CodexInput
from ..contract import CapturePlan
from .offered import (
    observed_offer,
    offer_differences,
    predicted_callable,
    predicted_offer,
    resolve_hashes,
    tool_key,
)

if TYPE_CHECKING:
    from ...capture.observed import ObservedCall, ObservedCapture, ObservedRequest
    from ...capture.tool_results import ObservedResult
    from ...model.subject import Subject
    from ...model.verdicts import Evaluation

__all__ = ["CallCheck", "OfferComparison", "capture_plan"]

LIST_CAP = 200
EVIDENCE_CAP = 200

# The binaries' own refusal texts, as observed in tool results (tests/clis records them);
# any other result came from the tool itself (an error the server returned still ran it).
CLAUDE_REFUSALS = (
    "requested permissions to use",  # default / acceptEdits in -p: "…but you haven't granted it yet."
    "No such tool available",  # a denied tool (§1.7)
    "while in plan mode",  # "Cannot call X while in plan mode."
    "Auto mode is unavailable",
    "Permission to use",  # dontAsk: "Permission to use X has been denied…"
    "has been denied",
)
CODEX_REFUSALS = (
    "requires approval",  # "MCP tool call requires approval, but approval policy is never"
    "unsupported call",  # a flat mcp__server__tool name (§2.8)
    "rejected",
)

_CLAUDE_RULE = NameRule(
    "Claude Code offers an MCP tool as mcp__<server>__<tool> (characters outside A-Za-z0-9_- → _), either in "
    "full in the request's tools or deferred: named in the system message that lists the tools ToolSearch can "
    "load (coding-agent-clis.md §1.6, §1.8); built-in tools are left out of the comparison",
    documented=True,
)
_CODEX_RULE = NameRule(
    "Codex offers an MCP tool as namespace mcp__<server> plus its function name (compared as "
    "namespace:function), in full as a namespace tool, or deferred: only the namespace is named in "
    '"Deferred tool namespaces:" (compared as namespace:*) (coding-agent-clis.md §2.6, §2.7); '
    "Codex's own tools and namespaces are left out of the comparison",
    documented=True,
)


@dataclass(frozen=True)
class CallCheck:
    """One MCP tool call of a reply: toolscope's prediction against what the binary did."""

    tool: str
    predicted_callable: bool
    outcome: str
    """``ran``, ``refused`` or ``unknown`` (no later request, messages not kept, or no result found)."""
    evidence: str
    """The tool result's text (clipped), or why the outcome is unknown."""

    @property
    def agrees(self) -> bool | None:
        """None when the outcome is unknown (not compared)."""
        if self.outcome == "unknown":
            return None
        return self.predicted_callable == (self.outcome == "ran")

    def to_json(self) -> dict[str, Any]:
        """One entry of ``offer.calls``."""
        return {
            "tool": self.tool,
            "predicted_callable": self.predicted_callable,
            "outcome": self.outcome,
            "agrees": self.agrees,
            "evidence": self.evidence[:EVIDENCE_CAP],
        }


@dataclass(frozen=True)
class OfferComparison:
    """One request's MCP tools and calls, received against predicted."""

    received: dict[str, str]
    predicted: dict[str, str]
    differences: tuple[str, ...]
    calls: tuple[CallCheck, ...]
    left_out: tuple[str, ...]

    @property
    def agrees(self) -> bool:
        """No offer difference and no compared call that disagrees."""
        return not self.differences and all(c.agrees is not False for c in self.calls)

    def sentences(self) -> list[tuple[str, str]]:
        """(label, sentence): a tool offered in another form, a call the binary treated otherwise."""
        lines = [("offer", d) for d in self.differences if " offers it " in d]
        for checked in self.calls:
            if checked.agrees is False:
                word = "callable" if checked.predicted_callable else "not callable"
                lines.append(
                    (
                        "call",
                        f"{checked.tool}: toolscope says {word}, the binary {checked.outcome} it "
                        f"({checked.evidence[:120]})",
                    )
                )
        return lines

    def to_json(self) -> dict[str, Any]:
        """The request's ``offer`` block."""
        return {
            "agrees": self.agrees,
            "received": dict(list(self.received.items())[:LIST_CAP]),
            "predicted": dict(list(self.predicted.items())[:LIST_CAP]),
            "differences": list(self.differences[:LIST_CAP]),
            "calls": [c.to_json() for c in self.calls[:LIST_CAP]],
            "left_out": list(self.left_out[:LIST_CAP]),
        }


def _refused(text: str, codex: bool) -> bool:
    return any(phrase in text for phrase in (CODEX_REFUSALS if codex else CLAUDE_REFUSALS))


def _outcome(
    call: ObservedCall, key: str, following: ObservedRequest | None, used: set[int], codex: bool
) -> tuple[str, str]:
    if following is None:
        return "unknown", "no later request carries its result"
    if following.results is None:
        return "unknown", "messages not kept: capture with --keep-messages to compare what the call did"
    results: tuple[ObservedResult, ...] = following.results
    # Newest first: the results of this reply are the last ones of the turn.
    for position in range(len(results) - 1, -1, -1):
        result = results[position]
        if position in used or result.name != call.name or (codex and result.namespace != call.namespace):
            continue
        used.add(position)
        return ("refused" if _refused(result.text, codex) else "ran"), result.text
    return "unknown", f"request {following.index} carries no result for {key}"


def _call_checks(
    request: ObservedRequest,
    following: ObservedRequest | None,
    codex: bool,
    callable_tools: set[str],
    mcp_namespaces: set[str],
) -> tuple[CallCheck, ...]:
    out = []
    used: set[int] = set()
    for call in request.calls:
        # Codex: a flat mcp__server__tool call (no namespace) is an MCP call too, and never callable (§2.8).
        flat = codex and not call.namespace and call.name.startswith("mcp__")
        is_mcp = (
            flat or (call.namespace or "").startswith("mcp__") or call.namespace in mcp_namespaces
            if codex
            else call.name.startswith("mcp__")
        )
        if not is_mcp:
            continue
        key = call.name if flat else tool_key(codex, call.namespace, call.name)
        outcome, evidence = _outcome(call, key, following, used, codex)
        out.append(CallCheck(key, key in callable_tools, outcome, evidence))
    return tuple(out)


EvaluateAt = Callable[[str | None, float], "Evaluation"]
"""A system's evaluation for a request sent some seconds after the first (Codex: a slow server joins later)."""


def _predicted_at(
    at: EvaluateAt | None, mode: str | None, request: ObservedRequest, first: ObservedRequest, default: Evaluation
) -> tuple[dict[str, str], set[str]]:
    """The offer of a request sent some seconds after the first, when the system's prediction depends on it."""
    seconds = request.seconds_after(first)
    evaluation = at(mode, seconds) if at is not None and seconds is not None else default
    return predicted_offer(evaluation), predicted_callable(evaluation)


def capture_plan(
    subject: Subject, capture: ObservedCapture, mode: str | None, at: EvaluateAt | None = None
) -> CapturePlan:
    """Every captured request's MCP tools and calls against ``subject``'s prediction in ``mode``; ``at``: the
    prediction of a later request by its delay after the first (else every request gets the same)."""
    evaluation = subject.evaluate(mode)
    codex = evaluation.loaded.kind == CodexInput.CODEX
    predicted = predicted_offer(evaluation)
    callable_tools = predicted_callable(evaluation)
    mcp_namespaces = {t.namespace for t in evaluation.tools} if codex else set()
    known = {tool_key(codex, t.namespace, t.name) for t in evaluation.tools}
    known |= {f"{ns}:*" for ns in mcp_namespaces}
    where = f"mode {evaluation.loaded.mode}" if evaluation.loaded.mode else "the default mode"
    basis = f"{where}: the MCP tools toolscope says pass every stage up to in context"
    offers, received, predictions, unknown_outcomes = [], [], [], False
    requests = capture.requests
    for position, request in enumerate(requests):
        following = requests[position + 1] if position + 1 < len(requests) else None
        if position:  # a server slower than the start-up grace is there once it has started (Codex)
            predicted, callable_tools = _predicted_at(at, mode, request, requests[0], evaluation)
        observed, left_out = observed_offer(request, codex, mcp_namespaces)
        # Codex's collision suffixes: the predicted placeholder takes the name the request shows.
        hashes = resolve_hashes(predicted, observed)
        expected = {hashes.get(name, name): form for name, form in predicted.items()}
        callable_here = {hashes.get(name, name) for name in callable_tools}
        calls = _call_checks(request, following, codex, callable_here, mcp_namespaces)
        unknown_outcomes |= any(c.outcome == "unknown" for c in calls)
        offers.append(
            OfferComparison(observed, expected, tuple(offer_differences(expected, observed)), calls, left_out)
        )
        received.append(tuple(observed))
        predictions.append(Prediction(tuple(expected), basis))
    builtin = "Codex's own tools and namespaces" if codex else "Claude Code's own tools (Bash, Read, ToolSearch…)"
    notes = [f"{builtin} are not modelled and not compared: each request's offer.left_out lists them"]
    if "either" in predicted.values():
        notes.append(
            "ENABLE_TOOL_SEARCH=auto:N: the count_tokens answer decides full or deferred; the form is not compared"
        )
    if unknown_outcomes:
        notes.append(
            "a call whose outcome is unknown (no later request, or a capture without --keep-messages) is not compared"
        )
    rule = _CODEX_RULE if codex else _CLAUDE_RULE
    return CapturePlan(predictions, rule, frozenset(known), notes, offers=offers, received=received)
