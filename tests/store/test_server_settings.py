"""A crawl on a PostgreSQL server without vacuuming says so at the start [C5]."""

from __future__ import annotations

import pytest
from tests.store.conftest import POSTGRES_DSN, postgres_schema_url, require_postgres

from politecrawl.store import open_database, server_advice
from politecrawl.store.server_settings import advice_for


def test_c5_a_server_that_vacuums_gets_no_advice():
    assert advice_for({"autovacuum": "on", "track_counts": "on"}) == []


def test_c5_autovacuum_off_is_named_with_the_statement_that_turns_it_on():
    (advice,) = advice_for({"autovacuum": "off", "track_counts": "on"})
    assert advice.startswith("autovacuum is off on this PostgreSQL server")
    assert "ALTER SYSTEM SET autovacuum = on; SELECT pg_reload_conf()" in advice
    assert "track_counts" not in advice


def test_c5_both_settings_off_are_named_together():
    (advice,) = advice_for({"autovacuum": "off", "track_counts": "off"})
    assert advice.startswith("autovacuum and track_counts are off")
    assert "ALTER SYSTEM SET autovacuum = on; ALTER SYSTEM SET track_counts = on" in advice


def test_c5_sqlite_needs_no_vacuuming_advice(tmp_path):
    database = open_database(str(tmp_path / "crawl.db"))
    try:
        assert server_advice(database) == []
    finally:
        database.close()


def _server_setting(name: str) -> str:
    import psycopg

    dsn = POSTGRES_DSN.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(dsn) as connection:
        row = connection.execute(f"SHOW {name}").fetchone()
    assert row is not None
    return str(row[0])


@pytest.mark.postgres
def test_c5_the_servers_own_settings_are_read():
    require_postgres()
    for url in postgres_schema_url():
        # track_counts may be set per session by a superuser: this session's server "forgets"
        # what autovacuum needs; autovacuum itself is the server's, and is read as it is.
        database = open_database(url + "%20-ctrack_counts%3Doff")
        try:
            (advice,) = server_advice(database)
        finally:
            database.close()
        autovacuum_off = _server_setting("autovacuum") == "off"
        named = "autovacuum and track_counts are off" if autovacuum_off else "track_counts is off"
        assert advice.startswith(named), advice
        database = open_database(url)
        try:
            expected = ["autovacuum"] if autovacuum_off else []
            assert [a.split()[0] for a in server_advice(database)] == expected
        finally:
            database.close()


@pytest.mark.postgres
def test_c5_the_advice_reaches_the_user_of_the_command_line(tmp_path):
    require_postgres()
    from tests.test_cli_crawl import politecrawl

    seeds = tmp_path / "seeds.txt"
    seeds.write_text("http://127.0.0.1:9/\n")  # nothing listens: the crawl ends at once
    for url in postgres_schema_url():
        result = politecrawl(
            "run", str(seeds), "--db", url + "%20-ctrack_counts%3Doff", "--quiet", cwd=tmp_path
        )
        assert "politecrawl: warning: " in result.stderr
        assert "ALTER SYSTEM SET track_counts = on" in result.stderr, result.stderr
