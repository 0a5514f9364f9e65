"""What SQLite and PostgreSQL do differently, beyond the schema: the one module that knows [C5].

- Opening: SQLite gets WAL mode, ``synchronous``, a busy time-out, a large autocheckpoint and
  foreign keys on each connection; PostgreSQL's pooled connections are checked when they sat
  idle (``engine_for``).
- Writing: SQLite writes one transaction at a time, handed over through ``WriterLock`` (a
  ``flock`` beside the file; the frontier's ``group_commit`` shares its transactions);
  PostgreSQL runs them side by side and may abort one as a deadlock victim or a serialization
  failure, which ``is_retryable`` recognises (so does SQLite still locked after its time-out).
- Migrating: workers starting together on an empty PostgreSQL database take an advisory lock
  (``lock_for_migration``).
- Indexes built while others write: ``CONCURRENTLY`` on PostgreSQL (``change_index``), and
  only a valid one counts (``index_is_ready``).
- Statements: ``insert_for`` gives the dialect's INSERT with ON CONFLICT; SQLite's driver stores
  booleans as integers in bulk inserts (``flags_as_int``).
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, Engine, Table, create_engine, event, inspect, text
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import URL
from sqlalchemy.exc import DBAPIError, DisconnectionError, NoSuchModuleError, OperationalError

from politecrawl.errors import StoreError

if TYPE_CHECKING:
    from politecrawl.store.database import Database

try:
    import fcntl
except ImportError:  # Windows: SQLite's own lock alone
    fcntl = None  # type: ignore[assignment, unused-ignore]

BUSY_TIMEOUT_MS = 30_000
# SQLite copies its log back into the database inside the commit that takes the log past this
# many pages (1,000 by default), syncing both files while the crawl's writer lock is held. A
# page with 40 links writes about 30 pages of log, so by default every 33rd page stalled every
# writer; fewer, larger checkpoints copy a hot page (a host's row, an index's upper levels) once
# for many commits. The log grows to 40 MB (4 KB pages) before it is reused, and with
# synchronous=NORMAL a power cut may lose the commits since the last checkpoint (README).
_WAL_AUTOCHECKPOINT_PAGES = 10_000
_MIGRATION_LOCK_ID = 7_061_223_009  # any constant: politecrawl's PostgreSQL advisory lock
# SQLSTATEs after which PostgreSQL expects the whole transaction to be tried again.
_RETRYABLE_SQLSTATES = frozenset(("40P01", "40001"))  # deadlock_detected, serialization_failure
PING_AFTER_IDLE_SECONDS = 1.0
"""A PostgreSQL connection idle in the pool this long is checked before it is used again."""

_INSERTS: dict[str, Callable[[Table], Any]] = {
    "sqlite": sqlite.insert,
    "postgresql": postgresql.insert,
}


def insert_for(dialect: str) -> Callable[[Table], Any]:
    """The dialect's INSERT construct (``sqlite`` or ``postgresql``): both take ON CONFLICT."""
    return _INSERTS[dialect]


def flags_as_int(dialect: str) -> bool:
    """Booleans written as 0/1 in bulk inserts (SQLite's driver takes ints faster)."""
    return dialect == "sqlite"


def lock_for_migration(connection: Connection) -> None:
    """PostgreSQL: workers starting together on an empty database must not all create the
    schema: the first migrates, the others wait here (to the transaction's end) and then find
    it done. SQLite's write transaction already excludes the others."""
    if connection.dialect.name == "postgresql":
        connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({_MIGRATION_LOCK_ID})")


def is_retryable(error: BaseException) -> bool:
    """True for an error after which the same transaction, tried again, may well succeed:
    a PostgreSQL deadlock victim or serialization failure, or SQLite still locked after its
    busy time-out. ``error`` may come from SQLAlchemy or straight from the driver."""
    original = error.orig if isinstance(error, DBAPIError) else error
    code = getattr(original, "sqlstate", None) or getattr(original, "pgcode", None)  # psycopg2
    if code in _RETRYABLE_SQLSTATES:
        return True
    is_sqlite_lock = isinstance(original, sqlite3.OperationalError) or isinstance(
        error, OperationalError
    )
    return is_sqlite_lock and "database is locked" in str(original)


class WriterLock:
    """SQLite: one write transaction at a time, across the threads and processes of a crawl,
    handed over at once. Without it writers meet at SQLite's own lock, whose busy handler
    sleeps (1, 2, 5, 10 ... 100 ms) while the lock is free again: two processes on one file
    then spent more time asleep than crawling. A process's threads take a ``threading.Lock``;
    processes take ``flock`` on a file beside the database (``<database>-lock``), which the
    kernel hands to the next waiter when it is released, or when its holder dies. Where that
    file cannot be made (a read-only directory), SQLite's own lock alone decides."""

    def __init__(self, path: Path | None) -> None:
        self._path = path
        self._threads = threading.Lock()
        self._file: int | None = None
        self._opened = False

    @contextmanager
    def held(self) -> Iterator[None]:
        with self._threads:
            descriptor = self._descriptor()
            if descriptor is None:
                yield
                return
            fcntl.flock(descriptor, fcntl.LOCK_EX)  # type: ignore[attr-defined, unused-ignore]
            try:
                yield
            finally:
                fcntl.flock(descriptor, fcntl.LOCK_UN)  # type: ignore[attr-defined, unused-ignore]

    def _descriptor(self) -> int | None:
        if not self._opened:
            self._opened = True
            if self._path is not None and fcntl is not None:
                with suppress(OSError):
                    self._file = os.open(self._path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        return self._file

    def close(self) -> None:
        with self._threads:
            if self._file is not None:
                os.close(self._file)
            self._file = None


def writer_lock(url: URL) -> WriterLock | None:
    """The writer lock of a SQLite database (None for PostgreSQL)."""
    if url.get_backend_name() != "sqlite":
        return None
    if url.database in (None, "", ":memory:"):
        return WriterLock(None)
    return WriterLock(Path(f"{url.database}-lock"))


def _install_sqlite_settings(engine: Engine, *, synchronous_full: bool) -> None:
    synchronous = "FULL" if synchronous_full else "NORMAL"

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # Database.transaction() issues BEGIN itself
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        cursor.execute("PRAGMA journal_mode = WAL")
        cursor.execute(f"PRAGMA synchronous = {synchronous}")
        cursor.execute(f"PRAGMA wal_autocheckpoint = {_WAL_AUTOCHECKPOINT_PAGES}")
        cursor.execute("PRAGMA foreign_keys = ON")
        cursor.close()


def _ping_connections_left_idle(engine: Engine) -> None:
    """Before a pooled connection that sat idle for ``PING_AFTER_IDLE_SECONDS`` is handed out,
    check that the server still has it, and replace it when not (a restarted server, an idle
    time-out, a connection an administrator ended).

    SQLAlchemy's ``pool_pre_ping`` does this on every checkout: on a crawl that is two round
    trips a page, and as many of the server's commits (measured: 3.9 commits a request with
    it, 1.95 without; 5.0 ms of server CPU a request against 4.5). A connection handed back
    within the second has just worked."""

    @event.listens_for(engine, "checkin")
    def _checked_in(_dbapi_connection: Any, record: Any) -> None:
        record.info["idle_since"] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def _checked_out(dbapi_connection: Any, record: Any, _proxy: Any) -> None:
        idle_since = record.info.pop("idle_since", None)
        if idle_since is None or time.monotonic() - idle_since < PING_AFTER_IDLE_SECONDS:
            return
        try:
            engine.dialect.do_ping(dbapi_connection)
        except Exception as error:
            # The pool closes this connection and hands out a new one.
            raise DisconnectionError(str(error)) from error


def engine_for(url: URL, *, synchronous_full: bool, pool_size: int) -> Engine:
    """An engine for ``url``: SQLite with its settings (WAL, busy time-out, ...), PostgreSQL
    with idle connections checked before use."""
    try:
        if url.get_backend_name() == "sqlite":
            engine = create_engine(
                url,
                connect_args={"check_same_thread": False, "timeout": BUSY_TIMEOUT_MS / 1000},
                pool_size=pool_size,
            )
            _install_sqlite_settings(engine, synchronous_full=synchronous_full)
            return engine
        engine = create_engine(url, pool_size=pool_size)
        _ping_connections_left_idle(engine)
        return engine
    except (NoSuchModuleError, ImportError) as error:
        raise StoreError(f"no driver for {url.drivername}: {error}") from None


_POSTGRES_VALID_INDEX = text(
    "SELECT i.indisvalid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid "
    "JOIN pg_namespace n ON n.oid = c.relnamespace "
    "WHERE c.relname = :name AND n.nspname = current_schema()"
)


def index_is_ready(connection: Connection, name: str, table: str) -> bool:
    """Whether index ``name`` of ``table`` is there to use (on PostgreSQL: finished, valid)."""
    if connection.dialect.name == "postgresql":
        return bool(connection.execute(_POSTGRES_VALID_INDEX, {"name": name}).scalar())
    return any(index["name"] == name for index in inspect(connection).get_indexes(table))


def change_index(database: Database, statement: str) -> None:
    """``statement`` (a CREATE or DROP INDEX with ``{how}`` before its name) with
    ``CONCURRENTLY`` on PostgreSQL, outside a transaction as it must be, so that other
    machines go on writing; in a write transaction on SQLite."""
    if database.engine.dialect.name == "postgresql":
        with database.engine.connect() as connection:
            autocommit = connection.execution_options(isolation_level="AUTOCOMMIT")
            autocommit.execute(text(statement.format(how="CONCURRENTLY ")))
        return

    def change(connection: Connection) -> None:
        connection.execute(text(statement.format(how="")))

    database.run(change)
