"""The helpers users get for their own tests: ``FakeClock`` and ``ScriptedFetcher``."""

from __future__ import annotations

import itertools
import time

import pytest

from politecrawl import CrawlConfig, Crawler
from politecrawl.errors import FetchError
from politecrawl.fetch import FetchLimits
from politecrawl.politeness import CUT_SHORT_SECONDS
from politecrawl.testing import Answer, FakeClock, ScriptedFetcher

SITE = "http://shop.test"


def test_a_crawl_against_a_scripted_site_obeys_robots_and_follows_links(tmp_path):
    fetcher = ScriptedFetcher(
        {
            f"{SITE}/robots.txt": Answer(200, "User-agent: *\nDisallow: /cart\n"),
            f"{SITE}/": Answer(
                200, '<a href="/a">a</a> <a href="/cart">cart</a> <a href="/old">o</a>'
            ),
            f"{SITE}/a": Answer(200, "<title>A</title>"),
            f"{SITE}/old": Answer(301, "", (("Location", "/a"),)),
        }
    )
    config = CrawlConfig(database=str(tmp_path / "c.db"), delay_seconds=0.0, workers=1)
    with Crawler(config, fetcher=fetcher) as crawler:
        crawler.add_seeds([f"{SITE}/"])
        pages = {page.url: page for page in crawler.crawl()}
    assert fetcher.requests[0] == f"{SITE}/robots.txt"  # robots.txt first
    assert f"{SITE}/cart" not in fetcher.requests  # disallowed: never asked
    assert pages[f"{SITE}/a"].title == "A"
    assert pages[f"{SITE}/old"].final_url == f"{SITE}/a"
    assert fetcher.requests.count(f"{SITE}/a") == 1  # the redirect's target is not fetched twice


def test_scripted_answers_in_turn_errors_and_404():
    fetcher = ScriptedFetcher(
        {
            f"{SITE}/flaky": [Answer(503), Answer(200, "ok")],
            f"{SITE}/down": FetchError("no connection", url=f"{SITE}/down", temporary=True),
        }
    )
    assert [fetcher.fetch(f"{SITE}/flaky").status for _ in range(3)] == [503, 200, 200]
    with pytest.raises(FetchError, match="no connection"):
        fetcher.fetch(f"{SITE}/down")
    assert fetcher.fetch(f"{SITE}/nowhere").status == 404


def test_scripted_answers_are_settled_as_the_real_fetcher_settles_them():
    # C4, C7, P4: one Fetcher.fetch serves both, so caps, HEAD and Location agree.
    fetcher = ScriptedFetcher(
        {
            f"{SITE}/big": Answer(200, "0123456789"),
            f"{SITE}/moved": Answer(302, "", (("Location", " ../a?b=1 "),)),
            f"{SITE}/cached": Answer(304, "", (("Location", "/ignored"),)),
        }
    )
    cut = fetcher.fetch(f"{SITE}/big", max_bytes=4)
    assert (cut.body, cut.truncated) == (b"0123", True)
    head = fetcher.fetch(f"{SITE}/big", method="HEAD")
    assert (head.body, head.truncated) == (b"", False)
    assert fetcher.methods == ["GET", "HEAD"]
    assert fetcher.fetch(f"{SITE}/moved").location == f"{SITE}/a?b=1"
    assert fetcher.fetch(f"{SITE}/cached").location is None
    with pytest.raises(ValueError, match="max_bytes"):
        fetcher.fetch(f"{SITE}/big", max_bytes=-1)


def test_a_fake_clock_drives_the_crawl_delays_and_max_duration_without_waiting(tmp_path):
    # Ten pages at a 60 s delay: ten minutes of crawl time. The fake clock's sleeps pass it at
    # once; the run ends at max_duration (on the fake clock) with pages still queued.
    links = " ".join(f'<a href="/p{n}">{n}</a>' for n in range(10))
    fetcher = ScriptedFetcher({f"{SITE}/": Answer(200, links)})
    clock = FakeClock()
    config = CrawlConfig(
        database=str(tmp_path / "c.db"),
        delay_seconds=60.0,
        workers=1,
        max_duration_seconds=300.0,
    )
    started = time.monotonic()
    with Crawler(config, fetcher=fetcher, clock=clock) as crawler:
        crawler.add_seeds([f"{SITE}/"])
        summary = crawler.run()
    assert time.monotonic() - started < 30  # nowhere near the 300 s it describes
    assert summary.stopped_because == "max_duration"
    assert summary.duration_seconds >= 300.0
    # about one request a minute: robots.txt first, then the pages and /sitemap.xml (S1),
    # which answers 404: requested, but no sitemap read
    assert 3 <= summary.pages + 1 <= 6
    assert summary.sitemaps == 0
    assert summary.queued > 0


def test_p3_a_crawl_ends_after_its_last_request_not_after_the_back_off_of_a_failing_host(
    tmp_path,
):
    # The last request the crawl makes fails (500 for good): its host is backed off, but with
    # nothing left to ask it the crawl ends at once instead of waiting the back-off out.
    clock = FakeClock()
    asked_at: list[float] = []

    class Timed(ScriptedFetcher):
        def fetch(self, url, **options):  # type: ignore[no-untyped-def]
            asked_at.append(clock.monotonic())
            return super().fetch(url, **options)

    fetcher = Timed(
        {
            f"{SITE}/": Answer(200, '<a href="/broken">b</a>'),
            f"{SITE}/broken": Answer(500, "oops"),
        }
    )
    config = CrawlConfig(
        database=str(tmp_path / "c.db"), delay_seconds=1.0, workers=1, max_retries=2
    )
    start = clock.monotonic()
    with Crawler(config, fetcher=fetcher, clock=clock) as crawler:
        crawler.add_seeds([f"{SITE}/"])
        crawler.run()
    assert fetcher.requests.count(f"{SITE}/broken") == 3  # the first try and two retries
    assert crawler.summary.stopped_because == "finished"
    ended = clock.monotonic()
    assert asked_at[-1] - start > 3  # the retries waited (1 s, then 2 s, at least)
    assert ended - asked_at[-1] < 1.0  # and nothing was waited for after the last request


def test_c1_p3_a_page_retried_after_its_hosts_budget_is_spent_is_still_retried(tmp_path):
    # max_pages_per_host counts a page once: its retry, which waits until the host has no
    # fresh page left (P3), is not refused as a page beyond the limit.
    links = "".join(f'<a href="/p{i}">{i}</a>' for i in range(6))
    fetcher = ScriptedFetcher(
        {
            f"{SITE}/": Answer(200, f'<a href="/flaky">f</a>{links}'),
            f"{SITE}/flaky": [Answer(503), Answer(200, "<title>back</title>")],
            **{f"{SITE}/p{i}": Answer(200, "<title>p</title>") for i in range(6)},
        }
    )
    config = CrawlConfig(
        database=str(tmp_path / "c.db"), delay_seconds=1.0, workers=1, max_pages_per_host=5
    )
    with Crawler(config, fetcher=fetcher, clock=FakeClock()) as crawler:
        crawler.add_seeds([f"{SITE}/"])
        pages = {page.url: page for page in crawler.crawl()}
    assert fetcher.requests.count(f"{SITE}/flaky") == 2
    assert pages[f"{SITE}/flaky"].status == 200
    # the home page, the flaky one and three others: five pages, the limit
    assert len({url for url in fetcher.requests if "/p" in url}) == 3


def test_p1_p2_the_next_request_waits_a_margin_more_after_a_body_cut_at_the_cap(tmp_path):
    # A body cut at the cap is closed by us mid-answer; the server ends it a moment later, so
    # the host's next request waits the delay from then (politeness.CUT_SHORT_SECONDS).
    script = {
        f"{SITE}/robots.txt": Answer(200, "User-agent: *\nAllow: /\n"),
        f"{SITE}/": Answer(200, '<a href="/big">big</a>'),
        f"{SITE}/big": Answer(200, '<a href="/after">after</a>' + "x" * 5000),
    }
    starts, pages = _timed_crawl(
        tmp_path, script, [f"{SITE}/"], limits=FetchLimits(max_body_bytes=1000)
    )
    assert [url.removeprefix(SITE) for url, _ in starts] == ["/robots.txt", "/", "/big", "/after"]
    gaps = [round(b - a, 6) for (_, a), (_, b) in itertools.pairwise(starts)]
    assert gaps == [1.0, 1.0, round(1.0 + CUT_SHORT_SECONDS, 6)]
    assert pages[f"{SITE}/big"].status == 200  # a cut body is a page, recorded as cut (C7)


def _timed_crawl(tmp_path, script, seeds, *, limits=None):
    """Crawl ``seeds`` against ``script`` on a ``FakeClock`` (delay 1 s, robots.txt read to
    1,000 bytes, the fetcher's ``limits``): the start of every request, by URL, in order, and
    the pages by URL."""
    clock = FakeClock()
    starts: list[tuple[str, float]] = []

    class Timed(ScriptedFetcher):
        def _answer(self, request):
            starts.append((request.url, clock.monotonic()))
            return super()._answer(request)

    config = CrawlConfig(
        database=str(tmp_path / "c.db"),
        delay_seconds=1.0,
        workers=1,
        sitemaps=False,
        robots_max_bytes=1000,
    )
    with Crawler(config, fetcher=Timed(script, limits=limits), clock=clock) as crawler:
        crawler.add_seeds(seeds)
        pages = {page.url: page for page in crawler.crawl()}
    return starts, pages


def _first_gap(starts, origin):
    times = [moment for url, moment in starts if url.startswith(origin + "/")]
    return round(times[1] - times[0], 6)


CUT = round(1.0 + CUT_SHORT_SECONDS, 6)
OTHER = "http://other.test"
LONG_ROBOTS = "User-agent: *\nAllow: /\n" + "# padding\n" * 200  # Allow: / was read (O8)


@pytest.mark.parametrize(
    "robots",
    [
        Answer(200, LONG_ROBOTS),  # cut at its limit (O8)
        Answer(404, "x" * 5000),  # the body of an error is read to the limit too
        FetchError(
            "response took longer than 30 s: cut off while its body was arriving",
            url=f"{SITE}/robots.txt",
            temporary=True,
            timed_out=True,
            cut_off=True,
        ),
    ],
    ids=["long", "long-404", "timed-out"],
)
def test_p1_p2_the_next_request_waits_a_margin_more_after_a_robots_txt_closed_early(
    tmp_path, robots
):
    script = {f"{SITE}/robots.txt": robots, f"{SITE}/": Answer(200, "hi")}
    starts, _ = _timed_crawl(tmp_path, script, [f"{SITE}/"])
    assert starts[0][0] == f"{SITE}/robots.txt"
    if isinstance(robots, FetchError):  # deferred (O6): its next attempt comes later still
        assert _first_gap(starts, SITE) >= CUT
    else:
        assert _first_gap(starts, SITE) == CUT


def test_p1_p2_a_robots_txt_redirect_paces_the_host_whose_answer_was_cut(tmp_path):
    # shop.test's robots.txt redirects to other.test's, which is cut at its limit: other.test
    # waits the margin more, shop.test (whose 301 came whole) only its delay.
    script = {
        f"{SITE}/robots.txt": Answer(301, "", (("Location", f"{OTHER}/robots.txt"),)),
        f"{OTHER}/robots.txt": Answer(200, LONG_ROBOTS),
        f"{SITE}/": Answer(200, "shop"),
        f"{OTHER}/": Answer(200, "other"),
    }
    starts, _ = _timed_crawl(tmp_path, script, [f"{SITE}/", f"{OTHER}/"])
    assert _first_gap(starts, OTHER) == CUT
    assert _first_gap(starts, SITE) == 1.0


def test_p1_p2_the_next_request_waits_a_margin_more_after_a_page_closed_early(tmp_path):
    # A body that does not decode is not read on: the server ends it after our close.
    broken = FetchError(
        "the body does not decode as its Content-Encoding says",
        url=f"{SITE}/bad",
        temporary=True,
        host_trouble=False,
        closed_early=True,
    )
    script = {
        f"{SITE}/robots.txt": Answer(200, "User-agent: *\nAllow: /\n"),
        f"{SITE}/": Answer(200, '<a href="/bad">bad</a> <a href="/next">next</a>'),
        f"{SITE}/bad": broken,
        f"{SITE}/next": Answer(200, "next"),
    }
    starts, _ = _timed_crawl(tmp_path, script, [f"{SITE}/"])
    urls = [url.removeprefix(SITE) for url, _ in starts]
    assert urls[:4] == ["/robots.txt", "/", "/bad", "/next"]
    gaps = [round(b - a, 6) for (_, a), (_, b) in itertools.pairwise(starts[:4])]
    assert gaps == [1.0, 1.0, CUT]
