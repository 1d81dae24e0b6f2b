"""Hostile corpus: AgentScope app storage databases that are odd but real.

Every database is written by AgentScope's own storage API (``upsert_session`` /
``upsert_message``) with the messages of a real ``Agent`` run (the shipped recording script's
scripted offline model), then altered the way a foreign writer, another release or a live
app leaves it: a message whose id differs from its row at a page boundary, timestamps
without fractional seconds, a lock held by another process (a real one), WAL mode with and
without writes pending. toolscope must read every message or say why, in bounded time, and
never leave a file beside the database.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from toolscope.cli.app import app

pytestmark = [pytest.mark.agentscope, pytest.mark.app]

REPO = Path(__file__).resolve().parents[2]
AGENTSCOPE = REPO / "sample_configs" / "agentscope"
TOOLKIT = AGENTSCOPE / "toolkit.yaml"
REPLIES = 110
"""Copies of the real conversation stored: 220 messages, more than one page (200) of list_messages."""
runner = CliRunner()


def _needs_extra() -> None:
    pytest.importorskip("aiosqlite", reason='needs toolscope[app] (pip install "toolscope[app]")')
    pytest.importorskip("sqlalchemy", reason='needs toolscope[app] (pip install "toolscope[app]")')


def _agent():
    sys.path.insert(0, str(REPO / "tests" / "agentscope"))
    from session_helpers import drop_web_turns, recorder

    rec = recorder(AGENTSCOPE)
    return asyncio.run(rec.run_agent(turns=drop_web_turns()))


async def _store(agent, db: Path, copies: int, session_id: str | None = None, first: int = 0) -> str:
    """The agent's conversation stored ``copies`` times in one session (fresh message ids)."""
    from agentscope.app.storage import AsyncSQLAlchemyStorage, SessionConfig

    async with AsyncSQLAlchemyStorage(f"sqlite+aiosqlite:///{db}") as storage:
        if session_id is None:
            record = await storage.upsert_session(
                "user-1", "researcher", SessionConfig(workspace_id="w"), state=agent.state
            )
            session_id = record.id
        for copy in range(first, first + copies):
            for msg in agent.state.context:
                await storage.upsert_message("user-1", session_id, msg.model_copy(update={"id": f"{msg.id}-{copy}"}))
    return session_id


@pytest.fixture(scope="module")
def recorded_agent():
    _needs_extra()
    return _agent()


@pytest.fixture
def stored(recorded_agent, tmp_path: Path) -> tuple[Path, str]:
    db = tmp_path / "app.db"
    return db, asyncio.run(_store(recorded_agent, db, REPLIES))


def step_json(db: Path, session_id: str):
    started = time.monotonic()
    result = runner.invoke(app, ["step", str(TOOLKIT), "--session", str(db), "--session-id", session_id, "--json"])
    elapsed = time.monotonic() - started
    assert elapsed < 60, "a paging loop that does not end"
    return result


def reset_calls(result) -> int:
    assert result.exit_code == 0, result.output
    return len(json.loads(result.output)["session"]["turns"])


def test_every_message_is_read_across_pages(stored) -> None:
    db, session_id = stored
    assert reset_calls(step_json(db, session_id)) == 2 * REPLIES


def test_a_message_whose_id_differs_from_its_row_at_a_page_boundary_is_read_again_wider(stored) -> None:
    # Before: the cursor (the message's id) named no row, the storage answered "no older
    # messages", and every message before the boundary was dropped without a word.
    db, session_id = stored
    with sqlite3.connect(db) as conn:
        [(boundary,)] = conn.execute(
            "select msg_id from messages where session_id = ? order by created_at desc, msg_id desc limit 1 offset 199",
            (session_id,),
        ).fetchall()
        conn.execute("update messages set msg_id = msg_id || '-row' where msg_id = ?", (boundary,))
    result = step_json(db, session_id)
    assert reset_calls(result) == 2 * REPLIES
    [note] = json.loads(result.output)["session"]["notes"]
    assert "paging cursor" in note and boundary in note


def test_timestamps_without_fractional_seconds_end_and_read_everything(stored) -> None:
    # Before: the paging loop returned the same page forever (16 GB after 5 minutes).
    db, session_id = stored
    with sqlite3.connect(db) as conn:
        conn.execute("update messages set created_at = substr(created_at, 1, 19)")
    assert reset_calls(step_json(db, session_id)) == 2 * REPLIES


LOCKER = """
import sqlite3, sys, time
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("BEGIN EXCLUSIVE")
print("locked", flush=True)
time.sleep(60)
"""


def test_a_locked_database_names_the_process_holding_it(stored, monkeypatch: pytest.MonkeyPatch) -> None:
    db, session_id = stored
    # The production wait is 2 s; what is tested is that the wait ends and names the holder,
    # so a shorter one proves the same without a worker sitting idle for it.
    from toolscope.core.systems.agentscope import app_storage

    monkeypatch.setattr(app_storage, "LOCK_WAIT_SECONDS", 0.3)
    locker = subprocess.Popen([sys.executable, "-c", LOCKER, str(db)], stdout=subprocess.PIPE, text=True)
    try:
        assert locker.stdout is not None and locker.stdout.readline().strip() == "locked"
        started = time.monotonic()
        result = runner.invoke(app, ["step", str(TOOLKIT), "--session", str(db), "--session-id", session_id])
        elapsed = time.monotonic() - started
    finally:
        locker.kill()
        locker.wait()
    assert result.exit_code == 2, result.output
    assert "locked by another process" in result.output and f"pid {locker.pid} (python" in result.output
    assert "not an AgentScope app storage database" not in result.output
    assert "waited 0.3 s" in result.output
    assert elapsed < 15  # the busy wait and the process scan, never an unbounded wait


def _files(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir())}


def test_a_wal_database_is_read_without_creating_files_beside_it(stored) -> None:
    db, session_id = stored
    with sqlite3.connect(db) as conn:
        assert conn.execute("pragma journal_mode=wal").fetchone() == ("wal",)
    conn.close()  # the last connection checkpoints and removes the -wal
    before = _files(db.parent)
    assert sorted(before) == ["app.db"]
    assert reset_calls(step_json(db, session_id)) == 2 * REPLIES
    assert _files(db.parent) == before  # no -shm, no -wal, the database unchanged


def test_a_wal_database_with_writes_pending_is_read_from_a_private_copy(recorded_agent, stored) -> None:
    db, session_id = stored
    with sqlite3.connect(db) as conn:
        conn.execute("pragma journal_mode=wal")
    conn.close()
    holder = sqlite3.connect(db)  # a live app's connection: the -wal stays while it is open
    try:
        holder.execute("pragma wal_autocheckpoint=0")
        holder.execute("select count(*) from messages").fetchall()  # opens the -wal and -shm
        asyncio.run(_store(recorded_agent, db, 5, session_id, first=REPLIES))  # written into the -wal only
        assert (db.parent / "app.db-wal").stat().st_size > 0
        before = _files(db.parent)
        assert reset_calls(step_json(db, session_id)) == 2 * (REPLIES + 5)  # the pending writes are read
        assert _files(db.parent) == before
    finally:
        holder.close()
