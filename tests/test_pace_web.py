"""Pace on the loopback web, read from the server's log: a page that trickles its body is that
page's problem, not its host's [P2, P3, C7]."""

from __future__ import annotations

from tests.site import Page, Site, serve
from tests.site.model import OriginSpec
from tests.site.pages import html_page

from politecrawl import CrawlConfig, Crawler

HEALTHY = ("/a.html", "/b.html", "/c.html")


def trickling_site() -> Site:
    pages = {
        "/": Page(html_page("home", ["/trickle.html", *HEALTHY])),
        # 40 bytes spread over 8 s: far beyond the crawl's 1 s response deadline.
        "/trickle.html": Page(b"x" * 40, trickle_seconds=8.0),
        **{path: Page(html_page(path)) for path in HEALTHY},
    }
    return Site(0, (OriginSpec("trickle", "127.0.0.21", pages),), 0.0)


def test_p3_c7_a_trickling_page_is_retried_on_its_own_schedule_while_its_host_goes_on(tmp_path):
    with serve(trickling_site()) as web:
        config = CrawlConfig(
            database=str(tmp_path / "crawl.db"),
            delay_seconds=0.1,
            response_timeout_seconds=1.0,
            # A time-out is a sign of a troubled host: the host backs off 2 s (P3). The URL
            # waits longer, 6 s, so that the test asks what it means to, with margin on a busy
            # machine: is the host held for the failing URL's retry, or only its own back-off?
            retry_backoff_seconds=6.0,
            max_retries=1,
            workers=2,
        )
        with Crawler(config) as crawler:
            crawler.add_seeds([web.url("trickle", "/")])
            pages = {page.url.rsplit("/", 1)[-1] or "/": page for page in crawler.crawl()}
        log = [request for request in web.log if request.path_with_query != "/robots.txt"]
    paths = [request.path_with_query for request in log]
    assert paths.count("/trickle.html") == 2  # the first attempt and its one retry
    first, retry = (i for i, path in enumerate(paths) if path == "/trickle.html")
    # Each healthy page was fetched between the time-out and the retry: the host was not held
    # for the failing URL's back-off, nor for a "slow response" it never finished.
    assert sorted(paths[first + 1 : retry]) == sorted(HEALTHY)
    assert pages["trickle.html"].error is not None
    assert all(pages[path.lstrip("/")].status == 200 for path in HEALTHY)
