"""The index of links by target: dropped while a crawl run writes, built as it ends or when a
reading needs it (``store.link_targets``) [L1, S4]."""

from __future__ import annotations

from politecrawl import CrawlConfig, Crawler
from politecrawl.store import (
    drop_link_target_index,
    ensure_link_target_index,
    open_database,
)
from politecrawl.store.link_targets import has_link_target_index
from politecrawl.store.reading import referrers
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


def test_l1_referrers_build_the_index_when_a_killed_crawl_left_none(database_url):
    config = CrawlConfig(database=database_url, delay_seconds=0.0, workers=1, sitemaps=False)
    with Crawler(config, fetcher=ScriptedFetcher(SCRIPT)) as crawler:
        crawler.add_seeds([f"{SITE}/"])
        crawler.run()
    database = open_database(database_url)
    try:
        drop_link_target_index(database)  # as a run killed before its end leaves it
        gone_id = next(row.id for row in _urls(database) if row.url == f"{SITE}/gone")
        linking = referrers(database, [gone_id])[gone_id]
        assert sorted(row.url for row in linking) == [f"{SITE}/", f"{SITE}/a"]
        assert has_link_target_index(database)
    finally:
        database.close()


def _urls(database):
    from sqlalchemy import text

    with database.engine.connect() as connection:
        return connection.execute(text("SELECT id, url FROM urls")).all()
