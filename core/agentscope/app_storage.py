"""Read a session kept by AgentScope's app storage (its SQLAlchemy storage over SQLite).

Only through AgentScope's storage API (``agentscope.app.storage.AsyncSQLAlchemyStorage``,
``list_messages``), never by guessing its tables. The database is opened read-only
(SQLite ``mode=ro``) and with ``create_tables=False``: toolscope never writes to it.

That API lives behind AgentScope's optional extras (``service`` for the ``agentscope.app``
package, ``storage-sql`` for SQLAlchemy) plus an async SQLite driver; toolscope's extra
``app`` pulls them in: ``pip install "toolscope[app]"``. Without them, an InputError says so.

The SQL backend's ``list_messages`` is scoped by session id (the user id is enforced by the
app's callers, not by the storage), so ``--session-id`` alone addresses a session.

Public API::

    load_app_session(path, session_id) -> RecordedSession
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import quote

from ..model.errors import InputError, Problem
from .aio import checkpoint, run_sync
from .recorded import RecordedSession, calls_from_messages

EXTRA_HINT = 'reading AgentScope app storage needs toolscope\'s "app" extra: pip install "toolscope[app]"'
PAGE = 200


def _storage_class(source: str) -> Any:
    try:
        import aiosqlite  # noqa: F401  (the async SQLite driver SQLAlchemy needs)
        from agentscope.app.storage import AsyncSQLAlchemyStorage
    except (ImportError, AttributeError) as exc:
        raise InputError(
            source,
            "this is a SQLite database (AgentScope app storage?), but its storage API is not installed",
            [Problem("", f"{EXTRA_HINT} (missing: {getattr(exc, 'name', None) or exc})")],
        ) from None
    return AsyncSQLAlchemyStorage


def read_only_url(path: Path) -> str:
    """A SQLAlchemy aiosqlite URL that opens ``path`` read-only (never creates or writes it)."""
    return f"sqlite+aiosqlite:///file:{quote(str(path.resolve()))}?mode=ro&uri=true"


MAX_MESSAGES = 1_000_000
"""The most messages read from one session (the paging loop's cap)."""


async def _read_messages(storage_class: Any, path: Path, session_id: str) -> list[Any]:
    messages: list[Any] = []
    seen: set[Any] = set()
    async with storage_class(read_only_url(path), create_tables=False) as storage:
        before = None
        while True:
            await checkpoint()  # Ctrl-C lands between pages
            page, has_more = await storage.list_messages("", session_id, limit=PAGE, before=before)
            new = [m for m in page if m.id not in seen]
            if page and not new:
                # The same page again (rows whose created_at has no fractional seconds tie, and the
                # storage pages by it): no progress, so stop instead of reading it forever.
                raise InputError(
                    str(path),
                    "AgentScope's storage returned the same page of messages twice",
                    [Problem(f"session {session_id!r}", f"paging stopped moving before message {before!r}")],
                )
            seen.update(m.id for m in new)
            messages[:0] = new  # pages come newest first, each in chronological order
            if len(messages) > MAX_MESSAGES:
                raise InputError(str(path), f"the session has more than {MAX_MESSAGES:,} messages")
            if not has_more or not page:
                return messages
            before = page[0].id


def load_app_session(path: Path, session_id: str | None) -> RecordedSession:
    """The session's messages, read through AgentScope's storage API."""
    source = str(path)
    storage_class = _storage_class(source)
    if not session_id:
        raise InputError(
            source,
            "an AgentScope app storage database holds many sessions: say which one",
            [Problem("--session-id", "give the session id (the id in the app's session URL / SessionRecord.id)")],
        )
    try:
        messages = run_sync(_read_messages(storage_class, path, session_id))
    except Exception as exc:  # SQLAlchemy wraps sqlite3 errors; any failure here is the database's
        message = str(getattr(exc, "orig", None) or exc).splitlines()[0]
        raise InputError(
            source,
            "not an AgentScope app storage database (AgentScope's storage could not read it)",
            [Problem("", f"{type(exc).__name__}: {message}")],
        ) from None
    if not messages:
        raise InputError(
            source,
            f"no session {session_id!r} in this database (no messages are stored under that id)",
            [Problem("--session-id", "check the id; the app shows it in the session's URL")],
        )
    dumped = [m.model_dump(mode="json") for m in messages]
    calls, turns = calls_from_messages(dumped)
    return RecordedSession(
        source=source, kind="app_storage", calls=tuple(calls), model_turns=turns, session_id=session_id
    )
