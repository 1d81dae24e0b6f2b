"""Read what AgentScope 1.x saves: ``JSONSession`` files, an agent's ``state_dict``, and
memory dumps in both layouts (pure: no AgentScope import, nothing written).

Forms, detected from content:

- ``JSONSession(save_dir).save_session_state(id, key=agent)`` → ``{key: agent_state}``;
- an agent's ``state_dict()`` → ``{"memory": ..., "toolkit": {"active_groups": [...]},
  "name": ..., "_sys_prompt": ...}`` (the Toolkit is a StateModule of the agent);
- ``InMemoryMemory.state_dict()``: from 1.0.12 ``{"_compressed_summary": "", "content":
  [[msg, marks], ...]}``, up to 1.0.11 ``{"content": [msg, ...]}``; a bare list of
  messages is read too.

A 1.x message is ``{id, name, role, content, metadata, timestamp}``; one assistant message
per reasoning step holds ``tool_use`` blocks whose ``input`` is a dict; each result is its
own message (role ``system``) with a ``tool_result`` block whose ``output`` is a list of
text blocks. 1.x has no result state: a recorded result is a success to the agent loop,
and a failure is recognised by 1.x's own texts (``FunctionInactiveError …``,
``FunctionNotFoundError …``). 1.x saves only the final groups (``toolkit.active_groups``):
never the starting ones, none per call (``STARTING_ASSUMED``).

Public API::

    detect_v1(data) -> str | None                    # the form's kind, None if not 1.x
    read_v1(source, data, agent_key=None) -> RecordedSession
    failure_kind_v1(text) -> "not_found" | "inactive_group" | None
    FAILURE_WORDS_V1, STARTING_ASSUMED
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Mapping
from typing import Any

from ....model.errors import InputError, Problem
from ....schemas.session_words import Failure
from ....text.clip import clip
from ..recorded import RecordedCall, RecordedSession, text_of
from .build import META

FAILURE_WORDS_V1 = {"not_found": "FunctionNotFoundError", "inactive_group": "FunctionInactiveError"}
STARTING_ASSUMED = (
    "AgentScope 1.x saves only the final groups (toolkit.active_groups), never the starting ones: "
    "the replay assumes the session started with {start}"
)
MAX_MESSAGES = 1_000_000


def failure_kind_v1(text: str) -> Failure | None:
    """Classify a recorded tool result by 1.x's own failure texts (``_toolkit.py``)."""
    if text.startswith("FunctionInactiveError"):
        return "inactive_group"
    if text.startswith("FunctionNotFoundError"):
        return "not_found"
    return None


def _is_msg(item: Any) -> bool:
    return isinstance(item, Mapping) and "role" in item and "content" in item


def _is_memory(value: Any) -> bool:
    """A 1.x InMemoryMemory state_dict (either layout) or a bare message list."""
    items = value.get("content") if isinstance(value, Mapping) else value
    if not isinstance(items, list) or (isinstance(value, Mapping) and set(value) - {"content", "_compressed_summary"}):
        return False
    first = items[0] if items else None
    if first is None:
        return isinstance(value, Mapping)
    return _is_memory_entry(first)


def _is_memory_entry(item: Any) -> bool:
    """A 1.0.12+ ``[msg, marks]`` pair, or an older bare message (1.x stamps each with a ``timestamp``)."""
    if isinstance(item, list):
        return bool(item) and _is_msg(item[0])
    return _is_msg(item) and "timestamp" in item


def _is_agent(value: Any) -> bool:
    return (
        isinstance(value, Mapping)
        and "memory" in value
        and ("toolkit" in value or "_sys_prompt" in value or "name" in value)
    )


def detect_v1(data: Any) -> str | None:
    """``v1_json_session``, ``v1_agent_state``, ``v1_memory`` or None."""
    if _is_agent(data):
        return "v1_agent_state"
    if _is_memory(data):
        return "v1_memory"
    if isinstance(data, Mapping) and data and any(_is_agent(v) for v in data.values()):
        return "v1_json_session"
    return None


def _messages(source: str, memory: Any, where: str) -> list[Mapping[str, Any]]:
    """The messages of a memory dump in either layout, validated for what is read."""
    items = memory.get("content") if isinstance(memory, Mapping) else memory
    if not isinstance(items, list):
        raise InputError(
            source, "not an AgentScope 1.x memory", [Problem(where, "expected a list of messages under 'content'")]
        )
    out = []
    for index, item in enumerate(items[:MAX_MESSAGES]):
        place = f"{where}[{index}]"
        if isinstance(item, list):  # 1.0.12+: [msg, marks]
            item = item[0] if item else None
            place += "[0]"
        if not _is_msg(item):
            raise InputError(
                source, "not an AgentScope 1.x message", [Problem(place, "expected an object with role and content")]
            )
        content = item["content"]
        if not isinstance(content, (str, list)):
            raise InputError(
                source,
                "not an AgentScope 1.x message",
                [Problem(f"{place}.content", "expected a string or a list of blocks")],
            )
        out.append(item)
    return out


def calls_from_v1(messages: list[Mapping[str, Any]]) -> tuple[list[RecordedCall], int]:
    """Tool calls in order; results matched by id (calls sharing one id take its results in order);
    one model turn per assistant message."""
    pending: list[dict[str, Any]] = []
    results: dict[Any, deque[str]] = {}
    turn = 0
    for msg in messages:
        blocks = [b for b in msg["content"] if isinstance(b, Mapping)] if isinstance(msg["content"], list) else []
        if msg.get("role") == "assistant":
            turn += 1
            pending.extend(_tool_uses(blocks, turn))
        for block in blocks:
            if block.get("type") == "tool_result":
                results.setdefault(block.get("id"), deque()).append(text_of(block.get("output")))
    calls = [_recorded_call(position, call, results) for position, call in enumerate(pending, start=1)]
    return calls, turn


def _tool_uses(blocks: list[Mapping[str, Any]], turn: int) -> list[dict[str, Any]]:
    """An assistant message's ``tool_use`` blocks, each with the text blocks written before it."""
    texts: list[str] = []
    uses = []
    for block in blocks:
        if block.get("type") == "text":
            texts.append(str(block.get("text", "")))
        elif block.get("type") == "tool_use":
            uses.append(
                {
                    "id": block.get("id"),
                    "name": str(block.get("name", "")),
                    "input": block.get("input"),
                    "turn": turn,
                    "text": "\n".join(t for t in texts if t),
                }
            )
    return uses


def _recorded_call(position: int, call: dict[str, Any], results: Mapping[Any, deque[str]]) -> RecordedCall:
    """One call with its result (the next one of its id); only the meta tool's input and texts are kept."""
    queue = results.get(call["id"])
    recorded = bool(queue)
    text = queue.popleft() if queue else ""
    is_meta = call["name"] == META
    raw = json.dumps(call["input"], ensure_ascii=False) if isinstance(call["input"], dict) else json.dumps({})
    return RecordedCall(
        position=position,
        model_turn=call["turn"],
        name=call["name"],
        raw_input=raw if is_meta else None,
        assistant_text=clip(call["text"]) if is_meta else "",
        result_state="success" if recorded else None,
        result_text=clip(text) if is_meta else None,
        failure=None if is_meta else failure_kind_v1(text),
    )


def read_v1(source: str, data: Any, agent_key: str | None = None) -> RecordedSession:
    """A 1.x session form as a RecordedSession (``detect_v1`` must have named it)."""
    kind = detect_v1(data)
    notes: list[str] = []
    agent, where = _chosen_agent(source, data, kind, agent_key, notes)
    if agent is not None:
        memory, mem_where = agent["memory"], f"{where}.memory" if where != "(top level)" else "memory"
        final = _final_groups(source, agent, where)
    else:
        memory, mem_where, final = data, "content", None
    messages = _messages(
        source, memory, mem_where if isinstance(memory, Mapping) or agent is not None else "(top level)"
    )
    notes.append(f"AgentScope 1.x memory layout {_memory_layout(memory)}")
    calls, turns = calls_from_v1(messages)
    return RecordedSession(
        source=source,
        kind=kind or "v1_memory",  # type: ignore[arg-type]
        calls=tuple(calls),
        model_turns=turns,
        session_id=agent_key,
        final_groups=final,
        notes=tuple(notes),
    )


def _chosen_agent(source: str, data: Any, kind: str | None, agent_key: str | None, notes: list[str]) -> tuple[Any, str]:
    """The agent state to read and where it sits (None for a bare memory dump)."""
    if kind == "v1_agent_state":
        return data, "(top level)"
    if kind != "v1_json_session":
        return None, "(top level)"
    agents = [k for k, v in data.items() if _is_agent(v)]
    key = agent_key if agent_key is not None else agents[0]
    if key not in agents:
        raise InputError(
            source,
            f"no agent '{key}' in this JSONSession file",
            [Problem("(top level)", f"agents: {', '.join(agents)}")],
        )
    if len(agents) > 1 and agent_key is None:
        notes.append(f"the file holds {len(agents)} agents ({', '.join(agents[:5])}): reading '{key}'")
    return data[key], key


def _final_groups(source: str, agent: Mapping[str, Any], where: str) -> tuple[str, ...] | None:
    """The agent's saved ``toolkit.active_groups`` (None when it saved no toolkit)."""
    toolkit = agent.get("toolkit")
    groups = toolkit.get("active_groups") if isinstance(toolkit, Mapping) else None
    if toolkit is not None and not (isinstance(groups, list) and all(isinstance(g, str) for g in groups)):
        raise InputError(
            source,
            "not an AgentScope 1.x agent state",
            [Problem(f"{where}.toolkit", 'expected {"active_groups": [names]}')],
        )
    return tuple(groups) if groups is not None else None


def _memory_layout(memory: Any) -> str:
    """Which 1.x memory layout the dump has: 1.0.12 added ``[msg, marks]`` pairs and a summary."""
    items = (memory.get("content") if isinstance(memory, Mapping) else memory) or []
    paired = (isinstance(memory, Mapping) and "_compressed_summary" in memory) or any(
        isinstance(i, list) for i in items
    )
    return "from 1.0.12 ([msg, marks] pairs)" if paired else "up to 1.0.11 (a flat message list)"
