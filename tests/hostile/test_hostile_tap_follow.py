"""Hostile corpus: following a tap that is rotated, swapped, regrown, a named pipe, or garbage.

``TapFollower`` reads the file a real ``SessionTap`` appends to; these change that file the
ways log rotation, a symlink swap, ``: > tap`` and a hostile writer do. No poll may block
(a FIFO with no writer), and a new run must start over with its own header.
"""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

from toolscope.core.systems.agentscope.tap_reader import TapFollower


def header(session: str, groups: list[str]) -> str:
    return json.dumps({"toolscope_tap": 1, "agentscope": "2.0.11", "session_id": session, "groups": groups, "pid": 1})


def call(n: int, tool: str = "web_search") -> str:
    return json.dumps({"call": n, "turn": n, "tool": tool, "state": "success", "failure": None})


def write(path: Path, *lines: str) -> None:
    path.write_text("".join(line + "\n" for line in lines))


def test_truncated_and_regrown_past_the_old_size_is_a_new_run(tmp_path: Path) -> None:
    tap = tmp_path / "a.tap.jsonl"
    write(tap, header("old", []), call(1))
    follower = TapFollower(tap)
    assert [c.position for c in follower.poll()] == [1]
    write(tap, header("new", ["web"]), call(1, "page_fetch"), call(2), call(3))  # bigger than before
    calls = follower.poll()
    assert follower.restarts == 1
    assert follower.header is not None and follower.header["session_id"] == "new"
    assert [c.position for c in calls] == [1, 2, 3]


def test_rotated_or_swapped_through_a_symlink_is_a_new_run(tmp_path: Path) -> None:
    first, second, link = tmp_path / "run1", tmp_path / "run2", tmp_path / "tap.jsonl"
    write(first, header("one", []), call(1), call(2))
    write(second, header("two", []), call(1), call(2), call(3))
    link.symlink_to(first)
    follower = TapFollower(link)
    assert len(follower.poll()) == 2
    link.unlink()
    link.symlink_to(second)  # same size or larger: only the inode tells
    calls = follower.poll()
    assert follower.restarts == 1 and follower.header is not None and follower.header["session_id"] == "two"
    assert [c.position for c in calls] == [1, 2, 3]


def test_a_named_pipe_with_no_writer_never_blocks_a_poll(tmp_path: Path) -> None:
    fifo = tmp_path / "tap.fifo"
    os.mkfifo(fifo)
    follower = TapFollower(fifo)
    done = threading.Event()
    worker = threading.Thread(target=lambda: (follower.poll(), done.set()), daemon=True)
    worker.start()
    assert done.wait(2), "poll blocked on a FIFO"
    assert follower.not_regular


def test_garbage_lines_are_skipped_and_following_goes_on(tmp_path: Path) -> None:
    tap = tmp_path / "g.tap.jsonl"
    deep = "[" * 100_000 + "]" * 100_000  # a RecursionError crashed the terminal app (which then exited 0)
    write(tap, header("s", []), deep, "not json", call(1))
    follower = TapFollower(tap)
    assert [c.position for c in follower.poll()] == [1]
    assert follower.skipped == 2
    with tap.open("a") as handle:
        handle.write("x" * (2 * 1024 * 1024))  # an unfinished line is kept for its end
    assert follower.poll() == [] and follower.skipped == 2
    with tap.open("a") as handle:
        handle.write("\n" + call(2) + "\n")
    assert [c.position for c in follower.poll()] == [2]
    assert follower.skipped == 3  # the finished line is no JSON


def test_a_50_mb_tap_line_is_read_whole_and_shown_clipped(tmp_path: Path, monkeypatch) -> None:  # noqa: ANN001
    from toolscope.core.systems.agentscope import tap_reader

    tap = tmp_path / "big.tap.jsonl"
    group = "g" * (50 * 1024 * 1024)
    reset = json.dumps({"call": 2, "turn": 2, "tool": "reset_tools", "state": "success", "args": {group: True}})
    write(tap, header("s", []), call(1), reset, call(3))
    follower = TapFollower(tap)
    calls: list = []
    for _ in range(30):  # 4 MiB a poll
        calls += follower.poll()
    assert [c.position for c in calls] == [1, 2, 3] and follower.skipped == 0
    assert len(calls[1].raw_input or "") > 50 * 1024 * 1024  # replayed whole
    assert "characters not shown" in calls[1].shown_input and len(calls[1].shown_input) < 3000
    # Past the cap, the line is dropped once and following goes on after its end.
    monkeypatch.setattr(tap_reader, "MAX_RECORD_BYTES", 1024 * 1024)
    with tap.open("a") as handle:
        handle.write("y" * (3 * 1024 * 1024) + "\n" + call(4) + "\n")
    later: list = []
    for _ in range(3):
        later += follower.poll()
    assert [c.position for c in later] == [4] and follower.skipped == 1
