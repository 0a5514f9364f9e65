"""Revision 0009 (issue 40): a page writes fewer trees; a crawl's links survive it [C6]."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from alembic import command
from sqlalchemy import create_engine

from politecrawl.store import open_database
from politecrawl.store.database import _alembic_config, to_url
from politecrawl.store.reading.link_targets import INDEX_NAME

_LINKS = [(1, 2, 0, "two", 3, 0), (1, 3, 1, None, None, 1), (2, 1, 0, "one", 9, 0)]


def _migrate(path: Path, revision: str, *, down: bool = False) -> None:
    engine = create_engine(to_url(str(path)))
    config = _alembic_config()
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        (command.downgrade if down else command.upgrade)(config, revision)
    engine.dispose()


def _crawl_at_0008(path: Path) -> None:
    """A crawl database at 0008 with three URLs, their links and the index by target."""
    _migrate(path, "0008")
    with sqlite3.connect(path) as db:
        db.execute(
            "INSERT INTO hosts (id, host, active, next_fetch_at, in_flight, max_in_flight, "
            "delay_seconds, backoff_seconds, error_streak) "
            "VALUES (1, 'a.test', 1, 0, 0, 1, 1, 0, 0)"
        )
        db.execute(
            "INSERT INTO origins (id, origin, host_id, robots_failures, tdmrep_failures) "
            "VALUES (1, 'http://a.test', 1, 0, 0)"
        )
        db.executemany(
            "INSERT INTO urls (id, url_key, url, origin_id, host_id, depth, priority, state, "
            "pass_number, discovered_at, attempts, redirect_hops, kind) "
            "VALUES (?, ?, ?, 1, 1, 0, 0, 'done', 1, 0, 0, 0, 'page')",
            [(n, bytes([n]) * 16, f"http://a.test/{n}") for n in (1, 2, 3)],
        )
        db.executemany("INSERT INTO links VALUES (?, ?, ?, ?, ?, ?)", _LINKS)
        db.execute(f"CREATE INDEX {INDEX_NAME} ON links (to_id)")


def _links_sql(path: Path) -> str:
    with sqlite3.connect(path) as db:
        (sql,) = db.execute("SELECT sql FROM sqlite_master WHERE name = 'links'").fetchone()
    return str(sql)


def _index_names(path: Path) -> set[str]:
    with sqlite3.connect(path) as db:
        rows = db.execute("SELECT name FROM sqlite_master WHERE type = 'index'")
        return {name for (name,) in rows}


def _links(path: Path) -> list[tuple[object, ...]]:
    with sqlite3.connect(path) as db:
        return db.execute("SELECT * FROM links ORDER BY from_id, to_id").fetchall()


def test_c6_a_new_sqlite_database_keeps_links_without_rowid(tmp_path):
    open_database(str(tmp_path / "new.db")).close()
    assert _links_sql(tmp_path / "new.db").rstrip().upper().endswith("WITHOUT ROWID")
    assert "ix_urls_origin_state" not in _index_names(tmp_path / "new.db")


def test_c6_upgrading_to_0009_keeps_every_link_and_the_index_by_target(tmp_path):
    path = tmp_path / "old.db"
    _crawl_at_0008(path)
    assert not _links_sql(path).upper().rstrip().endswith("WITHOUT ROWID")
    assert "ix_urls_origin_state" in _index_names(path)
    open_database(str(path)).close()  # upgrades on open
    assert _links_sql(path).rstrip().upper().endswith("WITHOUT ROWID")
    assert _links(path) == _LINKS
    indexes = _index_names(path)
    assert INDEX_NAME in indexes
    assert "ix_urls_origin_state" not in indexes
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA foreign_key_check").fetchall() == []


def test_c6_downgrading_from_0009_gives_back_the_rowid_table_and_the_index(tmp_path):
    path = tmp_path / "old.db"
    _crawl_at_0008(path)
    _migrate(path, "0009")
    _migrate(path, "0008", down=True)
    assert not _links_sql(path).upper().rstrip().endswith("WITHOUT ROWID")
    assert _links(path) == _LINKS
    assert {"ix_urls_origin_state", INDEX_NAME} <= _index_names(path)
