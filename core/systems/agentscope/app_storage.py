"""Read a session kept by AgentScope's app storage (its SQLAlchemy storage over SQLite).

Only through AgentScope's storage API (``agentscope.app.storage.AsyncSQLAlchemyStorage``,
``list_messages``), never by guessing its tables. The database is opened read-only
(SQLite ``mode=ro``, or ``immutable=1``, or a private copy for a WAL database:
``sqlite_files.py``) and with ``create_tables=False``: toolscope never writes to it nor
beside it. A lock held by another process is waited for ``LOCK_WAIT_SECONDS``, then named.

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

from ...model.errors import InputError, Problem
from .aio import checkpoint, run_sync
from .recorded import RecordedSession, session_of_msgs
from .sqlite_files import lock_holders, readable_copy

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


LOCK_WAIT_SECONDS = 2
"""How long a read waits for another process's write lock before giving up (SQLite's busy timeout)."""


def read_only_url(path: Path, immutable: bool = False) -> str:
    """A SQLAlchemy aiosqlite URL that opens ``path`` read-only (never creates or writes it).

    ``immutable``: SQLite reads the file without locking and without the ``-shm`` index a
    WAL database otherwise needs (and would create beside it); only for a file nobody is
    writing (no ``-wal`` pending)."""
    extra = "&immutable=1" if immutable else ""
    return f"sqlite+aiosqlite:///file:{quote(str(path.resolve()))}?mode=ro&uri=true&timeout={LOCK_WAIT_SECONDS}{extra}"


MAX_MESSAGES = 1_000_000
"""The most messages read from one session (the paging loop's cap)."""


async def _read_messages(storage_class: Any, url: str, session_id: str) -> tuple[list[Any], str | None]:
    """The session's messages, oldest first, and a note when the storage's paging was broken.

    AgentScope's ``list_messages`` pages newest first, with the id of the oldest message of
    the previous page as the cursor (looked up by its row's ``msg_id``). A row whose stored
    message has another id than its row, or rows that tie in ``created_at`` (a database
    written without fractional seconds, on a release that orders by it alone) break that
    cursor: the next page is empty ("unknown cursor") or repeats what was read. Either is
    detected and the whole session is read again newest-first in one wider page, widened
    until it holds everything (bounded by ``MAX_MESSAGES``), instead of silently stopping.
    """
    messages: list[Any] = []
    seen: set[Any] = set()
    async with storage_class(url, create_tables=False) as storage:
        before = None
        while True:
            await checkpoint()  # Ctrl-C lands between pages
            page, has_more = await storage.list_messages("", session_id, limit=PAGE, before=before)
            new = [m for m in page if m.id not in seen]
            if before is not None and len(new) < max(len(page), 1):
                return await _read_wide(storage, session_id, len(messages) + PAGE), (
                    f"AgentScope's storage lost its paging cursor at message {before!r} (a message whose id "
                    "differs from its row, or timestamps that tie): the session was read again in one page"
                )
            seen.update(m.id for m in new)
            messages[:0] = new  # pages come newest first, each in chronological order
            if len(messages) > MAX_MESSAGES:
                raise InputError("", f"the session has more than {MAX_MESSAGES:,} messages")
            if not has_more or not page:
                return messages, None
            before = page[0].id


async def _read_wide(storage: Any, session_id: str, at_least: int) -> list[Any]:
    """The newest ``limit`` messages with no cursor, ``limit`` growing until none are left out."""
    limit = max(at_least * 2, PAGE * 2)
    while True:
        await checkpoint()
        page, has_more = await storage.list_messages("", session_id, limit=limit, before=None)
        if not has_more:
            return list(page)
        if limit >= MAX_MESSAGES:
            raise InputError("", f"the session has more than {MAX_MESSAGES:,} messages")
        limit = min(limit * 4, MAX_MESSAGES)


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
        with readable_copy(path) as (to_open, immutable):
            messages, note = run_sync(_read_messages(storage_class, read_only_url(to_open, immutable), session_id))
    except InputError as exc:
        raise InputError(source, exc.summary, exc.problems) from None
    except Exception as exc:  # SQLAlchemy wraps sqlite3 errors; any failure here is the database's
        message = str(getattr(exc, "orig", None) or exc).splitlines()[0]
        if "database is locked" in message:
            holders = lock_holders(path)
            raise InputError(
                source,
                f"the database is locked by another process (waited {LOCK_WAIT_SECONDS} s)",
                [Problem("", f"held by {', '.join(holders)}" if holders else "no process holding it was found")]
                + [Problem("", "try again when it is done writing, or read a copy of the file")],
            ) from None
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
    return session_of_msgs(source, "app_storage", messages, session_id=session_id, notes=(note,) if note else ())
