"""Recrawls end to end: crawl, change the site, recrawl, and report exactly what changed; the
servers' log shows unchanged pages answered 304 and no page fetched twice in the pass [E3]."""

from __future__ import annotations

import os
import subprocess
import sys
from collections import Counter

import pytest
from tests.site import Page, build_site, serve

from politecrawl import CrawlConfig, Crawler
from politecrawl.store import open_database
from politecrawl.store.reading import compare_passes

DELAY = 0.02


@pytest.fixture
def small_web():
    with serve(build_site(crawl_delay_seconds=0.05, slow_seconds=0.1)) as running:
        yield running


def config(database: str) -> CrawlConfig:
    return CrawlConfig(database=database, delay_seconds=DELAY, workers=4, max_retries=0)


def change_the_site(web) -> dict[str, set[str]]:
    """Edit, remove and add pages, change robots.txt, break a page; return what to expect."""
    friend, other = "friend", "robots-404"
    web.set_body(friend, "/p/1.html", "<html><title>friend 1</title><p>edited</p></html>")
    web.remove_page(other, "/p/2.html")
    web.set_body(
        other,
        "/p/3.html",
        '<html><title>3</title><a href="4.html?">4</a><a href="new.html">new</a></html>',
    )
    web.set_page(other, "/p/new.html", Page(b"<html><title>new</title></html>"))
    web.set_robots(friend, "User-agent: *\nDisallow: /private/\nDisallow: /p/4.html\n")
    web.set_page(other, "/p/5.html", Page(b"down", 500))
    return {
        "changed": {web.url(friend, "/p/1.html"), web.url(other, "/p/3.html")},
        "new": {web.url(other, "/p/new.html")},
        "gone": {web.url(other, "/p/2.html")},
        # p/2 is gone, and other pages still link to it: a link newly broken too (issue 38).
        "newly_broken": {web.url(other, "/p/5.html"), web.url(other, "/p/2.html")},
        "newly_excluded_by_robots": {web.url(friend, "/p/4.html")},
    }


def test_recrawl_reports_what_changed_and_costs_little(small_web, tmp_path):
    web = small_web
    seeds = [web.url("friend", "/"), web.url("robots-404", "/")]
    database = str(tmp_path / "crawl.db")
    with Crawler(config(database)) as crawler:
        crawler.add_seeds(seeds)
        first = list(crawler.crawl())
    first_requests = len(web.log)
    first_bytes = sum(len(page.body) for page in first)
    expected = change_the_site(web)

    web.log.clear()
    with Crawler(config(database)) as crawler:
        second = list(crawler.recrawl())
    log = web.log.snapshot()

    opened = open_database(database)
    comparison = compare_passes(opened)
    opened.close()
    assert comparison is not None
    assert (comparison.before, comparison.after) == (1, 2)
    for category, urls in expected.items():
        assert set(getattr(comparison, category)) == urls, category
    fetched_first = {page.url for page in first if page.ok}
    touched = set().union(*expected.values())
    assert set(comparison.unchanged) == fetched_first - touched
    assert comparison.fixed == []
    assert comparison.redirect_changed == []

    # From the servers' log: every unchanged page answered 304, nothing fetched twice.
    pages = [request for request in log if not request.path_with_query.endswith("robots.txt")]
    counts = Counter(request.url for request in pages)
    assert max(counts.values()) == 1
    answered = {request.url: request.status for request in pages}
    for url in comparison.unchanged:
        assert answered[url] == 304, url
    assert all(request.header("If-None-Match") for request in pages if request.url in fetched_first)
    second_bytes = sum(len(page.body) for page in second)
    assert second_bytes < first_bytes
    print(
        f"\nrecrawl: {first_requests} requests and {first_bytes} body bytes first, "
        f"{len(log)} requests and {second_bytes} body bytes on the recrawl; "
        f"{comparison.counts()}"
    )


def test_recrawl_from_the_command_line_and_compare_report(small_web, tmp_path):
    web = small_web
    (tmp_path / "seeds.txt").write_text(web.url("robots-404", "/") + "\n")
    env = {**os.environ, "POLITECRAWL_MAX_RETRIES": "0"}

    def politecrawl(*args):
        return subprocess.run(
            [sys.executable, "-m", "politecrawl", *args],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )

    first = politecrawl("run", "seeds.txt", "--db", "c.db", "--delay", str(DELAY), "--quiet")
    assert first.returncode in (0, 1), first.stderr
    no_pass = politecrawl("report", "--db", "c.db", "--compare")
    assert no_pass.returncode == 2
    assert "one pass" in no_pass.stderr
    web.remove_page("robots-404", "/p/2.html")
    second = politecrawl("recrawl", "--db", "c.db", "--quiet")
    assert second.returncode in (0, 1), second.stderr
    report = politecrawl("report", "--db", "c.db", "--compare")
    assert report.returncode == 0, report.stderr
    assert "Pass 2 compared with pass 1" in report.stdout
    assert web.url("robots-404", "/p/2.html") in report.stdout
    html = politecrawl("report", "--db", "c.db", "--pass", "2", "--format", "html")
    assert "<h1>Pass 2 compared with pass 1</h1>" in html.stdout
    bad = politecrawl("recrawl", "--db", "c.db", "--max-age", "soon")
    assert bad.returncode == 2
    assert "not a duration" in bad.stderr


def test_a_killed_recrawl_is_finished_by_resume(small_web, tmp_path):
    import signal
    import time

    web = small_web
    database = str(tmp_path / "crawl.db")
    with Crawler(config(database)) as crawler:
        crawler.add_seeds([web.url("friend", "/"), web.url("robots-404", "/")])
        crawler.run()
    expected = change_the_site(web)
    env = {**os.environ, "POLITECRAWL_MAX_RETRIES": "0"}
    command = [
        sys.executable,
        "-m",
        "politecrawl",
        "recrawl",
        "--db",
        database,
        "--quiet",
        "--delay",
        "0.3",
    ]
    web.log.clear()
    child = subprocess.Popen(
        command, env=env, cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    deadline = time.monotonic() + 30
    while len(web.log) < 4 and time.monotonic() < deadline:  # the pass is under way
        time.sleep(0.05)
    killed = child.poll() is None
    child.send_signal(signal.SIGKILL)
    child.wait()
    resumed = subprocess.run(
        [sys.executable, "-m", "politecrawl", "resume", "--db", database, "--quiet"],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert resumed.returncode in (0, 1), resumed.stderr
    opened = open_database(database)
    comparison = compare_passes(opened)
    opened.close()
    assert comparison is not None
    assert comparison.after == 2  # resume finished pass 2, it did not start a third
    for category, urls in expected.items():
        assert set(getattr(comparison, category)) == urls, category
    pages = [r for r in web.log.snapshot() if not r.path_with_query.endswith("robots.txt")]
    again = sum(count - 1 for count in Counter(r.url for r in pages).values())
    assert again <= 4  # at most the requests in flight at the kill (4 workers)
    assert killed


def test_the_change_report_has_the_main_reports_guards():
    """CSV cells never start a formula and show control characters; HTML escapes everything
    and carries the main report's Content-Security-Policy (both through the same renderers)."""
    from politecrawl.report.compare import render_compare_csv, render_compare_html
    from politecrawl.store.reading import PassComparison

    hostile = 'http://a.test/=HYPERLINK("http://evil.test")<script>alert(1)</script>\x1b[2J'
    comparison = PassComparison(before=1, after=2, new=[hostile], newly_broken=["-1+1"])
    csv_text = render_compare_csv(comparison)
    assert "\x1b" not in csv_text
    assert "\\x1b[2J" in csv_text
    assert "\n'-1+1" in csv_text.replace("newly_broken,", "\n")  # quoted, never a formula
    page = render_compare_html(comparison)
    assert "<script>alert(1)</script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert 'http-equiv="Content-Security-Policy"' in page
    assert "default-src 'none'" in page
