"""Opening crawl databases: migrations; refusing what is not ours, untouched [C6, B1]."""

from __future__ import annotations

import fcntl
import hashlib
import os
import sqlite3
import struct
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import create_engine, inspect, text
from tests.store.conftest import postgres_schema_url

from politecrawl.errors import StoreError
from politecrawl.store import open_database, schema_head
from politecrawl.store.database import VERSION_TABLE, _alembic_config, known_revisions, to_url
from politecrawl.store.schema import metadata


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_c6_a_new_database_is_at_the_head_revision(database):
    with database.engine.connect() as connection:
        version = connection.execute(text(f"SELECT version_num FROM {VERSION_TABLE}")).scalar()
    assert version == schema_head()


def test_c6_the_head_revision_known_without_alembic_is_the_newest_migration():
    from alembic.script import ScriptDirectory

    assert schema_head() == ScriptDirectory.from_config(_alembic_config()).get_current_head()


def _alembic_modules_after_opening(path: Path) -> str:
    """The Alembic and Mako modules a fresh interpreter has loaded after opening ``path``."""
    return subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys\n"
            "from politecrawl.store import open_database\n"
            f"open_database({str(path)!r}).close()\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('alembic', 'mako')))",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()


def test_c6_a_new_database_is_made_without_loading_alembic(tmp_path):
    assert _alembic_modules_after_opening(tmp_path / "crawl.db") == "[]"


def test_c6_a_database_at_the_head_revision_is_opened_without_loading_alembic(tmp_path):
    open_database(str(tmp_path / "crawl.db")).close()
    assert _alembic_modules_after_opening(tmp_path / "crawl.db") == "[]"


@pytest.fixture
def migrated(database_url, tmp_path):
    """An engine on an empty database of the same back end as ``database_url`` that every
    migration was applied to, with Alembic."""
    if database_url.startswith("postgresql"):
        targets = postgres_schema_url()
    else:
        targets = iter([str(tmp_path / "migrated.db")])
    engine = create_engine(to_url(next(targets)))
    try:
        config = _alembic_config()
        with engine.begin() as connection:
            config.attributes["connection"] = connection
            command.upgrade(config, "head")
        yield engine
    finally:
        engine.dispose()
        next(targets, None)  # drops the PostgreSQL schema


def test_c6_migrations_match_the_table_definitions(migrated):
    # A table change without a revision fails here (STYLE 13: autogenerate finds no diff).
    with migrated.connect() as connection:
        context = MigrationContext.configure(
            connection, opts={"compare_type": True, "version_table": VERSION_TABLE}
        )
        assert compare_metadata(context, metadata) == []


def _schema(engine) -> dict:
    """Everything a crawl database's schema says, read back from the database itself."""
    found = inspect(engine)
    described: dict = {}
    for table in sorted(found.get_table_names()):
        indexes = []
        for index in found.get_indexes(table):
            where = {k: str(v) for k, v in index.get("dialect_options", {}).items()}
            indexes.append((index["name"], index["column_names"], bool(index["unique"]), where))
        described[table] = {
            "columns": sorted(
                (c["name"], str(c["type"]), c["nullable"], str(c["default"]))
                for c in found.get_columns(table)
            ),
            "primary key": found.get_pk_constraint(table),
            "foreign keys": sorted(map(repr, found.get_foreign_keys(table))),
            "indexes": sorted(map(repr, indexes)),
            "unique": sorted(map(repr, found.get_unique_constraints(table))),
            "checks": sorted(map(repr, found.get_check_constraints(table))),
        }
    with engine.connect() as connection:
        described["version"] = connection.execute(
            text(f"SELECT version_num FROM {VERSION_TABLE}")
        ).all()
        if engine.dialect.name == "postgresql":  # the server's own text of each definition
            described["index definitions"] = connection.execute(
                text(
                    "SELECT indexname, replace(indexdef, current_schema() || '.', '') "
                    "FROM pg_indexes WHERE schemaname = current_schema() ORDER BY indexname"
                )
            ).all()
            described["sequences"] = connection.execute(
                text(
                    "SELECT sequence_name, data_type FROM information_schema.sequences "
                    "WHERE sequence_schema = current_schema() ORDER BY sequence_name"
                )
            ).all()
    return described


def test_c6_a_new_database_made_from_the_tables_equals_the_migrations_one(database, migrated):
    # A new database is made from the table definitions and stamped (no Alembic); it must be exactly
    # what applying every migration to an empty database gives (compare_metadata above does
    # not compare server defaults or index conditions; this does).
    assert _schema(database.engine) == _schema(migrated)


def test_c6_downgrade_to_base_and_upgrade_again(database_url):
    database = open_database(database_url)
    config = _alembic_config()
    with database.engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, "base")
    with database.engine.connect() as connection:
        tables = connection.execute(text(f"SELECT count(*) FROM {VERSION_TABLE}")).scalar()
    assert tables == 0
    database.close()
    reopened = open_database(database_url)  # upgrades again on open
    with reopened.engine.connect() as connection:
        assert connection.execute(text("SELECT count(*) FROM urls")).scalar() == 0
    reopened.close()


def test_c6_an_older_database_is_upgraded_on_open(tmp_path):
    path = tmp_path / "old.db"
    engine = create_engine(to_url(str(path)))
    config = _alembic_config()
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0001")
    engine.dispose()
    database = open_database(str(path))
    with database.engine.connect() as connection:
        version = connection.execute(text(f"SELECT version_num FROM {VERSION_TABLE}")).scalar()
    assert version == schema_head()
    assert "0001" in known_revisions()
    database.close()


def test_b1_a_text_file_is_refused_and_left_unchanged(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("my notes, not a database\n")
    before = digest(path)
    with pytest.raises(StoreError, match="not a crawl database \\(not an SQLite file\\)"):
        open_database(str(path))
    assert digest(path) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


def test_b1_a_foreign_sqlite_database_is_refused_and_left_unchanged(tmp_path):
    path = tmp_path / "app.db"
    with sqlite3.connect(path) as connection:
        connection.execute("CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT)")
    before = digest(path)
    with pytest.raises(
        StoreError, match="not a crawl database \\(it holds other tables: customers"
    ):
        open_database(str(path))
    assert digest(path) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["app.db"]


def killed_mid_write(source: Path, crashed: Path) -> Path:
    """``crashed``: ``source`` and its journal as a kill leaves them, copied in the middle of a
    transaction (in a rollback journal, as before WAL is set) that spilled to the file; checked
    unreadable to a read-only connection."""
    writer = sqlite3.connect(source, isolation_level=None)
    writer.execute("PRAGMA journal_mode = DELETE")
    writer.execute("PRAGMA cache_size = 1")
    writer.execute("BEGIN IMMEDIATE")
    writer.execute("CREATE TABLE half_made (x BLOB)")
    writer.executemany("INSERT INTO half_made VALUES (?)", [(b"x" * 100,)] * 5000)
    crashed.write_bytes(source.read_bytes())
    journal = source.with_name(f"{source.name}-journal")
    crashed.with_name(f"{crashed.name}-journal").write_bytes(journal.read_bytes())
    writer.close()
    with pytest.raises(sqlite3.OperationalError, match="readonly"):
        sqlite3.connect(f"{crashed.as_uri()}?mode=ro", uri=True).execute(
            "SELECT name FROM sqlite_master"
        ).fetchall()
    return crashed


def test_c5_a_database_whose_creator_was_killed_mid_write_opens_and_recovers(tmp_path):
    # A process killed in the middle of a write leaves a hot journal, which SQLite must roll
    # back before anyone reads: a read-only look (ours, before opening) cannot, and said "not a
    # usable SQLite database" to every later run. Built here as a kill would leave it: a copy of
    # the file and its journal taken in the middle of a transaction that spilled to the file.
    crashed = killed_mid_write(tmp_path / "writing.db", tmp_path / "crawl.db")
    database = open_database(str(crashed))  # rolled back: an empty file, made a crawl database
    try:
        assert VERSION_TABLE in inspect(database.engine).get_table_names()
        assert "half_made" not in inspect(database.engine).get_table_names()
    finally:
        database.close()


@pytest.mark.parametrize("journal_first", [True, False], ids=["journal", "read-only look"])
def test_c5_a_crawl_database_killed_mid_write_opens_as_last_committed(
    tmp_path, monkeypatch, journal_first
):
    # The same with a crawl database behind the journal: a read-only look cannot read it
    # (SQLITE_READONLY_ROLLBACK); opened, it is the database as last committed. Without the
    # journal's roll-back first, the read-only look's failure leads to a read-write one (the
    # way a WAL index that needs rebuilding is met).
    if not journal_first:
        monkeypatch.setattr("politecrawl.store.database._roll_back_hot_journal", lambda _path: None)
    made = tmp_path / "made.db"
    open_database(str(made)).close()
    crashed = killed_mid_write(made, tmp_path / "crawl.db")
    database = open_database(str(crashed))
    try:
        tables = inspect(database.engine).get_table_names()
        assert VERSION_TABLE in tables
        assert "half_made" not in tables
    finally:
        database.close()


def test_b1_a_database_from_a_newer_politecrawl_is_refused(database_url):
    database = open_database(database_url)
    with database.engine.begin() as connection:
        connection.execute(text(f"UPDATE {VERSION_TABLE} SET version_num = '9999'"))
    database.close()
    with pytest.raises(StoreError, match="written by a newer politecrawl \\(schema 9999"):
        open_database(database_url)


def test_b1_a_missing_directory_is_refused(tmp_path):
    with pytest.raises(StoreError, match="does not exist"):
        open_database(str(tmp_path / "missing" / "crawl.db"))
    assert not (tmp_path / "missing").exists()


def test_b1_a_directory_is_refused(tmp_path):
    with pytest.raises(StoreError, match="is a directory"):
        open_database(str(tmp_path))


def test_b1_a_read_only_database_is_refused(tmp_path, monkeypatch):
    path = tmp_path / "crawl.db"
    open_database(str(path)).close()
    before = digest(path)
    # The tests run as root, whom file modes do not stop; the permission check is what is tested.
    monkeypatch.setattr(
        "politecrawl.store.database.os.access", lambda _path, mode: not mode & os.W_OK
    )
    with pytest.raises(StoreError, match="read-only"):
        open_database(str(path))
    assert digest(path) == before


def test_b1_an_unknown_driver_is_a_clear_error():
    with pytest.raises(StoreError, match="no driver for"):
        open_database("nosuchdb+nodriver://localhost/x")


def test_b1_an_unreachable_server_is_a_clear_error():
    with pytest.raises(StoreError, match="cannot open the database"):
        open_database("postgresql+psycopg://postgres@127.0.0.1:1/none?connect_timeout=2")


def test_c6_workers_opening_a_new_database_together_migrate_it_once(database_url):
    errors = []

    def open_and_close():
        try:
            open_database(database_url).close()
        except Exception as error:
            errors.append(error)

    threads = [threading.Thread(target=open_and_close) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []


def _flock_free(path: Path) -> bool:
    """True when nobody holds ``path``'s exclusive flock (tried without waiting)."""
    descriptor = os.open(path, os.O_RDWR)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    finally:
        os.close(descriptor)  # closing the descriptor also drops a lock taken through it
    return True


def test_c5_sqlite_writers_take_turns_through_the_lock_file(tmp_path):
    """Write transactions on one SQLite file queue on ``<database>-lock`` (flock: the next
    waiter, in this process or another, gets it at once) rather than in SQLite's sleeping
    busy handler; a second opener of the same file waits for the first to commit."""
    target = tmp_path / "crawl.db"
    first, second = open_database(str(target)), open_database(str(target))
    lock_file = tmp_path / "crawl.db-lock"
    order: list[str] = []
    try:
        assert _flock_free(lock_file)
        with first.transaction() as connection:
            connection.execute(text("CREATE TABLE turns (n INTEGER)"))
            assert not _flock_free(lock_file)
            waiter = threading.Thread(target=_write_turn, args=(second, order))
            waiter.start()
            waiter.join(0.3)
            assert waiter.is_alive()  # still waiting for the first writer
            order.append("first")
        waiter.join(10)
        assert order == ["first", "second"]
        assert _flock_free(lock_file)
    finally:
        first.close()
        second.close()


def _write_turn(database, order: list[str]) -> None:
    with database.transaction() as connection:
        connection.execute(text("INSERT INTO turns VALUES (2)"))
        order.append("second")


def _log_frames_and_copied(path: Path) -> tuple[int, int]:
    """``(mxFrame, nBackfill)`` from SQLite's WAL index (``-shm``): the pages in the log and
    those copied back into the database, read without checkpointing anything."""
    header = Path(f"{path}-shm").read_bytes()[:100]
    (frames,) = struct.unpack_from("=I", header, 16)  # WalIndexHdr.mxFrame
    (copied,) = struct.unpack_from("=I", header, 96)  # WalCkptInfo.nBackfill
    return frames, copied


def test_sqlite_checkpoints_its_log_every_ten_thousand_pages_of_it(tmp_path):
    """Each checkpoint syncs both files while the crawl's writer lock is held: a crawl's
    commits (about 30 pages of log a page with 40 links) are copied back every 10,000 pages of
    log, not at SQLite's default of 1,000, and not never (0 would let the log grow unbounded)."""
    target = tmp_path / "crawl.db"
    database = open_database(str(target))
    try:
        with database.engine.connect() as connection:
            bound = connection.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar()
        assert bound == 10_000
        with database.transaction() as connection:
            connection.execute(text("CREATE TABLE scratch (body BLOB)"))
        for _ in range(400):  # 12 KB a commit: 3 pages of log or more
            with database.transaction() as connection:
                body = os.urandom(12_000)
                connection.execute(text("INSERT INTO scratch VALUES (:body)"), {"body": body})
        frames, copied = _log_frames_and_copied(target)
        assert frames > 1_200  # past SQLite's default, and nothing copied back yet
        assert copied == 0
    finally:
        database.close()


def test_c5_sqlite_writes_without_the_lock_file_when_it_cannot_be_made(tmp_path, monkeypatch):
    real_open = os.open

    def refuse_lock_file(path, *args, **kwargs):
        if str(path).endswith("-lock"):
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(os, "open", refuse_lock_file)
    database = open_database(str(tmp_path / "crawl.db"))
    try:
        with database.transaction() as connection:
            connection.execute(text("CREATE TABLE t (n INTEGER)"))
            connection.execute(text("INSERT INTO t VALUES (1)"))
        with database.engine.connect() as connection:
            assert connection.execute(text("SELECT n FROM t")).scalar() == 1
    finally:
        database.close()
    assert not (tmp_path / "crawl.db-lock").exists()


@pytest.mark.postgres
def test_c5_a_pooled_connection_is_checked_only_after_it_sat_idle(monkeypatch):
    # Pinging every checkout cost two round trips and two server commits a page; a
    # connection is checked only when it has sat idle, and replaced when the server has
    # dropped it meanwhile (here: ended by an administrator). The idle threshold is set to
    # "never" and "always" in turn, so that no step depends on how fast the machine is.
    import psycopg
    from tests.store.conftest import POSTGRES_DSN, require_postgres

    from politecrawl.store import dialects as database_module

    require_postgres()
    targets = postgres_schema_url()
    database = open_database(next(targets))
    pings = []
    real_ping = database.engine.dialect.do_ping
    monkeypatch.setattr(
        database.engine.dialect, "do_ping", lambda c: pings.append(1) or real_ping(c)
    )

    def backend() -> int:
        with database.engine.connect() as connection:
            return connection.exec_driver_sql("SELECT pg_backend_pid()").scalar_one()

    try:
        monkeypatch.setattr(database_module, "PING_AFTER_IDLE_SECONDS", 3600.0)
        first = backend()
        for _ in range(5):
            assert backend() == first  # the same pooled connection, not idle long: no ping
        assert pings == []
        with psycopg.connect(POSTGRES_DSN.replace("+psycopg", ""), autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(%s)", (first,))
            deadline = time.monotonic() + 30
            while admin.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE pid = %s", (first,)
            ).fetchone() != (0,):
                assert time.monotonic() < deadline, "the server did not end the connection"
                time.sleep(0.02)
        monkeypatch.setattr(database_module, "PING_AFTER_IDLE_SECONDS", 0.0)
        replaced = backend()  # pinged, found gone, replaced: no error reaches the caller
        assert pings == [1]
        assert replaced != first
        monkeypatch.setattr(database_module, "PING_AFTER_IDLE_SECONDS", 3600.0)
        assert backend() == replaced
        assert pings == [1]
    finally:
        database.close()
        next(targets, None)
