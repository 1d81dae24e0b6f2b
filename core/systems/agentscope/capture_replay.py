"""What an AgentScope agent offers its model at each captured request: the captured
``reset_tools`` calls replayed through the stock and the guarded lane.

The agent asks the model with ``toolkit.get_tool_schemas(activated_groups)`` on every
iteration (agentscope-2x.md §6), and runs the tool calls of a reply before it asks again.
So request 1 carries the starting groups' tools, and request *k+1* the tools after the
``reset_tools`` calls in request *k*'s reply, in the order they were made. Each call goes
through a real ``StepSession`` (``toolkit.call_tool``, stock and guarded); the prediction
for a request is the stock lane's offered list (the installed AgentScope without
toolscope's guard), with the guarded lane's beside it.

Names: AgentScope 2.0.11's ``OpenAIChatModel``, ``OpenAIResponseModel`` and
``AnthropicChatModel`` send each schema's ``function.name`` unchanged (``_format_tools``);
a ``tool_choice.tools`` list narrows them (not modelled: visible in the capture's
``tool_choice``).

Public API::

    NAME_RULE
    await apredict(built, capture) -> CapturePrediction
    predict(built, capture) -> CapturePrediction (sync)
    capture_plan(subject, capture, mode) -> CapturePlan | None   # the registry's capture hook
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...capture.observed import ObservedCapture
from ...model.prediction import NameRule, Prediction
from ..contract import CapturePlan
from .aio import run_sync
from .session import StepSession
from .session_replay import REPLAY_PROGRESS, Progress

NAME_RULE = NameRule(
    "AgentScope sends each tool schema's function name unchanged (OpenAIChatModel, OpenAIResponseModel and "
    "AnthropicChatModel _format_tools, agentscope 2.0.11): names match exactly",
    documented=True,
)
MAX_CALLS = 10_000
"""reset_tools calls replayed at most (each is two real call_tool runs); the rest are noted."""


@dataclass
class CapturePrediction:
    """The predictions, and the session whose turns are the replayed calls."""

    predictions: list[Prediction]
    session: StepSession
    notes: list[str]


def _short(raw: str) -> str:
    return raw if len(raw) <= 80 else raw[:79] + "…"


async def apredict(built: Any, capture: ObservedCapture, progress: Progress | None = None) -> CapturePrediction:
    """Replay the reset_tools calls of every reply, predicting each request's tool list first
    (``progress(done, total)`` after each request)."""
    session = StepSession(built)
    predictions: list[Prediction] = []
    notes: list[str] = []
    basis = "starting groups: " + (", ".join(session.active_groups("stock")) or "(none)")
    replayed = 0
    for done, request in enumerate(capture.requests, 1):
        if progress is not None:
            progress(done, len(capture.requests))
        stock, tokens = await session.avisible("stock")
        guarded, _ = await session.avisible("guarded")
        predictions.append(Prediction(stock, basis, tokens, {"guarded": guarded}))
        resets = [c for c in request.calls if c.name == "reset_tools"]
        if not resets:
            continue
        if replayed + len(resets) > MAX_CALLS:
            notes.append(
                f"only the first {MAX_CALLS:,} reset_tools calls were replayed; later requests keep that state"
            )
            continue
        for call in resets:
            await session.acall(call.arguments, label=f"request {request.index}: reset_tools {_short(call.arguments)}")
        replayed += len(resets)
        basis = f"after request {request.index}'s reset_tools " + "; ".join(_short(c.arguments) for c in resets)
    return CapturePrediction(predictions, session, list(dict.fromkeys(notes)))


def predict(built: Any, capture: ObservedCapture) -> CapturePrediction:
    """Sync ``apredict`` (CLI, reports); progress goes where the command set ``REPLAY_PROGRESS``."""
    return run_sync(apredict(built, capture, REPLAY_PROGRESS.get()))


def capture_plan(subject: Any, capture: ObservedCapture, mode: str | None) -> CapturePlan | None:
    """The registry's capture hook: the captured reset_tools calls replayed on the stock and the
    guarded lane (a toolkit without activation, such as 1.x's: None, the generic comparison)."""
    from .version import agentscope_major

    if agentscope_major() == 1:
        return None  # 1.x: the generic comparison (its replay lanes are 2.x's, whose modules 1.x lacks)
    from .capability import StepsActivation

    if not isinstance(subject, StepsActivation):
        return None
    replay = predict(subject.built, capture)
    known = frozenset(subject.all_tool_names()) | {"reset_tools", "Skill"}
    return CapturePlan(replay.predictions, NAME_RULE, known, replay.notes, lane="stock", session=replay.session)
