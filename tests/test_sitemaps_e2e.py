"""Sitemaps on the shared test web, judged from the servers' log and the report [S1-S4, F6].

The test web's sitemap origins (tests/site/build_sitemaps.py): robots.txt naming an index of a
gzipped urlset and a text file plus a second urlset, a guessed /sitemap.xml, a sitemap on a host
out of scope, a gzip bomb. Their ground truth is computed by the oracle's own sitemap reader
(tests/site/sitemap_reader.py), never by politecrawl's.
"""

from __future__ import annotations

import pytest
from tests.site import audit, build_site, serve
from tests.site.canonical import origin_of
from tests.test_crawl_e2e import DELAY, GUARD, crawl_config

from politecrawl import Crawler
from politecrawl.report import build_report, render_json, render_text
from politecrawl.store import open_database


@pytest.fixture(scope="module")
def crawled(tmp_path_factory):
    """One crawl of the whole test web with the default sitemap settings: the web, its log,
    the truth and the report."""
    with serve(build_site(crawl_delay_seconds=0.1, slow_seconds=0.3)) as web:
        database = str(tmp_path_factory.mktemp("sitemaps") / "crawl.db")
        with Crawler(crawl_config(database)) as crawler:
            crawler.add_seeds(web.seeds)
            crawler.run()
            summary = crawler.summary
        opened = open_database(database)
        try:
            report = build_report(opened, agent="politecrawl")
        finally:
            opened.close()
        yield web, web.log.snapshot(), web.truth(guard=GUARD), report, summary


def test_s1_s2_the_crawl_with_sitemaps_obeys_every_rule_of_the_test_web(crawled):
    _web, log, truth, _, _ = crawled
    result = audit(log, truth, delays=truth.delays(DELAY))
    assert result.ok, result.report()
    requested = {request.url for request in log}
    for url in truth.sitemaps:
        assert url in requested, url  # every sitemap a polite crawl reads was read
    reachable_orphans = truth.orphans - truth.listed_disallowed  # linked from no page
    assert reachable_orphans
    assert reachable_orphans <= requested


def test_s1_o2_each_sitemap_is_requested_after_its_origins_robots_txt_and_once(crawled):
    _, log, truth, _, _ = crawled
    first_robots: dict[str, int] = {}
    for index, request in enumerate(log):
        if request.path_with_query == "/robots.txt":
            first_robots.setdefault(request.origin, index)
    for url, sitemap in truth.sitemaps.items():
        indexes = [index for index, request in enumerate(log) if request.url == url]
        assert len(indexes) == 1 or sitemap.status >= 500, (url, indexes)
        assert first_robots[origin_of(url)] < indexes[0], url


def test_s2_a_gzip_bomb_sitemap_is_read_once_and_nothing_after_its_cut_is_fetched(crawled):
    web, log, _truth, report, _ = crawled
    bomb = web.url("sitemap-bomb", "/sitemaps/bomb.xml.gz")
    assert [request.url for request in log].count(bomb) == 1
    assert web.url("sitemap-bomb", "/after-the-cut.html") not in {r.url for r in log}
    read = {sitemap.url: sitemap for sitemap in report.sitemaps.sitemaps}
    assert read[bomb].truncated
    assert read[bomb].failed


def test_s1_c1_a_sitemap_on_a_host_out_of_scope_is_never_requested(crawled):
    web, log, _, _, _ = crawled
    outside = web.host("outside")
    assert [request.url for request in log if request.host == outside] == []


def test_s4_the_report_audits_the_sitemaps_as_the_truth_does(crawled):
    _, _, truth, report, _ = crawled
    audit_ = report.sitemaps
    assert {sitemap.url for sitemap in audit_.sitemaps} >= set(truth.sitemaps)
    failed = {sitemap.url for sitemap in audit_.sitemaps if sitemap.failed}
    guessed_absent = {
        url
        for url, sitemap in truth.sitemaps.items()
        if sitemap.source == "guess" and sitemap.status in (404, 410)
    }
    assert guessed_absent  # most origins of the test web have no sitemap: no fault of theirs
    assert {s.url for s in audit_.sitemaps if s.outcome == "absent"} == guessed_absent
    assert failed & set(truth.sitemaps) == set(truth.sitemaps_failed) - guessed_absent
    problems: dict[str, set[str]] = {}
    for problem in audit_.listed_problems:
        problems.setdefault(problem.problem, set()).add(problem.url)
    assert problems.get("broken", set()) == truth.listed_broken
    assert problems.get("redirected", set()) == truth.listed_redirected
    assert problems.get("noindex", set()) == truth.listed_noindex
    assert problems.get("disallowed", set()) == truth.listed_disallowed
    assert problems.get("out_of_scope", set()) == truth.listed_out_of_scope
    assert problems.get("not_canonical", set()) == set(truth.listed_not_canonical)
    assert {orphan.url for orphan in audit_.orphans} == truth.orphans
    assert {page.url for page in audit_.missing} == truth.missing_from_sitemaps
    lastmods: dict[str, set[str]] = {}
    for found in audit_.lastmod_problems:
        lastmods.setdefault(found.problem, set()).add(found.url)
    assert lastmods.get("future", set()) == truth.lastmod_future
    assert lastmods.get("malformed", set()) == truth.lastmod_malformed
    for category in ("broken", "disallowed", "noindex", "redirected", "not_canonical"):
        assert problems.get(category), f"the test web has no listed URL that is {category}"


def test_s4_sitemaps_are_not_pages_in_the_report_or_the_counts(crawled):
    _, log, truth, report, summary = crawled
    broken = {link.url for link in report.broken_links}
    assert not broken & set(truth.sitemaps)  # a guessed /sitemap.xml's 404 is not a broken link
    # a broken URL no page links to says which sitemap made the crawl fetch it
    listed_only = [b for b in report.broken_links if b.url in truth.listed_broken & truth.orphans]
    assert listed_only
    assert all(item.listed_in and not item.referrers for item in listed_only)
    assert "(no page links here: listed in " in render_text(report)
    # S1: the sitemaps read, those that answered 2xx (a guessed /sitemap.xml's 404 is not one)
    read = {r.url for r in log if r.url in truth.sitemaps and 200 <= r.status < 300}
    assert summary.sitemaps == len(read)
    text = render_text(report)
    assert "Sitemaps" in text
    assert '"sitemaps"' in render_json(report)
