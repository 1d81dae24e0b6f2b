"""A recorded AgentScope session as toolscope keeps it: the tool calls, in order.

Pure data (no AgentScope import): ``session_source.py`` builds it from the files and
databases AgentScope writes, ``tap.py`` from the live tap's JSONL, and
``session_replay.py`` replays it against a real toolkit.

What is kept, on purpose: for ``reset_tools`` the raw argument text (group flags, the
whole point) and the recorded result text; for every other tool only its name, the
recorded result state and whether the failure was "doesn't exist" / "inactive" — never
argument values or result text, which can hold anything the user's tools return.

A *model turn* is one model response and the tool results that follow it: AgentScope 2.x
keeps a whole reply (many model turns) in one assistant ``Msg``, so turns are counted
from the blocks — a text, thinking or tool-call block after a tool result starts the next
one, and so does every new assistant message.

Public API::

    RecordedCall, RecordedSession, SOURCE_KINDS
    calls_from_messages(messages: Iterable[Mapping]) -> (calls, model_turns)
    failure_kind(state, text) -> "not_found" | "inactive_group" | None
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ...schemas.session_words import Failure, SourceKind
from ...text.clip import clip

META_TOOL = "reset_tools"
META_TOOLS = (META_TOOL, "reset_equipped_tools")
"""The meta tool of AgentScope 2.x and of 1.x (``v1/sessions.py`` reads 1.x sessions)."""
SOURCE_KINDS = (
    "agent_state",
    "msg_list",
    "msg_jsonl",
    "app_storage",
    "tap",
    "v1_json_session",
    "v1_agent_state",
    "v1_memory",
)


@dataclass(frozen=True)
class RecordedCall:
    """One tool call the model made, with what the recording says it returned."""

    position: int
    """1-based order among all tool calls of the session."""
    model_turn: int
    name: str
    raw_input: str | None
    """reset_tools only: the argument text as recorded (None for other tools)."""
    assistant_text: str = ""
    """reset_tools only: the text the model wrote in the same turn, before the call."""
    result_state: str | None = None
    """success / error / denied / interrupted / running, or None when no result was recorded."""
    result_text: str | None = None
    """reset_tools only: the recorded result text."""
    failure: Failure | None = None
    """Other tools: the recorded error said the tool doesn't exist / its group is inactive."""
    groups_after: tuple[str, ...] | None = None
    """The agent's real active groups after the call, when the source records them (the tap)."""
    note: str | None = None
    """Why the replay may not be exact (e.g. non-boolean values the tap did not keep)."""

    @property
    def shown_input(self) -> str:
        """The argument text as shown (clipped: the replay sends the whole ``raw_input``)."""
        return clip(self.raw_input or "")

    @property
    def is_reset(self) -> bool:
        """A reset_tools call (1.x: reset_equipped_tools; becomes a step-through turn)."""
        return self.name in META_TOOLS


@dataclass(frozen=True)
class RecordedSession:
    """Everything toolscope reads from one session source."""

    source: str
    """The file (or database file) it came from."""
    kind: SourceKind
    calls: tuple[RecordedCall, ...]
    model_turns: int
    session_id: str | None = None
    agentscope_version: str | None = None
    """The AgentScope version that recorded it, when the source says (the tap does)."""
    initial_groups: tuple[str, ...] | None = None
    """The groups active before the first call, when the source records them (the tap does)."""
    final_groups: tuple[str, ...] | None = None
    """``tool_context.activated_groups`` at the end (AgentState dumps and app storage)."""
    notes: tuple[str, ...] = field(default=())

    @property
    def resets(self) -> tuple[RecordedCall, ...]:
        """The reset_tools calls, in order."""
        return tuple(c for c in self.calls if c.is_reset)

    def describe_source(self) -> str:
        """One phrase for headers: what kind of source this was."""
        return {
            "agent_state": "AgentState JSON dump",
            "msg_list": "JSON array of Msg",
            "msg_jsonl": "JSONL of Msg",
            "app_storage": "AgentScope app storage (SQLite)",
            "tap": "toolscope tap (JSONL)",
            "v1_json_session": "AgentScope 1.x JSONSession file",
            "v1_agent_state": "AgentScope 1.x agent state_dict",
            "v1_memory": "AgentScope 1.x memory dump",
        }[self.kind]


def session_of_msgs(source: str, kind: SourceKind, msgs: Iterable[Any], **known: Any) -> RecordedSession:
    """The session that validated 2.x ``Msg`` objects record, in order (``known``: the source's other fields)."""
    calls, turns = calls_from_messages(m.model_dump(mode="json") for m in msgs)
    return RecordedSession(source=source, kind=kind, calls=tuple(calls), model_turns=turns, **known)


def failure_kind(state: str | None, text: str) -> Failure | None:
    """Classify a recorded failure from AgentScope's own error texts (``_toolkit.py``)."""
    if state != "error":
        return None
    if "ToolGroupInactiveError" in text or "is currently inactive" in text:
        return "inactive_group"
    if "ToolNotFoundError" in text or "doesn't exist" in text:
        return "not_found"
    return None


def text_of(output: Any) -> str:
    """A tool result's output as text: a str, or the text blocks of a list (2.x ``ToolResultBlock``,
    1.x ``tool_result``: the same two layouts)."""
    if isinstance(output, str):
        return output
    if isinstance(output, list):
        return "".join(b.get("text", "") for b in output if isinstance(b, Mapping) and b.get("type") == "text")
    return ""


def calls_from_messages(messages: Iterable[Mapping[str, Any]]) -> tuple[list[RecordedCall], int]:
    """Tool calls in order from validated 2.x ``Msg`` dicts (``model_dump(mode="json")``).

    Results are matched to calls by id, wherever they appear; calls that share one id (a model
    that reuses its call id) take that id's results in order, never all the last one.
    """
    pending: list[dict[str, Any]] = []
    results: dict[str, deque[tuple[str, str]]] = {}
    turn = 0
    for msg in messages:
        if msg.get("role") == "assistant":
            turn = _read_assistant_blocks(msg.get("content") or [], turn, pending, results)
    calls = [_recorded_call(position, call, results) for position, call in enumerate(pending, start=1)]
    return calls, turn


_TURN_BLOCKS = ("text", "thinking", "tool_call")
"""Blocks the model writes: the first of them after a tool result starts a new model turn."""


def _read_assistant_blocks(
    blocks: Iterable[Any],
    turn: int,
    pending: list[dict[str, Any]],
    results: dict[str, deque[tuple[str, str]]],
) -> int:
    """Collect one assistant message's calls and results; returns the model turn it ends in."""
    text_parts: list[str] = []
    last_kind = None
    for block in blocks:
        kind = block.get("type")
        if kind in _TURN_BLOCKS and last_kind in (None, "tool_result"):
            turn += 1
            text_parts = []
        if kind in (*_TURN_BLOCKS, "tool_result"):
            last_kind = kind
        if kind == "text":
            text_parts.append(block.get("text", ""))
        elif kind == "tool_call":
            pending.append(
                {
                    "id": block.get("id"),
                    "name": block.get("name", ""),
                    "input": block.get("input", ""),
                    "turn": turn,
                    "text": "\n".join(t for t in text_parts if t),
                }
            )
        elif kind == "tool_result":
            results.setdefault(block.get("id"), deque()).append((block.get("state"), text_of(block.get("output"))))
    return turn


def _recorded_call(position: int, call: dict[str, Any], results: Mapping[str, deque[tuple[str, str]]]) -> RecordedCall:
    """One call with its result (the next one of its id); only reset_tools keeps its input and texts (the replay needs them)."""
    queue = results.get(call["id"])
    state, text = queue.popleft() if queue else (None, "")
    is_reset = call["name"] == META_TOOL
    return RecordedCall(
        position=position,
        model_turn=call["turn"],
        name=call["name"],
        raw_input=call["input"] if is_reset else None,
        assistant_text=clip(call["text"]) if is_reset else "",
        result_state=state,
        result_text=clip(text) if is_reset else None,
        failure=None if is_reset else failure_kind(state, text),
    )
