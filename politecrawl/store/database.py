"""Opening a crawl database: the engine, SQLite's settings, migrations, and refusing strangers.

[C5, C6] ``open_database`` takes a file path (SQLite) or a SQLAlchemy URL
(``postgresql+psycopg://...``). Before anything is written it checks that the target is empty
or a politecrawl crawl database; a foreign file or database, or one written by a newer
politecrawl, is refused with a ``StoreError`` and left untouched. An older crawl database is
upgraded in place (``alembic upgrade head``) before use; a new one is made from the table
definitions and stamped at the newest revision.

SQLite runs in WAL mode with ``synchronous=NORMAL``: a killed process loses nothing committed
(only a power cut can lose the last transactions; ``synchronous_full`` closes that too). Write
transactions (``Database.transaction``) open with ``BEGIN IMMEDIATE`` so that two writers never
deadlock on a lock upgrade.

PostgreSQL may still pick a transaction as the victim of a deadlock or a serialization
conflict between workers; ``Database.run`` runs a unit of work again from the start when that
happens, which PostgreSQL's manual asks of every application.
"""

from __future__ import annotations

import os
import random
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager, suppress
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from sqlalchemy import (
    Column,
    Connection,
    Engine,
    MetaData,
    PrimaryKeyConstraint,
    String,
    Table,
    create_engine,
    event,
    inspect,
)
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import (
    ArgumentError,
    DBAPIError,
    DisconnectionError,
    NoSuchModuleError,
    OperationalError,
)

from politecrawl.errors import StoreError
from politecrawl.store.schema import metadata

if TYPE_CHECKING:
    from alembic.config import Config

try:
    import fcntl
except ImportError:  # Windows: SQLite's own lock alone
    fcntl = None  # type: ignore[assignment, unused-ignore]

VERSION_TABLE = "politecrawl_version"
# The head of migrations/versions, known without loading Alembic (with Mako and Pygments, 0.26 s
# of every command's start): a database at this revision is opened without it. A new migration
# that does not move this fails tests/store/test_database.py.
SCHEMA_HEAD = "0006"
_VERSION_QUERY = f"SELECT version_num FROM {VERSION_TABLE}"  # noqa: S608 (constants only)
_SQLITE_HEADER = b"SQLite format 3\x00"
_BUSY_TIMEOUT_MS = 30_000
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
_ATTEMPTS = 8
_FIRST_BACKOFF_SECONDS = 0.005
PING_AFTER_IDLE_SECONDS = 1.0
"""A PostgreSQL connection idle in the pool this long is checked before it is used again."""

T = TypeVar("T")


def is_database_error(error: BaseException) -> bool:
    """True for an error raised by the database or its driver (not by politecrawl's logic)."""
    if isinstance(error, DBAPIError | sqlite3.Error):
        return True
    return type(error).__module__.split(".")[0] in ("psycopg", "psycopg2")


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


@dataclass(frozen=True, slots=True)
class DatabaseSettings:
    """How to open the crawl database."""

    synchronous_full: bool = False
    """SQLite: ``synchronous=FULL``, so that not even a power cut loses a commit (slower)."""
    pool_size: int = 8
    """Connections kept per process (one per worker thread is enough)."""


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


@dataclass(frozen=True, slots=True)
class Database:
    """An open crawl database at the newest schema revision."""

    engine: Engine
    target: str
    """What the user named: the path or the URL (its password hidden)."""
    _sqlite_writer: WriterLock | None = field(default=None, repr=False)

    @property
    def is_sqlite(self) -> bool:
        """True for a SQLite file."""
        return self.engine.dialect.name == "sqlite"

    @contextmanager
    def transaction(self) -> Iterator[Connection]:
        """A write transaction: committed at the end of the block, rolled back on an error.

        On SQLite it opens with ``BEGIN IMMEDIATE``, sent straight to the driver: the write lock
        is taken up front, so two writers never deadlock upgrading a read lock. (An engine
        "begin" event would do the same, but any engine event makes every statement pay for
        SQLAlchemy's event dispatch.)
        """
        if not self.is_sqlite:
            with self.engine.begin() as connection:
                yield connection
            return
        assert self._sqlite_writer is not None
        with self._sqlite_writer.held(), self.engine.begin() as connection:
            driver_connection = connection.connection.driver_connection
            assert driver_connection is not None
            driver_connection.execute("BEGIN IMMEDIATE")
            yield connection

    def run(
        self,
        work: Callable[[Connection], T],
        *,
        on_commit: Callable[[], None] | None = None,
        on_rollback: Callable[[], None] | None = None,
    ) -> T:
        """``work(connection)`` in a write transaction, committed when it returns (and then
        ``on_commit`` is called).

        When the database aborts the transaction for a reason that trying again cures (see
        ``is_retryable``), everything it did is rolled back, ``on_rollback`` is called (to drop
        what the caller cached from the lost transaction) and ``work`` runs again from the start,
        after a short random pause so that the two sides of a deadlock do not meet again. Any
        other error, or the last retryable one, is raised after ``on_rollback``.
        """
        pause = _FIRST_BACKOFF_SECONDS
        for attempt in range(1, _ATTEMPTS + 1):
            try:
                with self.transaction() as connection:
                    result = work(connection)
            except Exception as error:
                if on_rollback is not None:
                    on_rollback()
                if attempt == _ATTEMPTS or not is_retryable(error):
                    raise
            except BaseException:  # interrupted: rolled back all the same
                if on_rollback is not None:
                    on_rollback()
                raise
            else:
                if on_commit is not None:
                    on_commit()
                return result
            time.sleep(random.uniform(0, pause))  # noqa: S311 (jitter, not secrecy)
            pause *= 2
        raise AssertionError("unreachable")  # pragma: no cover

    def close(self) -> None:
        """Release every connection."""
        self.engine.dispose()
        if self._sqlite_writer is not None:
            self._sqlite_writer.close()


def _alembic_config() -> Config:
    from alembic.config import Config  # noqa: PLC0415 (loaded only to migrate: see SCHEMA_HEAD)

    config = Config()
    # migrations/ is installed as politecrawl.migrations (see pyproject.toml).
    config.set_main_option("script_location", str(resources.files("politecrawl.migrations")))
    return config


def schema_head() -> str:
    """The newest revision this politecrawl knows."""
    return SCHEMA_HEAD


def known_revisions() -> set[str]:
    """Every revision this politecrawl knows."""
    from alembic.script import ScriptDirectory  # noqa: PLC0415 (see SCHEMA_HEAD)

    script = ScriptDirectory.from_config(_alembic_config())
    return {revision.revision for revision in script.walk_revisions()}


def to_url(target: str) -> URL:
    """A SQLAlchemy URL for a path or a URL given by the user."""
    if "://" not in target:
        return URL.create("sqlite+pysqlite", database=str(Path(target).expanduser()))
    try:
        return make_url(target)
    except ArgumentError as error:
        raise StoreError(f"{target}: not a database URL or path ({error})") from None


def _roll_back_hot_journal(path: Path) -> None:
    """A process killed in the middle of a write (C5) may leave a journal that SQLite must roll
    back before the file reads as it was last committed (a new file killed in its first
    transaction does not even have SQLite's header yet); SQLite does it when it opens the file
    for writing. A journal some other process is still writing is not rolled back."""
    journal = path.with_name(f"{path.name}-journal")
    if not journal.is_file() or journal.stat().st_size == 0 or not os.access(path, os.W_OK):
        return
    uri = f"{path.resolve().as_uri()}?mode=rw"
    with suppress(sqlite3.DatabaseError), closing(sqlite3.connect(uri, uri=True)) as connection:
        connection.execute("SELECT name FROM sqlite_master").fetchall()


def _peek(uri: str) -> tuple[set[str], tuple[Any, ...] | None]:
    """The tables of the SQLite database at ``uri``, and its schema version row if it has one."""
    with closing(sqlite3.connect(uri, uri=True)) as peek:
        tables = {row[0] for row in peek.execute("SELECT name FROM sqlite_master")}
        current = None
        if VERSION_TABLE in tables:
            current = peek.execute(_VERSION_QUERY).fetchone()
    return tables, current


def _check_sqlite_file(path: Path, shown: str, *, create: bool) -> None:
    """Refuse a path that cannot hold a crawl database, before SQLite touches it; without
    ``create``, also a path that holds none yet (B1: a typo never creates a file)."""
    if path.is_dir():
        raise StoreError(f"{shown}: is a directory, not a crawl database file")
    if not create and (not path.exists() or path.stat().st_size == 0):
        raise StoreError(f"no crawl database at {shown}")
    if not path.parent.is_dir():
        raise StoreError(f"{shown}: directory {path.parent} does not exist")
    if not path.exists():
        if not os.access(path.parent, os.W_OK):
            raise StoreError(f"{shown}: cannot create a database in {path.parent} (read-only)")
        return
    _roll_back_hot_journal(path)
    with path.open("rb") as handle:
        header = handle.read(len(_SQLITE_HEADER))
    if not header:
        return  # an empty file: a new database
    if header != _SQLITE_HEADER:
        raise StoreError(f"{shown}: not a crawl database (not an SQLite file); left unchanged")
    # Look read-only first: opening it for real switches it to WAL mode, a change to the file.
    try:
        try:
            tables, current = _peek(f"{path.resolve().as_uri()}?mode=ro")
        except sqlite3.OperationalError as error:
            # A process killed in the middle of a write left a journal that SQLite must roll
            # back, or a WAL index it must rebuild, before anyone reads (C5): a read-only
            # connection cannot, so where the file may be written, look read-write.
            name = getattr(error, "sqlite_errorname", "")
            if not name.startswith("SQLITE_READONLY_") or not os.access(path, os.W_OK):
                raise
            tables, current = _peek(f"{path.resolve().as_uri()}?mode=rw")
    except sqlite3.DatabaseError as error:
        raise StoreError(
            f"{shown}: not a usable SQLite database ({error}); left unchanged"
        ) from None
    _check_tables(tables, None if current is None else current[0], shown)
    if not create and VERSION_TABLE not in tables:
        raise StoreError(
            f"{shown}: not a crawl database (an SQLite file without one); left unchanged"
        )
    if not os.access(path, os.W_OK) or not os.access(path.parent, os.W_OK):
        raise StoreError(f"{shown}: the database or its directory is read-only")


def _check_tables(tables: set[str], current: str | None, shown: str) -> None:
    """Refuse a database that holds other things, or that a newer politecrawl wrote."""
    tables = {table for table in tables if not table.startswith("sqlite_")}
    if tables and VERSION_TABLE not in tables:
        listed = ", ".join(sorted(tables)[:5])
        raise StoreError(
            f"{shown}: not a crawl database (it holds other tables: {listed}); left unchanged"
        )
    if current is not None and current != SCHEMA_HEAD and current not in known_revisions():
        raise StoreError(
            f"{shown}: written by a newer politecrawl (schema {current}; this one knows up to "
            f"{schema_head()}); upgrade politecrawl to use it"
        )


def _install_sqlite_settings(engine: Engine, settings: DatabaseSettings) -> None:
    synchronous = "FULL" if settings.synchronous_full else "NORMAL"

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # Database.transaction() issues BEGIN itself
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout = {_BUSY_TIMEOUT_MS}")
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


def _create_engine(url: URL, settings: DatabaseSettings) -> Engine:
    try:
        if url.get_backend_name() == "sqlite":
            engine = create_engine(
                url,
                connect_args={"check_same_thread": False, "timeout": _BUSY_TIMEOUT_MS / 1000},
                pool_size=settings.pool_size,
            )
            _install_sqlite_settings(engine, settings)
            return engine
        engine = create_engine(url, pool_size=settings.pool_size)
        _ping_connections_left_idle(engine)
        return engine
    except (NoSuchModuleError, ImportError) as error:
        raise StoreError(f"no driver for {url.drivername}: {error}") from None


def _check_and_migrate(database: Database, shown: str, *, create: bool) -> None:
    with database.transaction() as connection:
        if connection.dialect.name == "postgresql":
            # Workers starting together on an empty database must not all create the schema:
            # the first migrates, the others wait here and then find it done.
            connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({_MIGRATION_LOCK_ID})")
        tables = set(inspect(connection).get_table_names())
        current = None
        if VERSION_TABLE in tables:
            current = connection.exec_driver_sql(_VERSION_QUERY).scalar()
        _check_tables(tables, current, shown)
        if not create and VERSION_TABLE not in tables:
            raise StoreError(f"no crawl database at {shown}")
        if current == SCHEMA_HEAD:
            return
        if VERSION_TABLE not in tables:
            _create_at_head(connection)
            return
        from alembic import command  # noqa: PLC0415 (see SCHEMA_HEAD)

        config = _alembic_config()
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


def _create_at_head(connection: Connection) -> None:
    """A new crawl database: ``schema``'s tables, stamped at ``SCHEMA_HEAD`` (Alembic's
    cookbook way to build a fresh database: create_all, then stamp), without loading Alembic
    (measured: 0.2-0.3 s of a new crawl's start). tests/store/test_database.py checks that
    the result equals what the migrations build, on both back ends."""
    metadata.create_all(connection)
    # Alembic's own version table (alembic.ddl.impl.DefaultImpl.version_table_impl).
    version = Table(
        VERSION_TABLE,
        MetaData(),
        Column("version_num", String(32), nullable=False),
        PrimaryKeyConstraint("version_num", name=f"{VERSION_TABLE}_pkc"),
    )
    version.create(connection)
    connection.execute(version.insert().values(version_num=SCHEMA_HEAD))


def _writer_lock(url: URL) -> WriterLock | None:
    if url.get_backend_name() != "sqlite":
        return None
    if url.database in (None, "", ":memory:"):
        return WriterLock(None)
    return WriterLock(Path(f"{url.database}-lock"))


def open_database(
    target: str, settings: DatabaseSettings | None = None, *, create: bool = True
) -> Database:
    """Open (creating or upgrading) the crawl database at ``target``: a path or a URL.

    ``create=False`` is for readers (reports, status, why, resume): a missing file, or a
    database without a crawl in it, is a ``StoreError`` ("no crawl database at ..."), and
    nothing is created or changed (B1); a report may then add the links' target index
    (``link_targets``)."""
    settings = settings or DatabaseSettings()
    url = to_url(target)
    shown = target if "://" not in target else url.render_as_string(hide_password=True)
    if url.get_backend_name() == "sqlite" and url.database not in (None, "", ":memory:"):
        _check_sqlite_file(Path(url.database), shown, create=create)
    engine = _create_engine(url, settings)
    database = Database(engine, shown, _writer_lock(url))
    try:
        _check_and_migrate(database, shown, create=create)
    except DBAPIError as error:
        engine.dispose()
        reason = " ".join(str(error.orig).split())  # drivers' messages span lines
        raise StoreError(f"{shown}: cannot open the database: {reason}") from None
    except StoreError:
        engine.dispose()
        raise
    return database


def upgrade_database(target: str) -> str:
    """Apply every migration to ``target`` (also done on open); returns the revision."""
    open_database(target).close()
    return schema_head()
