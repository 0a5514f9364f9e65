"""Transactions the database aborts are run again, and what they cached is dropped [C5, P1].

PostgreSQL breaks a deadlock between workers by aborting one of the transactions; before
``Database.run`` existed that killed a worker thread in the middle of a crawl, and its page was
fetched a second time once its lease expired.
"""

from __future__ import annotations

import sqlite3
import threading
from datetime import UTC, datetime

import pytest
from sqlalchemy import text

from politecrawl.store import Frontier, Lease, Wait, ends, is_database_error
from politecrawl.store.dialects import is_retryable

T0 = datetime(2026, 1, 1, tzinfo=UTC)


class _DeadlockError(Exception):
    """Looks like psycopg's DeadlockDetected to ``is_retryable``."""

    sqlstate = "40P01"


def _create_counter(database) -> None:
    with database.transaction() as connection:
        connection.execute(text("CREATE TABLE counter (id INTEGER PRIMARY KEY, n INTEGER)"))
        connection.execute(text("INSERT INTO counter VALUES (1, 0), (2, 0)"))


def _counts(database) -> list[int]:
    with database.engine.connect() as connection:
        return list(connection.execute(text("SELECT n FROM counter ORDER BY id")).scalars())


def test_retryable_errors_are_deadlocks_serialization_failures_and_sqlite_locks():
    assert is_retryable(_DeadlockError())
    serialization = type("SerializationFailure", (Exception,), {"sqlstate": "40001"})()
    assert is_retryable(serialization)
    assert is_retryable(sqlite3.OperationalError("database is locked"))
    assert not is_retryable(sqlite3.OperationalError("disk I/O error"))
    unique = type("UniqueViolation", (Exception,), {"sqlstate": "23505"})()
    assert not is_retryable(unique)
    assert not is_retryable(ValueError("a bug"))
    assert is_database_error(sqlite3.OperationalError("disk I/O error"))
    assert not is_database_error(ValueError("a bug"))


def test_c5_an_aborted_transaction_is_rolled_back_and_run_again(database):
    _create_counter(database)
    attempts: list[int] = []
    rollbacks: list[int] = []

    def work(connection) -> str:
        attempts.append(1)
        connection.execute(text("UPDATE counter SET n = n + 1 WHERE id = 1"))
        if len(attempts) < 3:
            raise _DeadlockError("deadlock detected")
        return "done"

    assert database.run(work, on_rollback=lambda: rollbacks.append(1)) == "done"
    assert (len(attempts), len(rollbacks)) == (3, 2)
    assert _counts(database) == [1, 0]  # the two aborted attempts left nothing behind


def test_other_errors_are_raised_at_once_and_the_work_is_rolled_back(database):
    _create_counter(database)
    attempts: list[int] = []

    def work(connection) -> None:
        attempts.append(1)
        connection.execute(text("UPDATE counter SET n = n + 1 WHERE id = 1"))
        raise ValueError("a bug")

    with pytest.raises(ValueError, match="a bug"):
        database.run(work)
    assert len(attempts) == 1
    assert _counts(database) == [0, 0]


def test_an_interrupted_transaction_is_rolled_back_and_its_caches_told(database):
    """Ctrl-C inside the work: nothing written, ``on_rollback`` called (the caller drops
    what it cached from the transaction), the interruption raised as it is."""
    _create_counter(database)
    rollbacks: list[int] = []

    def work(connection) -> None:
        connection.execute(text("UPDATE counter SET n = n + 1 WHERE id = 1"))
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        database.run(work, on_rollback=lambda: rollbacks.append(1))
    assert rollbacks == [1]
    assert _counts(database) == [0, 0]


def test_a_transaction_aborted_every_time_gives_up_with_the_error(database):
    attempts: list[int] = []

    def work(connection) -> None:
        attempts.append(1)
        raise _DeadlockError("deadlock detected")

    with pytest.raises(_DeadlockError):
        database.run(work)
    assert 1 < len(attempts) <= 10


@pytest.mark.postgres
def test_c5_postgres_deadlock_victim_is_run_again():
    """Two real transactions lock two rows in opposite orders; PostgreSQL aborts one, and
    ``Database.run`` runs it again: both updates land. (SQLite takes its write lock up front,
    BEGIN IMMEDIATE, so it has no such deadlocks.)"""
    from tests.store.conftest import postgres_schema_url, require_postgres

    from politecrawl.store import open_database

    require_postgres()
    database_url = next(schema := postgres_schema_url())
    database = open_database(database_url)
    try:
        _create_counter(database)
        both_hold_one_row = threading.Barrier(2, timeout=10)
        errors: list[BaseException] = []

        def lock_in_order(first: int, second: int) -> None:
            tries = 0

            def work(connection) -> None:
                nonlocal tries
                tries += 1
                connection.execute(text(f"UPDATE counter SET n = n + 1 WHERE id = {first}"))
                if tries == 1:
                    both_hold_one_row.wait()
                connection.execute(text(f"UPDATE counter SET n = n + 10 WHERE id = {second}"))

            try:
                database.run(work)
            except BaseException as error:  # reported by the assertion below
                errors.append(error)

        threads = [
            threading.Thread(target=lock_in_order, args=(1, 2)),
            threading.Thread(target=lock_in_order, args=(2, 1)),
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
        assert errors == []
        assert _counts(database) == [11, 11]
    finally:
        database.close()
        schema.close()  # drops the schema


def test_c2_ids_cached_by_a_rolled_back_add_are_forgotten(database):
    """A rolled-back add created a host and an origin whose ids the enqueuer had cached; the
    next add must create them again rather than point at rows that do not exist."""
    frontier = Frontier(database, default_delay_seconds=0.0)

    def add_then_fail(connection) -> None:
        frontier._enqueuer.add(connection, ["http://new.example/first"], now=T0, depth=0)
        raise ValueError("the rest of the transaction failed")

    with pytest.raises(ValueError, match="the rest of the transaction failed"):
        frontier._write(add_then_fail)
    assert frontier.add(["http://new.example/second"], now=T0).added == 1
    lease = frontier.claim("w", now=T0)
    assert isinstance(lease, Lease)
    assert (lease.url, lease.origin, lease.host) == (
        "http://new.example/second",
        "http://new.example",
        "new.example",
    )


def test_ids_a_transaction_created_are_shared_only_once_it_commits(database):
    frontier = Frontier(database, default_delay_seconds=0.0)
    inside, finish = threading.Event(), threading.Event()

    def add_and_wait(connection) -> None:
        frontier._enqueuer.add(connection, ["http://new.example/"], now=T0, depth=0)
        inside.set()
        finish.wait(10)

    writer = threading.Thread(target=frontier._write, args=(add_and_wait,))
    writer.start()
    assert inside.wait(10)
    seen_before_commit = "new.example" in frontier._enqueuer.ids.hosts
    finish.set()
    writer.join(10)
    assert not seen_before_commit
    assert "new.example" in frontier._enqueuer.ids.hosts


def test_c5_a_host_asleep_with_queued_urls_is_woken_before_the_crawl_ends(database):
    """On PostgreSQL a claim can put a host to sleep just as another worker queues URLs for it;
    the frontier must not report "nothing queued" while such URLs exist."""
    frontier = Frontier(database, default_delay_seconds=0.0)
    frontier.add(["http://asleep.example/"], now=T0)
    with database.transaction() as connection:
        connection.execute(text("UPDATE hosts SET active = false"))
    first = frontier.claim("w", now=T0)
    assert isinstance(first, Wait)
    assert first.until == T0
    lease = frontier.claim("w", now=T0)
    assert isinstance(lease, Lease)
    assert lease.url == "http://asleep.example/"
    assert frontier.record(ends.Completed(lease, _ok(), T0), now=T0).recorded
    assert frontier.claim("w", now=T0).until is None  # and then it is really finished


def _ok():

    return ends.PageOutcome(200)
