"""The tap: one line in the user's agent lets ``toolscope inspect --follow`` watch it live.

    from toolscope.tap import SessionTap
    agent = Agent(..., middlewares=[SessionTap("/tmp/agent.tap.jsonl")])

Why an agent middleware (``on_reply``) and not a tool middleware or polling the app
storage: it sees every tool call the agent makes, including the ones refused before any
tool runs ("doesn't exist", "inactive", invalid input, permission denied) that a tool
middleware or ``on_acting`` never see; it reads the agent's *real* active groups right
after each call (no saved form records them per call); and it works for any ``Agent``,
in the app service or not, without a database or an extra.

What it writes (JSONL, format in ``tap_reader.py``): for ``reset_tools`` the group flags
(boolean values; any other value is written as null and its name listed in
``redacted``), for every other tool its name, result state and failure kind — never
argument values, never result text. Each record is one ``os.write`` of one line to a file
opened with ``O_APPEND``, so a reader never sees half a record from a live writer.

Every record carries its run's id (``run``), also written in the run's header: two agents
writing one tap (one ``SessionTap`` given to both, or one each on the same path, in one
process or two), or an agent restarted onto the same file, are separate runs, and the
reader keeps them apart (``tap_reader.py``).

It never breaks the agent: every event is passed on unchanged, and any failure of the
recording (full disk, missing folder, a FIFO whose reader is gone, anything else) stops
the recording — ``tap.error`` says why — and costs the agent nothing else.

AgentScope is imported when this module is imported (the class subclasses its
``MiddlewareBase``): the user's agent has it already.
"""

from __future__ import annotations

import errno
import json
import os
import uuid
from collections.abc import AsyncGenerator, Callable
from pathlib import Path
from typing import Any

from agentscope.middleware import MiddlewareBase

from .recorded import META_TOOL, failure_kind
from .tap_reader import TAP_VERSION

_MODEL_CALL_START = "MODEL_CALL_START"
_TOOL_RESULT_END = "TOOL_RESULT_END"


class SessionTap(MiddlewareBase):
    """Record each tool call (group flags / name and result state) to a JSONL file."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        """Append to ``path`` (created if missing; its folder must exist)."""
        super().__init__()
        self.path = Path(path)
        self.error: str | None = None
        """Why recording stopped (None while it works)."""
        self.records = 0
        self._fd: int | None = None
        self._runs: dict[int, _Run] = {}
        """One run per agent this tap was given to (by identity): its id and counters."""

    async def on_reply(
        self, agent: Any, input_kwargs: dict[str, Any], next_handler: Callable[..., AsyncGenerator[Any, None]]
    ) -> AsyncGenerator[Any, None]:
        """Pass every event on unchanged; record finished tool calls on the side."""
        self._safely(self._open, agent)
        async for item in next_handler(**input_kwargs):
            # Most events (text and argument deltas) are none of the tap's business: one
            # attribute read and two comparisons each, nothing else (EventType is a StrEnum).
            kind = getattr(item, "type", None)
            if (kind == _TOOL_RESULT_END or kind == _MODEL_CALL_START) and self.error is None:
                self._safely(self._observe, agent, item)
            yield item

    # -- recording (every entry point goes through _safely) ----------------------------
    def _safely(self, step: Callable[..., None], *args: Any) -> None:
        if self.error is not None:
            return
        try:
            step(*args)
        except Exception as exc:  # the agent must never notice the tap
            self.error = f"{type(exc).__name__}: {exc}"
            self._close()

    def _open(self, agent: Any) -> None:
        if id(agent) in self._runs:
            return
        if self._fd is None:
            # O_NONBLOCK: a FIFO without a reader fails at once (ENXIO) instead of blocking the agent.
            self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NONBLOCK, 0o600)
        import agentscope

        run = self._runs[id(agent)] = _Run(uuid.uuid4().hex[:12])
        state = agent.state
        self._write(
            {
                "toolscope_tap": TAP_VERSION,
                "run": run.run_id,
                "agentscope": getattr(agentscope, "__version__", None),
                "session_id": getattr(state, "session_id", None),
                "agent": str(getattr(agent, "name", "") or ""),
                "groups": list(state.tool_context.activated_groups),
                "pid": os.getpid(),
            }
        )

    def _observe(self, agent: Any, item: Any) -> None:
        kind = item.type
        run = self._runs[id(agent)]
        if kind == _MODEL_CALL_START:
            run.turn += 1
        elif kind == _TOOL_RESULT_END:
            self._record(agent, run, item.tool_call_id)

    def _record(self, agent: Any, run: _Run, call_id: str) -> None:
        call, result = _find_blocks(agent.state.context, call_id)
        if call is None:
            return
        run.call += 1
        state = getattr(result, "state", None) if result is not None else None
        state = getattr(state, "value", state)
        record: dict[str, Any] = {
            "run": run.run_id,
            "call": run.call,
            "turn": run.turn,
            "tool": call.name,
            "state": state,
        }
        if call.name == META_TOOL:
            record.update(_group_flags(call.input))
        else:
            text = _result_text(result)
            record["failure"] = failure_kind(state, text)
        record["groups"] = list(agent.state.tool_context.activated_groups)
        self._write(record)

    def _write(self, record: dict[str, Any]) -> None:
        assert self._fd is not None
        data = (json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")
        written = os.write(self._fd, data)
        if written != len(data):  # a short write leaves half a line: stop rather than corrupt the file
            raise OSError(errno.ENOSPC, "short write (disk full?)")
        self.records += 1

    def _close(self) -> None:
        if self._fd is not None:
            try:
                os.close(self._fd)
            except OSError:
                pass
            self._fd = None


class _Run:
    """One agent's recording in this tap: its id and its call and model-turn counters."""

    __slots__ = ("call", "run_id", "turn")

    def __init__(self, run_id: str) -> None:
        self.run_id = run_id
        self.call = 0
        self.turn = 0


def _find_blocks(context: Any, call_id: str) -> tuple[Any, Any]:
    """The ToolCallBlock and ToolResultBlock with this id, searched from the end (they are recent)."""
    call = result = None
    for msg in reversed(context):
        content = msg.content if isinstance(msg.content, list) else []
        for block in reversed(content):
            if getattr(block, "id", None) != call_id:
                continue
            kind = getattr(block, "type", None)
            if kind == "tool_result" and result is None:
                result = block
            elif kind == "tool_call":
                return block, result
    return call, result


def _result_text(result: Any) -> str:
    if result is None:
        return ""
    output = result.output
    if isinstance(output, str):
        return output
    return "".join(getattr(b, "text", "") for b in output)


def _group_flags(raw: str) -> dict[str, Any]:
    """reset_tools arguments reduced to group flags: booleans kept, other values nulled."""
    try:
        args = json.loads(raw)
    except (TypeError, ValueError):
        return {"unparseable": True}
    if not isinstance(args, dict):
        return {"unparseable": True}
    flags = {str(k): (v if isinstance(v, bool) else None) for k, v in args.items()}
    redacted = [k for k, v in args.items() if not isinstance(v, bool)]
    return {"args": flags, "redacted": redacted} if redacted else {"args": flags}
