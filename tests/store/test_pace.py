"""A host's pace through the crawl loop, on a fake clock and both back ends [P2, P3, C7].

Each test drives the real visitor and frontier (``responses`` answers HTTP) one request at a
time and reads the pace back from the requests' times, as a server's log would show it. The
host's error streak lives in the crawl database, so two crawlers on one database (two
processes, in effect) pace a host as one.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import pytest
import requests
import responses

from politecrawl import CrawlConfig, Crawler
from politecrawl.store import Lease
from politecrawl.store.reading import HostWait
from politecrawl.testing import FakeClock

ORIGIN = "http://pace.test"
DELAY = 1.0


def html(*links: str) -> str:
    return "<html><body>" + "".join(f'<a href="{link}">x</a>' for link in links) + "</body></html>"


class Loop:
    """Crawlers on one database, taking turns to claim and visit, on one fake clock."""

    def __init__(self, database: str, clock: FakeClock, crawlers: int = 1, **settings) -> None:
        config = CrawlConfig(database=database, delay_seconds=DELAY, workers=1, **settings)
        self.clock = clock
        self.crawlers = [Crawler(config, clock=clock) for _ in range(crawlers)]
        for crawler in self.crawlers:
            crawler.open()
        self.crawlers[0].add_seeds([ORIGIN + "/"])
        self.visitors = [crawler._visitor() for crawler in self.crawlers]
        self.log: list[tuple[float, str, int | str]] = []
        self.start = clock.now()

    def seconds(self, moment: datetime) -> float:
        return (moment - self.start).total_seconds()

    def run(self, max_steps: int = 2000) -> None:
        turn = 0
        for _ in range(max_steps):
            index = turn % len(self.crawlers)
            turn += 1
            frontier = self.crawlers[index].frontier
            claimed = frontier.claim(f"w{index}", now=self.clock.now())
            if not isinstance(claimed, Lease):
                if claimed.until is None:
                    return
                self.clock.advance(max((claimed.until - self.clock.now()).total_seconds(), 0.001))
                continue
            result = self.visitors[index].visit(claimed)
            frontier.record(result.end, now=self.clock.now())  # the visit writes nothing
        raise AssertionError("the crawl did not end")

    def close(self) -> None:
        for crawler in self.crawlers:
            crawler.close()

    def answer(self, status: int, body: str = "", headers: dict[str, str] | None = None):
        def callback(request: requests.PreparedRequest) -> tuple[int, dict[str, str], str]:
            self.log.append((self.seconds(self.clock.now()), request.path_url, status))
            return status, {"Content-Type": "text/html", **(headers or {})}, body

        return callback

    def time_out(self) -> Callable[[requests.PreparedRequest], tuple[int, dict, str]]:
        def callback(request: requests.PreparedRequest) -> tuple[int, dict, str]:
            self.log.append((self.seconds(self.clock.now()), request.path_url, "time-out"))
            raise requests.exceptions.ConnectTimeout("no connection")

        return callback

    def page_requests(self) -> list[tuple[float, str, int | str]]:
        """Every request after robots.txt; /sitemap.xml (S1, a 404 here, as on a site without
        one) takes its turn in the host's pace like a page."""
        return [entry for entry in self.log if entry[1] != "/robots.txt"]


def gaps(log: list[tuple[float, str, int | str]]) -> list[float]:
    return [round(b[0] - a[0], 6) for a, b in itertools.pairwise(log)]


@pytest.fixture
def mock():
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mocked:
        yield mocked


@pytest.fixture
def clock():
    return FakeClock()


def test_p3_c7_one_broken_page_among_twenty_healthy_ones_never_slows_the_host(
    database_url, clock, mock
):
    loop = Loop(database_url, clock, max_retries=3)
    healthy = [f"/p{index}.html" for index in range(1, 21)]
    mock.add_callback("GET", ORIGIN + "/robots.txt", callback=loop.answer(404))
    mock.add_callback("GET", ORIGIN + "/sitemap.xml", callback=loop.answer(404))
    mock.add_callback("GET", ORIGIN + "/", callback=loop.answer(200, html("/broken", *healthy)))
    mock.add_callback("GET", ORIGIN + "/broken", callback=loop.answer(500, "oops"))
    for path in healthy:
        mock.add_callback("GET", ORIGIN + path, callback=loop.answer(200, html()))
    loop.run()
    loop.close()
    log = loop.page_requests()
    fetched = [path for _, path, _ in log]
    assert sorted(set(fetched)) == sorted(["/", "/sitemap.xml", "/broken", *healthy])
    assert fetched.count("/broken") == 1 + 3  # the first attempt and max_retries retries
    # Every request while healthy pages remain comes one delay after the one before: the
    # broken page's failures cost the host nothing, and its retries take turns.
    last_healthy = max(index for index, (_, path, _) in enumerate(log) if path in healthy)
    assert set(gaps(log[: last_healthy + 1])) == {DELAY}
    # The broken page is retried on its own doubling schedule: 1, 2, 4 s after each failure.
    broken = [when for when, path, _ in log if path == "/broken"]
    waits = [round(b - a, 6) for a, b in itertools.pairwise(broken)]
    assert all(wait >= least for wait, least in zip(waits, (1, 2, 4), strict=True)), waits


def test_p3_a_success_after_failures_restores_the_delay_for_the_very_next_request(
    database_url, clock, mock
):
    loop = Loop(database_url, clock, max_retries=0)
    pages = ["/t1", "/t2", "/t3", "/ok1", "/ok2"]
    mock.add_callback("GET", ORIGIN + "/robots.txt", callback=loop.answer(404))
    mock.add_callback("GET", ORIGIN + "/sitemap.xml", callback=loop.answer(404))
    mock.add_callback("GET", ORIGIN + "/", callback=loop.answer(200, html(*pages)))
    for path in pages[:3]:
        mock.add_callback("GET", ORIGIN + path, callback=loop.time_out())
    for path in pages[3:]:
        mock.add_callback("GET", ORIGIN + path, callback=loop.answer(200, html()))
    loop.run()
    loop.close()
    log = loop.page_requests()
    assert [path for _, path, _ in log] == ["/", "/sitemap.xml", *pages]
    # Consecutive time-outs back off, doubling (a time-out is no response time); the first
    # success ends the back-off for the very next request.
    assert gaps(log) == [DELAY, DELAY, 2.0, 4.0, 8.0, DELAY]


def test_p3_retry_after_of_a_503_still_wins(database_url, clock, mock):
    loop = Loop(database_url, clock, max_retries=1)
    mock.add_callback("GET", ORIGIN + "/robots.txt", callback=loop.answer(404))
    mock.add_callback("GET", ORIGIN + "/sitemap.xml", callback=loop.answer(404))
    mock.add_callback("GET", ORIGIN + "/", callback=loop.answer(200, html("/busy", "/a")))
    busy = [loop.answer(503, "busy", {"Retry-After": "30"}), loop.answer(200, html())]

    def first_busy_then_fine(request: requests.PreparedRequest) -> tuple[int, dict, str]:
        return busy.pop(0)(request)

    mock.add_callback("GET", ORIGIN + "/busy", callback=first_busy_then_fine)
    mock.add_callback("GET", ORIGIN + "/a", callback=loop.answer(200, html()))
    loop.run()
    loop.close()
    log = loop.page_requests()
    assert [(path, status) for _, path, status in log[:3]] == [
        ("/", 200),
        ("/sitemap.xml", 404),
        ("/busy", 503),
    ]
    assert sorted((path, status) for _, path, status in log[3:]) == [("/a", 200), ("/busy", 200)]
    # The host waits out Retry-After before its next request, whichever URL that is, and the
    # URL is not retried sooner either.
    assert gaps(log)[2] >= 30.0
    assert min(when for when, path, _ in log[3:] if path == "/busy") - log[2][0] >= 30.0


def test_p3_the_error_streak_is_the_hosts_across_crawlers_on_one_database(
    database_url, clock, mock
):
    """Two crawlers (as two processes would) take turns: the back-off still doubles, because
    the streak is stored with the host, not kept in one crawler's memory."""
    loop = Loop(database_url, clock, crawlers=2, max_retries=0)
    pages = ["/t1", "/t2", "/t3", "/t4"]
    mock.add_callback("GET", ORIGIN + "/robots.txt", callback=loop.answer(404))
    mock.add_callback("GET", ORIGIN + "/sitemap.xml", callback=loop.answer(404))
    mock.add_callback("GET", ORIGIN + "/", callback=loop.answer(200, html(*pages, "/ok")))
    for path in pages:
        mock.add_callback("GET", ORIGIN + path, callback=loop.time_out())
    mock.add_callback("GET", ORIGIN + "/ok", callback=loop.answer(200, html()))
    loop.run()
    log = loop.page_requests()
    assert gaps(log) == [DELAY, DELAY, 2.0, 4.0, 8.0, 16.0]
    waits = loop.crawlers[0].frontier.stats(now=clock.now(), per_host=True)
    loop.close()
    assert waits.total == 7


def test_p3_status_says_why_a_host_waits():
    now = datetime(2026, 1, 1, tzinfo=UTC)
    waiting = HostWait(
        host="pace.test",
        queued=3,
        in_flight=0,
        deferred=1,
        delay_seconds=4.0,
        next_fetch_at=now + timedelta(seconds=2.5),
        deferred_reasons=("retry",),
        wait_reason="back-off after 2 failed request(s) in a row",
        error_streak=2,
    )
    assert waiting.why(now) == (
        "back-off after 2 failed request(s) in a row (4 s between requests): 2.5 s"
    )
