"""SQLite's log is copied back after every few write transactions, with the writer lock free [C5].

What the log holds and how much of it is copied back are read from SQLite's WAL index (the
``-shm`` file), so that the test itself checkpoints nothing.
"""

from __future__ import annotations

import dataclasses
import sqlite3
import struct
from pathlib import Path

import pytest
from sqlalchemy import text

from politecrawl.store import open_database
from politecrawl.store.wal_checkpoints import WalCheckpoints


def _log_frames_and_copied(path: Path) -> tuple[int, int]:
    """``(mxFrame, nBackfill)`` from the WAL index: the frames in the log, those copied back."""
    header = Path(f"{path}-shm").read_bytes()[:100]
    (frames,) = struct.unpack_from("=I", header, 16)  # WalIndexHdr.mxFrame
    (copied,) = struct.unpack_from("=I", header, 96)  # WalCkptInfo.nBackfill
    return frames, copied


def _write(database, value: int) -> None:
    with database.transaction() as connection:
        connection.execute(text("INSERT INTO scratch VALUES (:value)"), {"value": value})


@pytest.fixture
def sqlite_database(tmp_path):
    path = tmp_path / "crawl.db"
    database = open_database(str(path))
    with database.transaction() as connection:
        connection.execute(text("CREATE TABLE scratch (value INTEGER)"))
    yield path, database
    database.close()


def test_c5_the_log_is_copied_back_after_every_few_commits(sqlite_database):
    path, database = sqlite_database
    database = dataclasses.replace(database, _wal_checkpoints=WalCheckpoints(every=4))
    for value in range(3):
        _write(database, value)
    frames, copied = _log_frames_and_copied(path)
    assert frames > 0
    assert copied < frames  # three commits: not yet
    _write(database, 3)
    frames, copied = _log_frames_and_copied(path)
    assert copied == frames > 0
    with database.engine.connect() as connection:
        count = connection.execute(text("SELECT count(*) FROM scratch")).scalar()
    assert count == 4


def test_c5_the_checkpoint_runs_once_the_writer_lock_is_released(sqlite_database):
    _path, database = sqlite_database
    held_during_checkpoint: list[bool] = []

    class Recording(WalCheckpoints):
        def committed(self, connection: sqlite3.Connection) -> None:
            held_during_checkpoint.append(database._sqlite_writer._threads.locked())
            super().committed(connection)

    database = dataclasses.replace(database, _wal_checkpoints=Recording(every=1))
    _write(database, 1)
    assert held_during_checkpoint == [False]


def test_c5_a_checkpoint_that_fails_leaves_the_commit_done(sqlite_database, monkeypatch):
    _path, database = sqlite_database
    failures: list[str] = []

    class Failing:
        """A driver connection whose checkpoint fails (a full disk)."""

        def execute(self, statement: str):
            failures.append(statement)
            raise sqlite3.OperationalError("database or disk is full")

    checkpoints = WalCheckpoints(every=1)
    real = checkpoints.committed
    monkeypatch.setattr(checkpoints, "committed", lambda _connection: real(Failing()))
    database = dataclasses.replace(database, _wal_checkpoints=checkpoints)
    _write(database, 1)
    assert failures == ["PRAGMA wal_checkpoint(PASSIVE)"]
    with database.engine.connect() as connection:
        assert connection.execute(text("SELECT value FROM scratch")).scalar() == 1


def test_c5_sqlite_checkpoints_by_itself_only_past_its_bound(sqlite_database):
    _path, database = sqlite_database
    with database.engine.connect() as connection:
        pages = connection.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar()
    assert pages == 10_000
