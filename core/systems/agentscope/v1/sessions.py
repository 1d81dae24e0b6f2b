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
    if isinstance(first, list) and first and _is_msg(first[0]):
        return True
    return _is_msg(first) and "timestamp" in first


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
    """Tool calls in order; results matched by id; one model turn per assistant message."""
    pending: list[dict[str, Any]] = []
    results: dict[Any, str] = {}
    turn = 0
    for msg in messages:
        blocks = [b for b in msg["content"] if isinstance(b, Mapping)] if isinstance(msg["content"], list) else []
        if msg.get("role") == "assistant":
            turn += 1
            texts: list[str] = []
            for block in blocks:
                if block.get("type") == "text":
                    texts.append(str(block.get("text", "")))
                elif block.get("type") == "tool_use":
                    args = block.get("input")
                    pending.append(
                        {
                            "id": block.get("id"),
                            "name": str(block.get("name", "")),
                            "input": args,
                            "turn": turn,
                            "text": "\n".join(t for t in texts if t),
                        }
                    )
        for block in blocks:
            if block.get("type") == "tool_result":
                results[block.get("id")] = text_of(block.get("output"))
    calls = []
    for position, call in enumerate(pending, start=1):
        recorded = call["id"] in results
        text = results.get(call["id"], "")
        is_meta = call["name"] == META
        raw = json.dumps(call["input"], ensure_ascii=False) if isinstance(call["input"], dict) else json.dumps({})
        calls.append(
            RecordedCall(
                position=position,
                model_turn=call["turn"],
                name=call["name"],
                raw_input=raw if is_meta else None,
                assistant_text=clip(call["text"]) if is_meta else "",
                result_state="success" if recorded else None,
                result_text=clip(text) if is_meta else None,
                failure=None if is_meta else failure_kind_v1(text),
            )
        )
    return calls, turn


def read_v1(source: str, data: Any, agent_key: str | None = None) -> RecordedSession:
    """A 1.x session form as a RecordedSession (``detect_v1`` must have named it)."""
    kind = detect_v1(data)
    notes: list[str] = []
    agent: Any = None
    where = "(top level)"
    if kind == "v1_json_session":
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
        agent, where = data[key], key
    elif kind == "v1_agent_state":
        agent = data
    if agent is not None:
        memory, mem_where = agent["memory"], f"{where}.memory" if where != "(top level)" else "memory"
        toolkit = agent.get("toolkit")
        groups = toolkit.get("active_groups") if isinstance(toolkit, Mapping) else None
        if toolkit is not None and not (isinstance(groups, list) and all(isinstance(g, str) for g in groups)):
            raise InputError(
                source,
                "not an AgentScope 1.x agent state",
                [Problem(f"{where}.toolkit", 'expected {"active_groups": [names]}')],
            )
        final = tuple(groups) if groups is not None else None
    else:
        memory, mem_where, final = data, "content", None
    messages = _messages(
        source, memory, mem_where if isinstance(memory, Mapping) or agent is not None else "(top level)"
    )
    items = (memory.get("content") if isinstance(memory, Mapping) else memory) or []
    paired = (isinstance(memory, Mapping) and "_compressed_summary" in memory) or any(
        isinstance(i, list) for i in items
    )
    layout = "from 1.0.12 ([msg, marks] pairs)" if paired else "up to 1.0.11 (a flat message list)"
    notes.append(f"AgentScope 1.x memory layout {layout}")
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
