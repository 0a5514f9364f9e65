"""Sitemaps in a crawl, read from the servers' own logs and the crawl database [S1-S3, F6].

Small sites of their own (the shared test web's sitemaps are audited in the end-to-end tests):
a robots.txt naming an index of a gzipped urlset and a text file, a guessed /sitemap.xml, a
sitemap that lists another origin, a 60,000-URL sitemap and a gzip bomb.
"""

from __future__ import annotations

import gzip
import json
import sqlite3
import zlib
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import text
from tests.site import Page, Site, serve
from tests.site.model import TEXT, OriginSpec
from tests.store.conftest import postgres_schema_url, require_postgres

from politecrawl import CrawlConfig, Crawler
from politecrawl.store import open_database

XML = "application/xml"
_URLSET = '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n{}</urlset>\n'
_INDEX = '<?xml version="1.0"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n{}</sitemapindex>\n'


def urlset(*locs: str, lastmod: dict[str, str] | None = None) -> bytes:
    lastmod = lastmod or {}
    rows = "".join(
        f"<url><loc>{loc}</loc>"
        + (f"<lastmod>{lastmod[loc]}</lastmod>" if loc in lastmod else "")
        + "</url>\n"
        for loc in locs
    )
    return _URLSET.format(rows).encode()


def html(*links: str) -> Page:
    anchors = "".join(f'<a href="{link}">{link}</a>\n' for link in links)
    return Page(f"<!DOCTYPE html><html><body>{anchors}</body></html>".encode())


def robots(text: str) -> Page:
    return Page(text.encode(), content_type=TEXT)


def site(*origins: OriginSpec) -> Site:
    return Site(seed=0, origins=origins, crawl_delay_seconds=0.0)


def crawl(running, target: str, *, seeds: tuple[str, ...] | None = None, **settings) -> None:
    config = CrawlConfig(database=target, delay_seconds=0.0, **settings)
    with Crawler(config) as crawler:
        crawler.add_seeds(seeds or running.seeds)
        crawler.run()


def paths(running, key: str) -> list[str]:
    host = running.host(key)
    return [r.path_with_query for r in running.log if r.host == host]


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def target(request, tmp_path) -> Iterator[str]:
    if request.param == "sqlite":
        yield str(tmp_path / "crawl.db")
        return
    require_postgres()
    yield from postgres_schema_url()


def rows(target: str, query: str) -> list[tuple]:
    database = open_database(target)
    try:
        with database.engine.connect() as connection:
            return [tuple(row) for row in connection.execute(text(query))]
    finally:
        database.close()


# --- the site of S1/S2 -------------------------------------------------------------------


def _main_site() -> Site:
    main = OriginSpec(
        "main",
        "127.0.0.61",
        {
            "/robots.txt": robots(
                "User-agent: *\nDisallow: /private/\n\n"
                "Sitemap: @@main@@/sitemap_index.xml\nSitemap: @@other@@/vouched.xml\n"
            ),
            "/": html("/linked.html"),
            "/linked.html": html(),
            "/orphan.html": html("/behind-orphan.html"),
            "/behind-orphan.html": html(),
            "/text-listed.html": html(),
            "/private/listed.html": html(),
            "/vouched-page.html": html(),
            "/sitemap_index.xml": Page(
                _INDEX.format(
                    "<sitemap><loc>@@main@@/pages.xml.gz</loc></sitemap>\n"
                    "<sitemap><loc>@@main@@/more.txt</loc></sitemap>\n"
                ).encode(),
                content_type=XML,
            ),
            "/more.txt": Page(b"@@main@@/text-listed.html\n", content_type=TEXT),
        },
    )
    other = OriginSpec(
        "other",
        "127.0.0.62",
        {
            "/robots.txt": robots("User-agent: *\nDisallow:\n"),
            "/": html(),
            "/not-ours.html": html(),
            # named by main's robots.txt, so it may list main's URLs (cross-submission)
            "/vouched.xml": Page(urlset("@@main@@/vouched-page.html"), content_type=XML),
            "/sitemap.xml": Page(urlset("@@other@@/guessed.html"), content_type=XML),
            "/guessed.html": html(),
        },
    )
    return site(main, other)


def filled(running, template: bytes) -> bytes:
    """``template`` with its placeholders filled in (a gzip body is served as it is)."""
    for key, base in running.bases.items():
        template = template.replace(f"@@{key}@@".encode(), base.encode())
    return template


@pytest.fixture
def main_web():
    with serve(_main_site()) as running:
        listed = urlset(
            "@@main@@/orphan.html",
            "@@main@@/linked.html",
            "@@main@@/private/listed.html",
            "@@other@@/not-ours.html",
            lastmod={"@@main@@/orphan.html": "2020-01-02"},
        )
        gzipped = gzip.compress(filled(running, listed))
        running.set_page("main", "/pages.xml.gz", Page(gzipped, content_type="application/gzip"))
        yield running


def test_s1_s2_robots_named_sitemaps_are_read_after_robots_txt_and_what_they_list_is_crawled(
    main_web, target
):
    crawl(main_web, target)
    main = paths(main_web, "main")
    assert main[0] == "/robots.txt"  # O2: before anything else, the sitemaps included
    for path in ("/sitemap_index.xml", "/pages.xml.gz", "/more.txt"):
        assert main.count(path) == 1, path
    # listed by the gzipped urlset (an index's child), by the text file, by a vouched sitemap
    for path in ("/orphan.html", "/behind-orphan.html", "/text-listed.html", "/vouched-page.html"):
        assert main.count(path) == 1, path
    assert "/private/listed.html" not in main  # listed, but robots.txt forbids it
    other = paths(main_web, "other")
    assert other.count("/vouched.xml") == 1
    assert "/not-ours.html" not in other  # main's sitemap may not list other's URLs
    assert other.count("/sitemap.xml") == 1
    assert other.count("/guessed.html") == 1

    sitemaps = {
        url.rsplit("/", 1)[1]: (source, fmt, entries, other_origins)
        for url, source, fmt, entries, other_origins in rows(
            target,
            "SELECT u.url, s.source, s.format, s.entries, s.other_origins "
            "FROM sitemaps s JOIN urls u ON u.id = s.url_id",
        )
    }
    assert sitemaps == {
        "sitemap_index.xml": ("robots", "index", 2, 0),
        "pages.xml.gz": ("index", "urlset", 4, 1),
        "more.txt": ("index", "text", 1, 0),
        "vouched.xml": ("robots", "urlset", 1, 0),
        "sitemap.xml": ("guess", "urlset", 1, 0),
    }
    listed = rows(
        target,
        "SELECT u.url, u.state, e.lastmod_text, e.line FROM sitemap_entries e "
        "JOIN urls u ON u.id = e.url_id ORDER BY u.url",
    )
    by_path = {url.split("/", 3)[3]: (state, text, line) for url, state, text, line in listed}
    assert by_path["orphan.html"] == ("done", "2020-01-02", 3)
    assert by_path["private/listed.html"][0] == "excluded"
    assert "not-ours.html" not in by_path
    # a listing is not a link: the orphan has no referrer page
    orphan_links = rows(
        target,
        "SELECT COUNT(*) FROM links JOIN urls ON urls.id = links.to_id "
        "WHERE urls.url LIKE '%/orphan.html'",
    )
    assert orphan_links == [(0,)]


def test_s1_sitemap_xml_is_tried_only_when_robots_txt_names_none_and_the_settings_allow(
    main_web, tmp_path
):
    crawl(main_web, str(tmp_path / "a.db"), sitemap_guess=False)
    assert "/sitemap.xml" not in paths(main_web, "other")
    assert paths(main_web, "main").count("/sitemap_index.xml") == 1
    main_web.log.clear()
    crawl(main_web, str(tmp_path / "b.db"), sitemaps=False)
    requested = paths(main_web, "main") + paths(main_web, "other")
    read = {"/sitemap_index.xml", "/pages.xml.gz", "/more.txt", "/vouched.xml", "/sitemap.xml"}
    assert read.isdisjoint(requested)
    assert "/orphan.html" not in requested


@pytest.mark.parametrize("check_outbound", [False, True])
def test_s1_c1_a_sitemap_on_a_host_out_of_scope_is_never_requested(
    main_web, tmp_path, check_outbound
):
    # not read, and not checked as a link either: no page links to it
    crawl(
        main_web,
        str(tmp_path / "c.db"),
        seeds=(main_web.url("main"),),
        check_outbound=check_outbound,
    )
    assert paths(main_web, "other") == []  # its vouched.xml included, robots.txt included
    assert paths(main_web, "main").count("/orphan.html") == 1


def test_s2_a_sitemap_that_redirects_is_read_at_its_target(tmp_path):
    origin = OriginSpec(
        "main",
        "127.0.0.63",
        {
            "/robots.txt": robots("User-agent: *\nDisallow:\nSitemap: @@main@@/old.xml\n"),
            "/": html(),
            "/old.xml": Page(b"", status=301, headers=(("Location", "/new.xml"),)),
            "/new.xml": Page(urlset("@@main@@/listed.html"), content_type=XML),
            "/listed.html": html(),
        },
    )
    with serve(site(origin)) as running:
        crawl(running, str(tmp_path / "r.db"))
        assert paths(running, "main").count("/listed.html") == 1
    kinds = dict(rows(str(tmp_path / "r.db"), "SELECT url, kind FROM urls WHERE url LIKE '%.xml'"))
    assert set(kinds.values()) == {"sitemap"}


# --- limits of hostile files (S2) ----------------------------------------------------------


def test_s2_a_60000_url_sitemap_is_read_to_its_50000th_url_and_marked_cut_off(tmp_path):
    locs = [f"@@big@@/p/{number}.html" for number in range(60_000)]
    origin = OriginSpec(
        "big",
        "127.0.0.64",
        {
            "/robots.txt": robots("User-agent: *\nDisallow:\nSitemap: @@big@@/big.xml\n"),
            "/": html(),
        },
    )
    with serve(site(origin)) as running:
        running.set_page("big", "/big.xml", Page(filled(running, urlset(*locs)), content_type=XML))
        # one page after the sitemap (one host: one request at a time), then the limit stops it
        crawl(running, str(tmp_path / "big.db"), max_pages=2)
        requested = paths(running, "big")
    assert requested[:3] == ["/robots.txt", "/", "/big.xml"]
    assert requested[3:] == ["/p/0.html"]  # what it lists is crawled, in its order
    database = sqlite3.connect(tmp_path / "big.db")
    entries, truncated, problems = database.execute(
        "SELECT entries, truncated, problems FROM sitemaps"
    ).fetchone()
    assert (entries, truncated) == (50_000, 1)
    assert "more than 50000 entries" in json.loads(problems)[0]
    assert database.execute("SELECT COUNT(*) FROM sitemap_entries").fetchone() == (50_000,)


def test_s2_a_gzip_bomb_sitemap_is_cut_off_without_being_inflated_whole(tmp_path):
    origin = OriginSpec(
        "bomb",
        "127.0.0.65",
        {
            "/robots.txt": robots("User-agent: *\nDisallow:\nSitemap: @@bomb@@/bomb.xml.gz\n"),
            "/": html(),
            "/kept.html": html(),
        },
    )
    with serve(site(origin)) as running:
        head = filled(running, urlset("@@bomb@@/kept.html")[: -len(b"</urlset>\n")])
        compressor = zlib.compressobj(9, zlib.DEFLATED, 31)
        bomb = compressor.compress(head) + compressor.compress(bytes(200 << 20))
        bomb += compressor.flush()
        assert len(bomb) < 1 << 20
        running.set_page("bomb", "/bomb.xml.gz", Page(bomb, content_type="application/gzip"))
        crawl(running, str(tmp_path / "bomb.db"))
        assert paths(running, "bomb").count("/kept.html") == 1
    truncated, problems = (
        sqlite3.connect(tmp_path / "bomb.db")
        .execute("SELECT truncated, problems FROM sitemaps")
        .fetchone()
    )
    assert truncated == 1
    assert any("cut off at 52428800 bytes" in problem for problem in json.loads(problems))


# --- lastmod (S3) --------------------------------------------------------------------------


def test_s3_a_recrawl_skips_what_the_sitemap_says_is_unchanged_and_fetches_what_changed(
    tmp_path: Path,
):
    origin = OriginSpec(
        "main",
        "127.0.0.66",
        {
            "/robots.txt": robots("User-agent: *\nDisallow:\nSitemap: @@main@@/s.xml\n"),
            "/": html("/old.html", "/new.html"),
            "/old.html": html(),
            "/new.html": html(),
            "/s.xml": Page(
                urlset(
                    "@@main@@/old.html",
                    "@@main@@/new.html",
                    lastmod={"@@main@@/old.html": "2001-01-01", "@@main@@/new.html": "2999-01-01"},
                ),
                content_type=XML,
            ),
        },
    )
    target = str(tmp_path / "s3.db")
    with serve(site(origin)) as running:
        crawl(running, target)
        running.log.clear()
        config = CrawlConfig(database=target, delay_seconds=0.0, sitemap_lastmod="skip")
        with Crawler(config) as crawler:
            for _ in crawler.recrawl():
                pass
        again = paths(running, "main")
    assert "/old.html" not in again  # its sitemap lastmod (2001) is older than our fetch
    assert again.count("/new.html") == 1  # 2999: changed since, for all we know
    assert again.count("/s.xml") == 1  # the sitemap itself is read again every pass
    skipped = rows(target, "SELECT url, state FROM urls WHERE reason = 'sitemap-unchanged'")
    assert [(url.rsplit("/", 1)[1], state) for url, state in skipped] == [("old.html", "done")]


def test_s1_c5_sitemaps_missed_when_robots_txt_was_read_are_queued_when_the_crawl_resumes(
    main_web, tmp_path
):
    # robots.txt read and recorded, its sitemaps not queued: as a crawl killed between the two
    # writes leaves it (here: a first run without sitemaps). The next run queues them.
    target = str(tmp_path / "resume.db")
    config = CrawlConfig(database=target, delay_seconds=0.0, sitemaps=False, max_pages=1)
    with Crawler(config) as crawler:
        crawler.add_seeds([main_web.url("main")])
        crawler.run()
    assert "/sitemap_index.xml" not in paths(main_web, "main")
    with Crawler(config.replace(sitemaps=True, max_pages=None)) as crawler:
        crawler.run()
    main = paths(main_web, "main")
    assert main.count("/robots.txt") == 1  # still fresh: not fetched again
    assert main.count("/sitemap_index.xml") == 1
    assert main.count("/orphan.html") == 1
