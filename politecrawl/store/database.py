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
    inspect,
)
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import (
    ArgumentError,
    DBAPIError,
)

from politecrawl.errors import StoreError
from politecrawl.store.dialects import (
    WriterLock,
    engine_for,
    is_retryable,
    lock_for_migration,
    writer_lock,
)
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
SCHEMA_HEAD = "0009"
_VERSION_QUERY = f"SELECT version_num FROM {VERSION_TABLE}"  # noqa: S608 (constants only)
_SQLITE_HEADER = b"SQLite format 3\x00"
_ATTEMPTS = 8
_FIRST_BACKOFF_SECONDS = 0.005

T = TypeVar("T")


def is_database_error(error: BaseException) -> bool:
    """True for an error raised by the database or its driver (not by politecrawl's logic)."""
    if isinstance(error, DBAPIError | sqlite3.Error):
        return True
    return type(error).__module__.split(".")[0] in ("psycopg", "psycopg2")


@dataclass(frozen=True, slots=True)
class DatabaseSettings:
    """How to open the crawl database."""

    synchronous_full: bool = False
    """SQLite: ``synchronous=FULL``, so that not even a power cut loses a commit (slower)."""
    pool_size: int = 8
    """Connections kept per process (one per worker thread is enough)."""


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


def _check_and_migrate(database: Database, shown: str, *, create: bool) -> None:
    with database.transaction() as connection:
        lock_for_migration(connection)
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
    engine = engine_for(
        url, synchronous_full=settings.synchronous_full, pool_size=settings.pool_size
    )
    database = Database(engine, shown, writer_lock(url))
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
