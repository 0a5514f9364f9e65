"""Crawl-database fixtures: every store test runs on SQLite and on PostgreSQL (SPEC C5).

PostgreSQL is the server on 127.0.0.1:5432 (user postgres, database test); each test gets a
schema of its own. Without a server the PostgreSQL half is skipped, except in CI (CI=true),
where a skip would hide a broken half and so is a failure.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator

import pytest

POSTGRES_DSN = os.environ.get(
    "POLITECRAWL_TEST_POSTGRES", "postgresql+psycopg://postgres@127.0.0.1:5432/test"
)


def _postgres_unavailable() -> str | None:
    try:
        import psycopg
    except ImportError as error:
        return f"psycopg is not installed: {error}"
    dsn = POSTGRES_DSN.replace("postgresql+psycopg://", "postgresql://")
    try:
        psycopg.connect(dsn, connect_timeout=3).close()
    except psycopg.Error as error:
        return f"no PostgreSQL at {dsn}: {error}"
    return None


def require_postgres() -> None:
    """Skip without a server; fail instead in CI."""
    reason = _postgres_unavailable()
    if reason is None:
        return
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI must run the PostgreSQL tests: {reason}")
    pytest.skip(reason)


def postgres_schema_url() -> Iterator[str]:
    """A SQLAlchemy URL whose connections live in a fresh schema, dropped afterwards."""
    import psycopg

    schema = f"t_{uuid.uuid4().hex[:12]}"
    dsn = POSTGRES_DSN.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(dsn, autocommit=True) as connection:
        connection.execute(f'CREATE SCHEMA "{schema}"')
    try:
        yield f"{POSTGRES_DSN}?options=-csearch_path%3D{schema}"
    finally:
        with psycopg.connect(dsn, autocommit=True) as connection:
            connection.execute(f'DROP SCHEMA "{schema}" CASCADE')


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def database_url(request, tmp_path) -> Iterator[str]:
    """A crawl database target on each back end: a SQLite path, or a PostgreSQL URL."""
    if request.param == "sqlite":
        yield str(tmp_path / "crawl.db")
        return
    require_postgres()
    yield from postgres_schema_url()


@pytest.fixture
def database(database_url):
    from politecrawl.store import open_database

    db = open_database(database_url)
    yield db
    db.close()


BACK_ENDS = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]
"""The ``params`` of a fixture that runs its tests on each back end."""


def built_database(back_end: str, tmp_path_factory, build, name: str):
    """A crawl database on ``back_end`` (a SQLite file under ``name``, or a PostgreSQL schema of
    its own), filled by ``build(database)``; yields it, then closes it and drops the schema.
    For module-scoped report fixtures that share one read-only crawl."""
    from politecrawl.store import open_database

    if back_end == "sqlite":
        targets: Iterator[str] = iter([str(tmp_path_factory.mktemp(name) / "crawl.db")])
    else:
        require_postgres()
        targets = postgres_schema_url()
    database = open_database(next(targets))
    build(database)
    yield database
    database.close()
    next(targets, None)  # drops the PostgreSQL schema
