"""Sessions kept by AgentScope's own app storage (SQLAlchemy over SQLite), read through its
storage API: a session recorded now by a real Agent and stored the way the app stores it
(``upsert_session`` + ``upsert_message``), replayed; the database is never written; wrong ids,
foreign databases and a missing extra exit 2.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import sys
from pathlib import Path

import pytest
from session_helpers import drop_web_turns, recorder
from typer.testing import CliRunner

from toolscope.cli.app import app

pytestmark = [pytest.mark.agentscope, pytest.mark.app]
runner = CliRunner()


def _needs_extra() -> None:
    pytest.importorskip("aiosqlite", reason='needs toolscope[app] (pip install "toolscope[app]")')
    pytest.importorskip("sqlalchemy", reason='needs toolscope[app] (pip install "toolscope[app]")')


async def _store(agent, db: Path) -> str:
    from agentscope.app.storage import AsyncSQLAlchemyStorage, SessionConfig

    async with AsyncSQLAlchemyStorage(f"sqlite+aiosqlite:///{db}") as storage:
        record = await storage.upsert_session(
            "user-1", "researcher", SessionConfig(workspace_id="w"), state=agent.state
        )
        for msg in agent.state.context:
            await storage.upsert_message("user-1", record.id, msg)
    return record.id


@pytest.fixture
def stored(samples, tmp_path) -> tuple[Path, str]:
    _needs_extra()
    rec = recorder(samples)
    agent = asyncio.run(rec.run_agent(turns=drop_web_turns()))
    db = tmp_path / "app.db"
    return db, asyncio.run(_store(agent, db))


def test_app_storage_session_replays_and_is_never_written(samples, stored) -> None:
    db, session_id = stored
    before = hashlib.sha256(db.read_bytes()).hexdigest()
    result = runner.invoke(
        app, ["step", str(samples / "toolkit.yaml"), "--session", str(db), "--session-id", session_id, "--json"]
    )
    assert result.exit_code == 0, result.output
    session = json.loads(result.output)["session"]
    assert session["source"] == {"path": str(db), "kind": "app_storage", "session_id": session_id}
    [link] = session["lost_tool_links"]
    assert (link["model_turn"], link["removed_groups"], link["tools"]) == (3, ["web_search"], ["page_fetch"])
    assert session["diverged_turns"] == []
    assert hashlib.sha256(db.read_bytes()).hexdigest() == before


def test_app_storage_bad_addresses_exit_2(samples, stored, tmp_path) -> None:
    import sqlite3

    db, _ = stored
    no_id = runner.invoke(app, ["step", str(samples / "toolkit.yaml"), "--session", str(db)])
    assert no_id.exit_code == 2 and "--session-id" in no_id.output
    wrong = runner.invoke(app, ["step", str(samples / "toolkit.yaml"), "--session", str(db), "--session-id", "nope"])
    assert wrong.exit_code == 2 and "no session 'nope'" in wrong.output
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as conn:
        conn.execute("create table notes (x)")
    foreign = runner.invoke(app, ["step", str(samples / "toolkit.yaml"), "--session", str(other), "--session-id", "x"])
    assert foreign.exit_code == 2 and "not an AgentScope app storage database" in foreign.output
    with sqlite3.connect(other) as conn:  # still only the user's table: nothing was created
        assert [r[0] for r in conn.execute("select name from sqlite_master where type='table'")] == ["notes"]


def test_without_the_extra_it_says_which_to_install(samples, tmp_path, monkeypatch) -> None:
    import sqlite3

    db = tmp_path / "app.db"
    with sqlite3.connect(db) as conn:
        conn.execute("create table t (x)")
    monkeypatch.setitem(sys.modules, "aiosqlite", None)  # as if toolscope[app] were not installed
    result = runner.invoke(app, ["step", str(samples / "toolkit.yaml"), "--session", str(db), "--session-id", "x"])
    assert result.exit_code == 2, result.output
    assert 'pip install "toolscope[app]"' in result.output


def test_one_recorded_session_saved_all_three_ways_replays_the_same(samples, tmp_path) -> None:
    """One real conversation, saved as an AgentState dump, as Msg JSON/JSONL and in the app's
    storage: every form gives the same lost-tool link and the same replayed turns."""
    _needs_extra()
    rec = recorder(samples)
    agent = asyncio.run(rec.run_agent(turns=drop_web_turns()))
    sources: dict[str, list[str]] = {}
    for form in ("state", "msgs", "jsonl"):
        path = tmp_path / f"session.{form}"
        rec.write_session(agent, path, form)
        sources[form] = [str(path)]
    db = tmp_path / "app.db"
    sources["app storage"] = [str(db), "--session-id", asyncio.run(_store(agent, db))]
    answers = {}
    for form, args in sources.items():
        result = runner.invoke(app, ["step", str(samples / "toolkit.yaml"), "--json", "--session", *args])
        assert result.exit_code == 0, (form, result.output)
        session = json.loads(result.output)["session"]
        turns = [(t["model_turn"], t["call"], t["recorded"]["state"]) for t in session["turns"]]
        answers[form] = (turns, [link["summary"] for link in session["lost_tool_links"]], session["diverged_turns"])
    import agentscope

    # 2.0.6's Agent filtered tools by active group first (ToolNotFoundError); 2.0.7+ say "inactive".
    got = "'doesn't exist'" if agentscope.__version__ == "2.0.6" else "'is currently inactive'"
    expected = (
        [(1, '{"web_search": true, "scraping": true}', "success"), (3, '{"scraping": true}', "success")],
        [
            'turn 3: reset_tools({"scraping": true}) deactivated web_search; turn 4 then called page_fetch '
            f"and got {got}"
        ],
        [],
    )
    assert all(answer == expected for answer in answers.values()), answers
