"""Read a saved AgentScope 2.x session, whatever form it was saved in (detected from content).

Accepted, the suffix being only a hint:

1. a JSON dump of an ``AgentState`` (``state.model_dump_json()``): an object with
   ``context`` (the ``Msg`` list) and ``tool_context`` (``activated_groups``: the final groups);
2. a JSON array of ``Msg`` objects, or JSONL with one ``Msg`` per line;
3. AgentScope's app storage (SQLite; ``app_storage.py``, needs ``--session-id``);
4. the toolscope tap's JSONL (``tap.py``; it also records the version and starting groups).

Messages are validated by AgentScope's own ``Msg`` model, states by its ``AgentState``:
what the installed AgentScope would load is what toolscope reads. Nothing is ever
written to the source. Every refusal is an ``InputError`` (exit 2) naming the file, the
place and what was expected — an AgentScope 1.x memory dump and a truncated file get
their own message.

Public API::

    load_session(path, session_id=None) -> RecordedSession
    SQLITE_MAGIC
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from ...inputs.input_files import read_bytes
from ...inputs.strict_json import load_strict
from ...model.errors import InputError, Problem
from .recorded import RecordedSession, session_of_msgs

SQLITE_MAGIC = b"SQLite format 3\x00"
EXPECTED = (
    "expected an AgentScope 2.x session: an AgentState JSON dump (state.model_dump_json()), "
    "a JSON array or JSONL of Msg objects, an AgentScope app storage database with --session-id, "
    "or a toolscope tap file"
)
V1_HINT = (
    "this looks like an AgentScope 1.x memory dump ({why}); toolscope reads AgentScope 2.x sessions "
    "(Msg blocks of type tool_call / tool_result, AgentState.context)"
)


TAP_START = re.compile(r'\{\s*"toolscope_tap"\s*:')
"""How a tap file starts (its header's first key): the one text form that takes --session-id."""


def load_session(path: Path | str, session_id: str | None = None) -> RecordedSession:
    """Detect the source's form from its content and read it into a ``RecordedSession``."""
    path = Path(path)
    source = str(path)
    _require_regular_file(path, source)
    with path.open("rb") as handle:
        head = handle.read(len(SQLITE_MAGIC))
    if head == SQLITE_MAGIC:
        from .app_storage import load_app_session

        _refuse_on_1x(source, "an AgentScope app storage database (2.x's agentscope.app)")
        return load_app_session(path, session_id)
    text = _session_text(path, source)
    try:
        data = load_strict(text, source)
    except json.JSONDecodeError as exc:
        data = exc
    from .v1.sessions import detect_v1

    if not isinstance(data, json.JSONDecodeError) and detect_v1(data) is not None:
        return _from_v1(source, data, session_id)
    _refuse_on_1x(source, "an AgentScope 2.x session (an AgentState dump, 2.x Msg objects or a toolscope tap)")
    if session_id is not None and not TAP_START.match(text.lstrip()):
        raise InputError(
            "--session-id",
            "only an AgentScope app storage database, a toolscope tap holding several runs, or a 1.x "
            "JSONSession file (the agent's key) has session ids",
            [Problem(source, "this file is none of those; drop --session-id")],
        )
    if isinstance(data, json.JSONDecodeError):
        if "\n" in text.strip() and text.strip().splitlines()[0].strip().startswith("{"):
            return _from_jsonl(source, text, whole_error=data, run=session_id)
        raise _json_error(source, text, data) from None
    return _from_document(source, data, run=session_id)


def _refuse_on_1x(source: str, what: str) -> None:
    """A 2.x file with AgentScope 1.x installed: exit 2 naming the file, what it needs and what is
    installed (reading it would import 2.x modules 1.x does not have)."""
    from .version import FLOOR_2X, agentscope_major, installed_version

    if agentscope_major() != 1:
        return
    needs = ".".join(map(str, FLOOR_2X))
    raise InputError(
        source,
        f"{what}, but AgentScope {installed_version()} is installed",
        [
            Problem(
                "", f"it needs AgentScope {needs} to 2.0.x: replay it in an environment with agentscope>={needs},<2.1"
            )
        ],
    )


def _require_regular_file(path: Path, source: str) -> None:
    if not path.exists():
        raise InputError(source, "no such file", [Problem("", EXPECTED)])
    if not path.is_file():
        raise InputError(source, "not a regular file", [Problem("", EXPECTED)])


def _session_text(path: Path, source: str) -> str:
    """The file's text, refused unless it could be a JSON document or JSONL.

    The same reader and limits as every other input: a regular file of at most 128 MiB,
    UTF-8 with or without a BOM; then strict JSON (no NaN, no 5,000-digit numbers, no lone
    surrogates, no nesting past MAX_NESTING)."""
    raw = read_bytes(path, "session")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(source, "not a text file (not UTF-8)", [Problem(f"byte {exc.start}", EXPECTED)]) from None
    if not text.strip():
        raise InputError(source, "the file is empty", [Problem("", EXPECTED)])
    if text.lstrip()[0] not in "{[":
        raise InputError(source, "not an AgentScope session", [Problem("1:1", EXPECTED)])
    return text


def _from_v1(source: str, data: Any, agent_key: str | None) -> RecordedSession:
    """A 1.x session: read when 1.x is installed (its toolkit replays it), else refused clearly."""
    from .v1.sessions import detect_v1, read_v1
    from .version import agentscope_major, installed_version

    if agentscope_major() != 1:
        kind = detect_v1(data)
        raise InputError(
            source,
            "an AgentScope 1.x session, but AgentScope " + (installed_version() or "?") + " is installed",
            [
                Problem(
                    "(top level)",
                    f"this is a 1.x {kind.removeprefix('v1_').replace('_', ' ') if kind else 'session'} "
                    "(tool_use blocks, groups on the Toolkit); replay it in an environment with AgentScope 1.x "
                    '(1.0.9 or later, e.g. agentscope==1.0.21 "mcp<2"), against the 1.x toolkit that recorded it',
                )
            ],
        )
    return read_v1(source, data, agent_key)


def _json_error(source: str, text: str, exc: json.JSONDecodeError, line_offset: int = 0) -> InputError:
    """Truncated (the document stops early) or malformed, with line:column."""
    where = f"{exc.lineno + line_offset}:{exc.colno}"
    # Cut short: the parser ran out of text, possibly inside a string ("Unterminated string"
    # reports where the string started, and is only raised when no closing quote follows).
    if exc.pos >= len(text.rstrip()) or exc.msg.startswith("Unterminated string"):
        return InputError(
            source,
            "truncated file: the JSON ends before the document is complete",
            [Problem(where, "the file was cut short (an interrupted copy or a full disk?); " + EXPECTED)],
        )
    return InputError(source, "invalid JSON", [Problem(where, f"{exc.msg}; {EXPECTED}")])


def _from_document(source: str, data: Any, run: str | None = None) -> RecordedSession:
    if isinstance(data, dict):
        return _from_object(source, data, run)
    if isinstance(data, list):
        if not data:
            raise InputError(source, "the session has no messages", [Problem("(top level)", EXPECTED)])
        _refuse_v1_items(source, data, lambda index: f"[{index}]")
        return _from_messages(source, data, "msg_list")
    raise InputError(source, "not an AgentScope session", [Problem("(top level)", EXPECTED)])


def _from_object(source: str, data: dict[str, Any], run: str | None) -> RecordedSession:
    """A one-object document: a tap header, an AgentState, or a single Msg."""
    if "toolscope_tap" in data:  # a tap file with its header only: the agent made no call yet
        from .tap_reader import session_from_tap_records

        return session_from_tap_records(source, [data], run=run)
    _refuse_v1(source, data, "(top level)")
    if "context" in data and "tool_context" in data:
        return _from_agent_state(source, data)
    if "role" in data and "content" in data:
        return _from_messages(source, [data], "msg_jsonl", line_numbers=True)
    keys = ", ".join(list(data)[:6]) or "(none)"
    raise InputError(
        source,
        "not an AgentScope session",
        [Problem("(top level)", f"an object with keys {keys}; {EXPECTED}")],
    )


def _from_jsonl(source: str, text: str, whole_error: json.JSONDecodeError, run: str | None = None) -> RecordedSession:
    items, cut_line = _jsonl_items(source, text, whole_error)
    is_tap = bool(items) and isinstance(items[0], dict) and "toolscope_tap" in items[0]
    if cut_line is not None and not is_tap:
        raise InputError(
            source,
            "truncated file: the last line is incomplete",
            [Problem(f"line {cut_line}", "the file was cut short mid-record; " + EXPECTED)],
        )
    if is_tap:
        from .tap_reader import session_from_tap_records

        # A tap cut mid-record (a full disk, a killed agent): the records before are whole.
        cut = None if cut_line is None else f"line {cut_line} was cut mid-record and is left out"
        return session_from_tap_records(source, items, cut=cut, run=run)
    _refuse_v1_items(source, items, lambda index: f"line {index + 1}")
    return _from_messages(source, items, "msg_jsonl", line_numbers=True)


def _jsonl_items(source: str, text: str, whole_error: json.JSONDecodeError) -> tuple[list[Any], int | None]:
    """The lines' JSON values, up to an unfinished last line (its number is returned too)."""
    lines = text.splitlines()
    items: list[Any] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            items.append(load_strict(line, source, f"line {number}"))
        except json.JSONDecodeError as exc:
            last = all(not rest.strip() for rest in lines[number:])
            if number == 1 and not last:
                # A pretty-printed document, not JSONL: report the whole-document error.
                raise _json_error(source, text, whole_error) from None
            if last and not text.endswith("\n"):
                return items, number
            raise InputError(source, "invalid JSON line", [Problem(f"{number}:{exc.colno}", exc.msg)]) from None
    return items, None


def _refuse_v1_items(source: str, items: list[Any], where: Callable[[int], str]) -> None:
    for index, item in enumerate(items):
        if isinstance(item, dict):
            _refuse_v1(source, item, where(index))


def _refuse_v1(source: str, item: Mapping[str, Any], where: str) -> None:
    """AgentScope 1.x wrote ``tool_use`` blocks and a ``timestamp``; 2.x never does."""
    why = _v1_content_reason(item)
    if why is None and "timestamp" in item and "role" in item and "created_at" not in item:
        why = "its messages carry a 1.x 'timestamp' field"
    if why is not None:
        raise InputError(source, "not an AgentScope 2.x session", [Problem(where, V1_HINT.format(why=why))])


def _v1_content_reason(item: Mapping[str, Any]) -> str | None:
    """Why the item's ``content`` list reads as AgentScope 1.x (None: it does not)."""
    content = item.get("content")
    if not isinstance(content, list):
        return None
    kinds = {b.get("type") for b in content if isinstance(b, Mapping)}
    if "tool_use" in kinds:
        return "its messages hold tool_use blocks"
    if "role" not in item and any(isinstance(b, Mapping) and "role" in b and "timestamp" in b for b in content):
        return "InMemoryMemory.state_dict(): messages under 'content' with a 'timestamp'"
    return None


def _pydantic_problems(exc: Any, prefix: str) -> list[Problem]:
    problems = []
    for error in exc.errors()[:5]:
        loc = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error["loc"])
        problems.append(Problem(f"{prefix}{loc}", error["msg"]))
    return problems


def _from_agent_state(source: str, data: dict[str, Any]) -> RecordedSession:
    from agentscope.state import AgentState
    from pydantic import ValidationError

    context = data.get("context")
    if isinstance(context, list):
        _refuse_v1_items(source, context, lambda index: f"context[{index}]")
    try:
        state = AgentState.model_validate(data)
    except ValidationError as exc:
        raise InputError(
            source, "not a valid AgentState (as the installed AgentScope reads it)", _pydantic_problems(exc, "")
        ) from None
    return session_of_msgs(
        source,
        "agent_state",
        state.context,
        session_id=state.session_id or None,
        final_groups=tuple(state.tool_context.activated_groups),
    )


def _from_messages(source: str, items: list[Any], kind: Any, line_numbers: bool = False) -> RecordedSession:
    from agentscope.message import Msg
    from pydantic import ValidationError

    messages = []
    for index, item in enumerate(items):
        where = f"line {index + 1}" if line_numbers else f"[{index}]"
        if not isinstance(item, dict):
            raise InputError(
                source, "not an AgentScope session", [Problem(where, f"got {type(item).__name__}; {EXPECTED}")]
            )
        try:
            messages.append(Msg.model_validate(item))
        except ValidationError as exc:
            raise InputError(
                source, "not a Msg (as the installed AgentScope reads it)", _pydantic_problems(exc, where)
            ) from None
    return session_of_msgs(source, kind, messages)
