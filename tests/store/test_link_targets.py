"""The index of links by target: dropped while a crawl run writes, built as it ends or when a
reading needs it (``store.link_targets``) [L1, S4]."""

from __future__ import annotations

import uuid

import pytest
from tests.store.conftest import postgres_schema_url, require_postgres

from politecrawl import CrawlConfig, Crawler
from politecrawl.store import (
    Database,
    drop_link_target_index,
    ensure_link_target_index,
    open_database,
)
from politecrawl.store.reading.link_targets import has_link_target_index
from politecrawl.store.reading.pages import referrers, url_history
from politecrawl.testing import Answer, ScriptedFetcher

SITE = "http://shop.test"
SCRIPT = {
    f"{SITE}/robots.txt": Answer(200, "User-agent: *\nAllow: /\n"),
    f"{SITE}/": Answer(200, '<a href="/a">to a</a> <a href="/gone">gone</a>'),
    f"{SITE}/a": Answer(200, '<a href="/gone">gone again</a>'),
    f"{SITE}/gone": Answer(404, "no"),
}


def test_a_new_database_has_no_target_index_and_it_is_built_and_dropped_on_demand(database):
    assert not has_link_target_index(database)
    ensure_link_target_index(database)
    ensure_link_target_index(database)  # once built, nothing more
    assert has_link_target_index(database)
    drop_link_target_index(database)
    drop_link_target_index(database)
    assert not has_link_target_index(database)


def test_l1_a_crawl_run_writes_without_the_index_and_leaves_it_built(database_url):
    seen_during: list[bool] = []
    config = CrawlConfig(database=database_url, delay_seconds=0.0, workers=1, sitemaps=False)
    with Crawler(config, fetcher=ScriptedFetcher(SCRIPT)) as crawler:
        crawler.add_seeds([f"{SITE}/"])
        assert crawler.database is not None
        ensure_link_target_index(crawler.database)  # e.g. a report read the crawl before
        for _ in crawler.crawl():
            seen_during.append(has_link_target_index(crawler.database))
    assert seen_during
    assert not any(seen_during)
    database = open_database(database_url)
    try:
        assert has_link_target_index(database)
    finally:
        database.close()


def _crawled_without_index(database_url: str) -> Database:
    """The scripted site crawled into ``database_url``, then its index dropped, as a run
    killed before its end (or still running) leaves it; open, for the caller to close."""
    config = CrawlConfig(database=database_url, delay_seconds=0.0, workers=1, sitemaps=False)
    with Crawler(config, fetcher=ScriptedFetcher(SCRIPT)) as crawler:
        crawler.add_seeds([f"{SITE}/"])
        crawler.run()
    database = open_database(database_url)
    drop_link_target_index(database)
    return database


def test_l1_referrers_build_the_index_when_a_killed_crawl_left_none(database_url):
    database = _crawled_without_index(database_url)
    try:
        gone_id = next(row.id for row in _urls(database) if row.url == f"{SITE}/gone")
        linking = referrers(database, [gone_id])[gone_id]
        assert sorted(row.url for row in linking) == [f"{SITE}/", f"{SITE}/a"]
        assert has_link_target_index(database)
    finally:
        database.close()


def test_l1_why_reads_without_building_the_index(database_url):
    # One URL's question does not build the index for a whole (maybe live) crawl.
    database = _crawled_without_index(database_url)
    try:
        history = url_history(database, f"{SITE}/gone")
        assert history is not None
        assert sorted(row.url for row in history.referrers) == [f"{SITE}/", f"{SITE}/a"]
        assert not has_link_target_index(database)
    finally:
        database.close()


@pytest.mark.postgres
def test_l1_a_role_that_can_only_read_gets_its_report_without_the_index():
    # PostgreSQL: a report read by a SELECT-only role cannot build the index, and reads without.
    require_postgres()
    role = f"reader_{uuid.uuid4().hex[:8]}"
    for url in postgres_schema_url():
        config = CrawlConfig(database=url, delay_seconds=0.0, workers=1, sitemaps=False)
        with Crawler(config, fetcher=ScriptedFetcher(SCRIPT)) as crawler:
            crawler.add_seeds([f"{SITE}/"])
            crawler.run()
            assert crawler.database is not None
            drop_link_target_index(crawler.database)
            schema = url.rsplit("%3D", 1)[1]
            with crawler.database.engine.begin() as connection:
                connection.exec_driver_sql(f"CREATE ROLE {role} LOGIN")
                connection.exec_driver_sql(f'GRANT USAGE ON SCHEMA "{schema}" TO {role}')
                connection.exec_driver_sql(
                    f'GRANT SELECT ON ALL TABLES IN SCHEMA "{schema}" TO {role}'
                )
        reader = open_database(url.replace("//postgres@", f"//{role}@"), create=False)
        try:
            gone_id = next(row.id for row in _urls(reader) if row.url == f"{SITE}/gone")
            linking = referrers(reader, [gone_id])[gone_id]
            assert sorted(row.url for row in linking) == [f"{SITE}/", f"{SITE}/a"]
            assert not has_link_target_index(reader)
        finally:
            reader.close()
            owner = open_database(url, create=False)
            with owner.engine.begin() as connection:
                connection.exec_driver_sql(
                    f'REVOKE ALL ON ALL TABLES IN SCHEMA "{schema}" FROM {role}'
                )
                connection.exec_driver_sql(f'REVOKE USAGE ON SCHEMA "{schema}" FROM {role}')
                connection.exec_driver_sql(f"DROP ROLE {role}")
            owner.close()


def _urls(database):
    from sqlalchemy import text

    with database.engine.connect() as connection:
        return connection.execute(text("SELECT id, url FROM urls")).all()
