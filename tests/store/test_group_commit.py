"""Group commit: pages that threads finish while the write lock is taken share one commit."""

from __future__ import annotations

import signal
import sqlite3
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event, text

from politecrawl.errors import StoreError
from politecrawl.store import Frontier, Lease, ends, open_database
from politecrawl.store.database import Database
from politecrawl.store.frontier.group_commit import GroupCommit


def _until(condition: Callable[[], bool]) -> None:
    deadline = time.monotonic() + 10
    while not condition():
        assert time.monotonic() < deadline, "the threads never got there"
        time.sleep(0.001)


class FakeDatabase:
    """``write``: a transaction that commits what the work appended, unless it raised; the
    first transaction waits for ``open_first`` (it holds the "lock" meanwhile)."""

    def __init__(self) -> None:
        self.open_first = threading.Event()
        self.transactions: list[list[str]] = []
        self.committed: list[str] = []

    def write(self, work: Callable[[list[str]], Any]) -> Any:
        if not self.transactions:
            self.transactions.append([])
            assert self.open_first.wait(10)
            del self.transactions[0]
        pending: list[str] = []
        result = work(pending)  # type: ignore[arg-type]
        self.transactions.append(pending)
        self.committed += pending
        return result


def _writer(name: str) -> Callable[[list[str]], str]:
    def work(pending: list[str]) -> str:
        pending.append(name)
        return name.upper()

    return work


def _failing(pending: list[str]) -> str:
    pending.append("b")
    raise ValueError("b's own error")


def _run_in_threads(
    group: GroupCommit, works: list[Callable[[Any], str]]
) -> tuple[list[threading.Thread], dict[int, Any]]:
    """Each work given to ``group.run`` in a thread of its own, the first one first, the
    others once it is in its transaction; the threads, and what each got (result or error)."""
    got: dict[int, Any] = {}

    def run(index: int) -> None:
        try:
            got[index] = group.run(works[index])
        except Exception as error:
            got[index] = error

    threads = [threading.Thread(target=run, args=(index,)) for index in range(len(works))]
    threads[0].start()
    _until(lambda: group.waiting == 1)  # the first is the leader, in its transaction
    for thread in threads[1:]:
        thread.start()
    _until(lambda: group.waiting == len(works))
    return threads, got


def test_writes_that_wait_meanwhile_share_the_next_transaction():
    database = FakeDatabase()
    group = GroupCommit(database.write)
    threads, got = _run_in_threads(group, [_writer(name) for name in "abcd"])
    database.open_first.set()
    for thread in threads:
        thread.join(10)
    assert got == {0: "A", 1: "B", 2: "C", 3: "D"}
    assert database.transactions == [["a", "b", "c", "d"]]  # one commit for four, in order
    assert group.waiting == 0


def test_an_error_reaches_only_the_thread_whose_work_raised_it():
    database = FakeDatabase()
    group = GroupCommit(database.write)
    threads, got = _run_in_threads(group, [_writer("a"), _failing, _writer("c")])
    database.open_first.set()
    for thread in threads:
        thread.join(10)
    assert got[0] == "A"
    assert got[2] == "C"
    assert isinstance(got[1], ValueError)
    assert str(got[1]) == "b's own error"
    # The shared transaction failed for b's work and wrote nothing; a and c, written again
    # without it, share the next.
    assert database.transactions == [["a", "c"]]


def test_a_write_alone_that_fails_raises_its_error_and_runs_once():
    runs: list[str] = []

    def write(work: Callable[[list[str]], Any]) -> Any:
        return work([])

    def failing(pending: list[str]) -> str:
        runs.append("ran")
        raise ValueError("mine")

    with pytest.raises(ValueError, match="mine"):
        GroupCommit(write).run(failing)  # type: ignore[arg-type]
    assert runs == ["ran"]


def test_an_interrupted_transaction_leaves_no_work_behind_to_run_later():
    ran: list[str] = []
    interrupt = [True]

    def write(work: Callable[[list[str]], Any]) -> Any:
        if interrupt.pop():
            raise KeyboardInterrupt  # before the transaction took the work
        return work([])

    group = GroupCommit(write)  # type: ignore[arg-type]
    with pytest.raises(KeyboardInterrupt):
        group.run(lambda _connection: ran.append("first"))
    assert group.waiting == 0
    interrupt.append(False)
    group.run(lambda _connection: ran.append("second"))
    assert ran == ["second"]  # the interrupted work never ran behind its thread's back


def test_c5_pages_of_three_threads_commit_together_on_sqlite(tmp_path):
    """Three workers finish a page while another holds the write lock: the three pages and
    the three next claims go into one transaction, each worker gets its own next lease."""
    database = open_database(str(tmp_path / "crawl.db"))
    now = datetime.now(UTC)
    frontier = Frontier(database, default_delay_seconds=0.0)
    frontier.add([f"http://h{h}.example/p{p}" for h in range(6) for p in range(2)], now=now)
    leases = [frontier.claim(f"w{i}", now=now) for i in range(3)]
    assert all(isinstance(lease, Lease) for lease in leases)
    group = frontier.group_commit
    assert group is not None
    commits: list[int] = []
    event.listen(database.engine, "commit", lambda _connection: commits.append(1))
    got: dict[int, Any] = {}

    # (within a second of the claims: no housekeeping write comes before the page's)
    def finish(index: int, lease: Lease) -> None:
        completion = ends.Completed(lease, ends.PageOutcome(200), next_fetch_at=now)
        got[index] = frontier.record(
            completion, now=now + timedelta(seconds=0.5), claim_for=f"w{index}"
        )

    assert database._sqlite_writer is not None
    with database._sqlite_writer.held():  # another writer holds the lock
        threads = [
            threading.Thread(target=finish, args=(index, lease))
            for index, lease in enumerate(leases)
        ]
        for thread in threads:
            thread.start()
        _until(lambda: group.waiting == 3)
    for thread in threads:
        thread.join(10)
    assert sum(commits) == 1
    assert all(got[index].recorded for index in range(3))  # each page recorded
    following = [got[index].following for index in range(3)]
    assert all(isinstance(lease, Lease) for lease in following)
    assert len({lease.url_id for lease in following}) == 3
    assert [lease.owner for lease in following] == ["w0", "w1", "w2"]
    assert frontier.stats(now=now).by_state["done"] == 3
    database.close()


def test_an_error_of_the_transaction_reaches_every_thread_and_nothing_runs_twice():
    ran: list[str] = []

    class CommitFails(FakeDatabase):
        def write(self, work: Callable[[list[str]], Any]) -> Any:
            super().write(work)
            raise OSError("disk full")  # after every work ran: the commit failed

    database = CommitFails()
    group = GroupCommit(database.write)

    def writer(name: str) -> Callable[[list[str]], str]:
        def work(pending: list[str]) -> str:
            ran.append(name)
            return name

        return work

    threads, got = _run_in_threads(group, [writer(name) for name in "abc"])
    database.open_first.set()
    for thread in threads:
        thread.join(10)
    assert sorted(ran) == ["a", "b", "c"]  # each once
    assert all(isinstance(got[index], OSError) for index in range(3))


class Interrupted(BaseException):
    """Stands for KeyboardInterrupt (which would stop the test run)."""


def test_an_interrupted_leader_tells_the_others_their_pages_fate_is_unknown():
    database = FakeDatabase()

    def write(work: Callable[[list[str]], Any]) -> Any:
        database.write(work)
        raise Interrupted  # the leader's thread is interrupted, after its works ran

    group = GroupCommit(write)
    leader_got: list[BaseException] = []

    def lead() -> None:
        try:
            group.run(_writer("a"))
        except Interrupted as interruption:
            leader_got.append(interruption)

    others: dict[int, Any] = {}

    def follow(index: int) -> None:
        try:
            others[index] = group.run(_writer("bc"[index]))
        except Exception as error:
            others[index] = error

    leader = threading.Thread(target=lead)
    leader.start()
    _until(lambda: group.waiting == 1)
    followers = [threading.Thread(target=follow, args=(index,)) for index in range(2)]
    for thread in followers:
        thread.start()
    _until(lambda: group.waiting == 3)
    database.open_first.set()
    for thread in (leader, *followers):
        thread.join(10)
    assert len(leader_got) == 1
    for index in range(2):
        assert isinstance(others[index], StoreError)
        assert "not known" in str(others[index])
    assert group.waiting == 0


def _run_interrupted(
    group: GroupCommit, work: Callable[[Any], str], drive: Callable[[Callable[[], None]], None]
) -> None:
    """``group.run(work)`` in this (the main) thread, which must raise ``Interrupted``: ``drive``
    runs in a thread of its own and calls the function it is given to interrupt this one (a
    signal whose handler raises, as Ctrl-C's does)."""

    def raise_interrupted(_signal: int, _frame: object) -> None:
        raise Interrupted

    def interrupt() -> None:
        signal.pthread_kill(threading.main_thread().ident or 0, signal.SIGUSR1)

    previous = signal.signal(signal.SIGUSR1, raise_interrupted)
    try:
        driver = threading.Thread(target=drive, args=(interrupt,))
        driver.start()
        with pytest.raises(Interrupted):
            group.run(work)
        driver.join(10)
    finally:
        signal.signal(signal.SIGUSR1, previous)


def test_a_thread_interrupted_while_waiting_takes_its_write_with_it():
    """Its page is neither written later behind its back nor left queued (the leader holds
    the lock meanwhile); the signal stands for Ctrl-C, delivered to the main thread."""
    if threading.current_thread() is not threading.main_thread():
        pytest.skip("signals reach the main thread only")
    database = FakeDatabase()
    group = GroupCommit(database.write)
    leader = threading.Thread(target=group.run, args=(_writer("leader"),))
    leader.start()
    _until(lambda: group.waiting == 1)

    def drive(interrupt: Callable[[], None]) -> None:
        _until(lambda: group.waiting == 2)
        interrupt()

    _run_interrupted(group, _writer("main"), drive)
    assert group.waiting == 1  # the leader's own, still in its transaction
    database.open_first.set()
    leader.join(10)
    assert database.committed == ["leader"]
    group.run(_writer("later"))
    assert database.committed == ["leader", "later"]


def test_a_retried_transaction_writes_its_group_once(tmp_path):
    """SQLite says the database is locked on the first try: the whole group runs again in
    a new transaction, and every page is written once, each thread getting its own result."""
    database = open_database(str(tmp_path / "crawl.db"))
    with database.engine.begin() as connection:
        connection.execute(text("CREATE TABLE written (name TEXT)"))
    tries: list[int] = []

    def write(work: Callable[[Any], Any]) -> Any:
        def locked_the_first_time(connection: Any) -> Any:
            result = work(connection)
            tries.append(1)
            if len(tries) == 1:
                raise sqlite3.OperationalError("database is locked")
            return result

        return database.run(locked_the_first_time)

    group = GroupCommit(write)

    def writer(name: str) -> Callable[[Any], str]:
        def work(connection: Any) -> str:
            connection.execute(text("INSERT INTO written VALUES (:name)"), {"name": name})
            return name.upper()

        return work

    got: dict[str, Any] = {}
    assert database._sqlite_writer is not None
    with database._sqlite_writer.held():  # another writer holds the lock
        threads = [
            threading.Thread(target=lambda name=name: got.update({name: group.run(writer(name))}))
            for name in "abcd"
        ]
        for thread in threads:
            thread.start()
        _until(lambda: group.waiting == 4)
    for thread in threads:
        thread.join(10)
    with database.engine.connect() as connection:
        written = sorted(row[0] for row in connection.execute(text("SELECT name FROM written")))
    database.close()
    assert len(tries) == 2  # one group, tried twice
    assert written == ["a", "b", "c", "d"]
    assert got == {"a": "A", "b": "B", "c": "C", "d": "D"}


def _table_database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Database:
    """A real SQLite database with a table ``written``; ``Database.run``'s pauses between
    tries skipped."""
    monkeypatch.setattr("politecrawl.store.database.time.sleep", lambda _seconds: None)
    database = open_database(str(tmp_path / "crawl.db"))
    with database.engine.begin() as connection:
        connection.execute(text("CREATE TABLE written (name TEXT)"))
    return database


def _inserting(name: str, fails: Callable[[], Exception | None] = lambda: None) -> Any:
    def work(connection: Any) -> str:
        error = fails()
        if error is not None:
            raise error
        connection.execute(text("INSERT INTO written VALUES (:name)"), {"name": name})
        return name.upper()

    return work


def _written(database: Database) -> list[str]:
    with database.engine.connect() as connection:
        return [row[0] for row in connection.execute(text("SELECT name FROM written"))]


def _grouped_on(database: Database, works: list[Any]) -> dict[int, Any]:
    """``works`` given to one ``GroupCommit`` over ``database.run`` by threads that wait
    while another writer holds the lock, so that one transaction takes them all."""
    group = GroupCommit(database.run)
    got: dict[int, Any] = {}

    def run(index: int) -> None:
        try:
            got[index] = group.run(works[index])
        except Exception as error:
            got[index] = error

    assert database._sqlite_writer is not None
    with database._sqlite_writer.held():
        threads = [threading.Thread(target=run, args=(index,)) for index in range(len(works))]
        for thread in threads:
            thread.start()
        _until(lambda: group.waiting == len(works))
    for thread in threads:
        thread.join(10)
    assert group.waiting == 0
    return got


def test_a_lock_error_of_one_work_that_retries_do_not_cure_reaches_every_thread(
    tmp_path, monkeypatch
):
    """ "Database is locked" is the transaction's, whichever statement met it: after the last
    try every thread gets it, and nothing is written."""
    database = _table_database(tmp_path, monkeypatch)
    tries: list[int] = []

    def locked() -> Exception:
        tries.append(1)
        return sqlite3.OperationalError("database is locked")

    got = _grouped_on(database, [_inserting("a"), _inserting("x", locked), _inserting("c")])
    assert len(tries) > 1  # tried again, as a group
    assert all(isinstance(got[index], sqlite3.OperationalError) for index in range(3))
    assert _written(database) == []
    database.close()


def test_a_works_error_is_blamed_on_the_try_it_ended(tmp_path, monkeypatch):
    """x meets a lock on the first try (the group is tried again, y not reached), then y
    fails on the second: y gets its error, and a and x are written without it."""
    database = _table_database(tmp_path, monkeypatch)
    calls = {"x": 0, "y": 0}

    def first_time(name: str, error: Exception) -> Callable[[], Exception | None]:
        def fails() -> Exception | None:
            calls[name] += 1
            return error if calls[name] == 1 else None

        return fails

    got = _grouped_on(
        database,
        [
            _inserting("a"),
            _inserting("x", first_time("x", sqlite3.OperationalError("database is locked"))),
            _inserting("y", first_time("y", ValueError("y's own"))),
        ],
    )
    assert got[0] == "A"
    assert got[1] == "X"
    assert isinstance(got[2], ValueError)
    assert sorted(_written(database)) == ["a", "x"]
    database.close()


def test_an_error_before_the_group_is_taken_reaches_the_waiting_threads_too():
    database = FakeDatabase()

    def write(work: Callable[[list[str]], Any]) -> Any:
        assert database.open_first.wait(10)
        raise OSError("cannot open the database")  # before any work ran

    group = GroupCommit(write)
    threads, got = _run_in_threads(group, [_writer(name) for name in "abc"])
    database.open_first.set()
    for thread in threads:
        thread.join(10)
    assert all(isinstance(got[index], OSError) for index in range(3))
    assert group.waiting == 0


def test_a_thread_interrupted_after_a_leader_took_its_write_waits_for_it():
    if threading.current_thread() is not threading.main_thread():
        pytest.skip("signals reach the main thread only")
    database = FakeDatabase()
    in_work, release = threading.Event(), threading.Event()
    group = GroupCommit(database.write)

    def slow(pending: list[str]) -> str:
        in_work.set()
        assert release.wait(10)
        pending.append("leader")
        return "L"

    leader = threading.Thread(target=group.run, args=(slow,))
    leader.start()
    _until(lambda: group.waiting == 1)

    def drive(interrupt: Callable[[], None]) -> None:
        _until(lambda: group.waiting == 2)
        database.open_first.set()  # the leader takes both, then works on its own page
        assert in_work.wait(10)
        interrupt()
        threading.Timer(0.2, release.set).start()

    _run_interrupted(group, _writer("main"), drive)
    assert database.committed == ["leader", "main"]  # it raised once its write was done
    leader.join(10)
