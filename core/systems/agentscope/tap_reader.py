"""Read what the toolscope tap (``tap.py``) writes: whole, or as it grows.

The format (JSONL, one object per line, appended by the running agent):

- a header when the tap first sees an agent:
  ``{"toolscope_tap": 1, "run": "3f2a…", "agentscope": "2.0.11", "session_id": "...", "agent": "name",
  "groups": [...], "pid": 123}`` (``groups``: the agent's active groups when the tap first saw it;
  ``run``: this agent's run id, also in each of its records; taps written before run ids lack it);
- one record per finished tool call:
  ``{"run": "3f2a…", "call": 3, "turn": 2, "tool": "reset_tools", "state": "success", "args": {...}, "groups": [...]}``
  where ``groups`` are the agent's real active groups after the call. ``reset_tools``
  records carry ``args`` (group flags: booleans kept, any other value recorded as null and
  its name listed in ``redacted``; ``unparseable: true`` when the text was no JSON object);
  other tools carry only ``failure`` (``not_found`` / ``inactive_group`` / null).

Pure (no AgentScope import): the TUI polls it while the agent runs.

Public API::

    session_from_tap_records(source, items, cut=None, run=None) -> RecordedSession
    split_runs(source, items) -> (list[TapRun], notes)
    TapFollower(path).poll() -> list[RecordedCall]   (new complete records since the last poll)
    TapFollower.header -> dict | None
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...inputs.input_files import MAX_INPUT_BYTES
from ...model.errors import InputError, Problem
from ...text.clip import clip
from ...text.counts import counted
from .recorded import META_TOOL, RecordedCall, RecordedSession

TAP_VERSION = 1
MAX_RECORD_BYTES = MAX_INPUT_BYTES
"""A tap record is a few hundred bytes, but one may carry a huge argument (a 50 MB group name): a line
is gathered whole up to the size of a whole tap the reader opens, read, and shown clipped. Only a
line longer than that is dropped (counted in ``skipped``)."""
UNPARSEABLE_REPLAY = "[]"
"""Sent in place of unparseable argument text the tap did not keep: AgentScope refuses a
list on every version (``ToolJSONDecodeError``), as it refused the original."""


def call_from_record(record: Mapping[str, Any], where: str, source: str) -> RecordedCall:
    """One tap record as a RecordedCall; InputError names the line when it is not one."""
    tool = record.get("tool")
    position = record.get("call")
    if not isinstance(tool, str) or not isinstance(position, int):
        raise InputError(source, "not a toolscope tap record", [Problem(where, "expected 'call' (int) and 'tool'")])
    groups = record.get("groups")
    raw_turn = record.get("turn")
    common: dict[str, Any] = {
        "position": position,
        "model_turn": raw_turn if isinstance(raw_turn, int) else 0,
        "result_state": record.get("state") if isinstance(record.get("state"), str) else None,
        "groups_after": tuple(str(g) for g in groups) if isinstance(groups, list) else None,
    }
    if tool != META_TOOL:
        failure = record.get("failure")
        return RecordedCall(
            name=tool, raw_input=None, failure=failure if failure in ("not_found", "inactive_group") else None, **common
        )
    raw, note = _replayed_input(record)
    return RecordedCall(name=META_TOOL, raw_input=raw, note=note, **common)


def _replayed_input(record: Mapping[str, Any]) -> tuple[str, str | None]:
    """The meta tool's argument text to replay, and a note when the tap did not keep all of it."""
    if record.get("unparseable"):
        return UNPARSEABLE_REPLAY, "the argument text was not a JSON object (the tap keeps no text); replayed as []"
    args = record.get("args") if isinstance(record.get("args"), dict) else {}
    redacted = record.get("redacted") or []
    note = "non-boolean value(s) not recorded, replayed as null: " + ", ".join(map(str, redacted)) if redacted else None
    return json.dumps(args, ensure_ascii=False), note


@dataclass
class TapRun:
    """One agent's run in a tap file: its header (None when it was lost) and its calls."""

    run_id: str | None
    header: dict[str, Any] | None
    calls: list[RecordedCall] = field(default_factory=list)

    def describe(self) -> str:
        """``pid 12, agent researcher, 7 calls; refused: turn 4 page_fetch (inactive), …`` (bounded)."""
        who = ", ".join(_who(self.header or {}, len(self.calls)))
        refused = [c for c in self.calls if c.failure or c.result_state not in ("success", None)]
        if not refused:
            return who + "; nothing refused"
        shown = ", ".join(
            f"turn {c.model_turn} {clip(c.name, 60)} ({FAILURE_WORDS.get(c.failure or '', c.result_state)})"
            for c in refused[:SHOWN_REFUSED]
        )
        more = f" and {len(refused) - SHOWN_REFUSED:,} more" if len(refused) > SHOWN_REFUSED else ""
        return who + f"; refused: {shown}{more}"


def _who(header: Mapping[str, Any], calls: int) -> list[str]:
    """``pid 12``, ``agent researcher`` (when the header says), ``7 calls``."""
    who = [f"pid {header['pid']}"] if isinstance(header.get("pid"), int) else []
    if header.get("agent"):
        who.append(f"agent {clip(str(header['agent']), 60)}")
    who.append(counted(calls, "call"))
    return who


FAILURE_WORDS = {"not_found": "doesn't exist", "inactive_group": "inactive"}
SHOWN_REFUSED = 5
MAX_OTHER_RUNS = 10_000
"""Other runs' ids a follower remembers (to count them); past this the count stops growing."""
SHOWN_RUNS = 20


def split_runs(source: str, items: list[Any]) -> tuple[list[TapRun], list[str]]:
    """The runs of a whole tap file, in the order they started, and the reader's notes.

    Records name their run (``run``); a tap written before run ids existed has none, and its
    records belong to the header before them (a header without a run id, after the first,
    only adds a note, as it always did)."""
    runs: dict[str | None, TapRun] = {}
    notes: list[str] = []
    current: str | None = None
    for index, item in enumerate(items, start=1):
        if not isinstance(item, dict):
            raise InputError(source, "not a toolscope tap record", [Problem(f"line {index}", "expected an object")])
        raw_run = item.get("run")
        run_id = raw_run if isinstance(raw_run, str) else None
        if "toolscope_tap" in item:
            if run_id is None and None in runs:
                notes.append(f"line {index}: the tap was reopened (the agent restarted?)")
                continue
            current = run_id
            runs.setdefault(run_id, TapRun(run_id, item)).header = item
            continue
        key = run_id if run_id is not None else current
        runs.setdefault(key, TapRun(key, None)).calls.append(call_from_record(item, f"line {index}", source))
    return list(runs.values()), notes


def session_from_tap_records(
    source: str, items: list[Any], cut: str | None = None, run: str | None = None
) -> RecordedSession:
    """A whole tap file (already split into JSON objects) as a RecordedSession.

    ``cut``: the note for a file whose last record was cut short (read up to the one before).
    ``run``: which run, when the tap holds several (its run id, or the agent's session id);
    with several runs and none chosen, an InputError lists them with their refused calls."""
    runs, notes = split_runs(source, items)
    if cut:
        notes.insert(0, cut)
    chosen = _choose_run(source, runs, run)
    header = chosen.header or {}
    calls = chosen.calls
    if len(runs) > 1:
        notes.append(f"run {chosen.run_id} of the {len(runs)} runs in this tap")
    groups = header.get("groups")
    initial = tuple(groups) if isinstance(groups, list) else None
    final = next((c.groups_after for c in reversed(calls) if c.groups_after is not None), initial)
    return RecordedSession(
        source=source,
        kind="tap",
        calls=tuple(calls),
        model_turns=max((c.model_turn for c in calls), default=0),
        session_id=header.get("session_id") if isinstance(header.get("session_id"), str) else None,
        agentscope_version=header.get("agentscope") if isinstance(header.get("agentscope"), str) else None,
        initial_groups=initial,
        final_groups=final,
        notes=tuple(notes),
    )


def _choose_run(source: str, runs: list[TapRun], wanted: str | None) -> TapRun:
    if not runs:
        return TapRun(None, None)
    if wanted is not None:
        return _run_named(source, runs, wanted)
    if len(runs) == 1:
        return runs[0]
    listed = [Problem(f"run {r.run_id or '(no id)'}", r.describe()) for r in runs[:SHOWN_RUNS]]
    if len(runs) > SHOWN_RUNS:
        listed.append(Problem("", f"and {len(runs) - SHOWN_RUNS:,} more runs"))
    raise InputError(
        source,
        f"this tap holds {len(runs)} runs (two agents wrote to it, or an agent restarted onto it): "
        "each is its own timeline; pick one with --session-id RUN",
        listed,
    )


def _run_named(source: str, runs: list[TapRun], wanted: str) -> TapRun:
    """The run with this run id, else the one run whose agent has this session id."""
    matches = [r for r in runs if r.run_id == wanted] or [
        r for r in runs if (r.header or {}).get("session_id") == wanted
    ]
    if len(matches) == 1:
        return matches[0]
    ids = ", ".join(str(r.run_id) for r in runs[:SHOWN_RUNS])
    why = "several runs have that session id" if matches else "no run has that id"
    raise InputError("--session-id", f"{why} in {source}", [Problem("", f"the runs are: {ids}")])


class TapFollower:
    """Reads the complete lines a running agent's tap appended since the last poll.

    Read-only; a missing file is simply "nothing yet" (the agent may not have started).
    A partial last line is left for the next poll. Lines that are not tap records (nested
    too deeply to read included) are skipped (counted in ``skipped``): the follower must
    keep following. The file is opened without waiting (``O_NONBLOCK``): a named pipe or a
    device in its place is never read (``not_regular``), so no poll can block.

    Only the first run is followed: a tap two agents write to holds several (``run`` ids);
    the others are counted in ``other_runs`` (their ids), to be replayed one at a time with
    ``--session --session-id RUN``.

    A new agent run is detected three ways, and reading starts over: the file shrank, it is
    another file now (rotated, or swapped through a symbolic link: a new inode), or its first
    line is no longer the header read before (truncated and regrown past the old size).
    """

    HEAD_BYTES = 4096
    """How much of the file's start is kept to notice a file rewritten behind our back."""

    def __init__(self, path: Path | str) -> None:
        """Follow ``path`` from its beginning."""
        self.path = Path(path)
        self.header: dict[str, Any] | None = None
        self.skipped = 0
        self.restarts = 0
        """How often the file was truncated or replaced (a new agent run): reading started over."""
        self.not_regular = False
        """The path is a named pipe, a device or a folder: never read."""
        self._offset = 0
        self._pending: list[bytes] = []
        """The unfinished last line, in the pieces read so far."""
        self._pending_bytes = 0
        self._discarding = False
        """Inside a line over ``MAX_RECORD_BYTES``: dropped up to its end."""
        self._identity: tuple[int, int] | None = None
        self._head = b""
        self.run_id: str | None = None
        """The run followed (the first header's, or the first record's); None for a tap without run ids."""
        self.other_runs: dict[str, None] = {}
        """The other runs seen in the file (ordered set of ids): not followed."""

    def _restart(self) -> None:
        self._offset, self.header, self._head = 0, None, b""
        self._pending, self._pending_bytes, self._discarding = [], 0, False
        self.run_id, self.other_runs = None, {}
        self.restarts += 1

    def _followed(self, record: Mapping[str, Any]) -> bool:
        """Whether ``record`` belongs to the followed run (the first run seen claims it)."""
        run = record.get("run")
        if not isinstance(run, str):
            return True  # a tap written before run ids: one timeline, as before
        if self.run_id is None and self.header is None:
            self.run_id = run
        if run == self.run_id:
            return True
        if len(self.other_runs) < MAX_OTHER_RUNS:
            self.other_runs[run] = None
        return False

    def poll(self) -> list[RecordedCall]:
        """New calls since the last poll (possibly none)."""
        chunk = self._read_new()
        if chunk is None:
            return []
        self._keep_head(chunk)
        self._offset += len(chunk)
        calls = []
        for line in self._complete_lines(chunk):
            if line.strip():
                call = self._call_of_line(line)
                if call is not None:
                    calls.append(call)
        return calls

    def _read_new(self) -> bytes | None:
        """What was appended since the last read (starting over on a new run); None when the
        path cannot be read or is not a regular file."""
        try:
            fd = os.open(self.path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
        except OSError:
            return None
        with os.fdopen(fd, "rb") as handle:
            try:
                info = os.fstat(fd)
                self.not_regular = not stat.S_ISREG(info.st_mode)
                if self.not_regular:
                    return None
                if self._is_new_run(fd, info):
                    self._restart()
                self._identity = (info.st_dev, info.st_ino)
                handle.seek(self._offset)
                return handle.read(4 * 1024 * 1024)
            except OSError:
                return None

    def _is_new_run(self, fd: int, info: os.stat_result) -> bool:
        """Another file, a shorter one, or one whose start changed (rewritten past the old size)."""
        identity = (info.st_dev, info.st_ino)
        if self._identity is not None and (identity != self._identity or info.st_size < self._offset):
            return True
        return bool(self._head) and os.pread(fd, len(self._head), 0) != self._head

    def _keep_head(self, chunk: bytes) -> None:
        """Remember the file's first HEAD_BYTES, a read at a time."""
        if self._offset == 0:
            self._head = chunk[: self.HEAD_BYTES]
        elif len(self._head) < self.HEAD_BYTES and self._offset == len(self._head):
            self._head += chunk[: self.HEAD_BYTES - len(self._head)]

    def _call_of_line(self, line: bytes) -> RecordedCall | None:
        """A complete line's call; None for a header, another run's record or a line that is not
        a record (counted in ``skipped``)."""
        try:
            record = json.loads(line)
            if not isinstance(record, dict):
                raise ValueError
            if not self._followed(record):
                return None
            if "toolscope_tap" in record:
                self.header = self.header or record
                return None
            return call_from_record(record, "", str(self.path))
        except (ValueError, InputError, RecursionError):
            self.skipped += 1
            return None

    def _complete_lines(self, chunk: bytes) -> list[bytes]:
        """The lines ``chunk`` completes (with the pieces pending before it); its unfinished end is kept."""
        end = chunk.rfind(b"\n")
        if end < 0:
            self._keep(chunk)
            return []
        lines = b"".join([*self._pending, chunk[:end]]).split(b"\n")
        if self._discarding:
            lines = lines[1:]  # the end of a line too long to keep
        self._pending, self._pending_bytes, self._discarding = [], 0, False
        self._keep(chunk[end + 1 :])
        return lines

    def _keep(self, piece: bytes) -> None:
        if self._discarding or not piece:
            return
        self._pending.append(piece)
        self._pending_bytes += len(piece)
        if self._pending_bytes > MAX_RECORD_BYTES:  # no record is this long: drop it, keep following
            self._pending, self._pending_bytes, self._discarding = [], 0, True
            self.skipped += 1
