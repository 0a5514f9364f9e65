"""One host, no idle wire (``slot_at_response``): the host's next request starts as soon as a
response has been read, while that page is still being read and recorded [P1, P2, C5; issue 40].

Judged from the server's log and from when the crawl database received each page: the next
request of the host starts before the page before it is recorded, never while a request to the
host is in flight, never closer than the delay; a worker killed with the slot handed over loses
nothing but the page it held.
"""

from __future__ import annotations

import itertools
import threading
import time

from tests.site import Page, Site, audit, serve
from tests.site.model import OriginSpec
from tests.site.pages import html_page

from politecrawl import CrawlConfig, Crawler
from politecrawl.store import Frontier, ends

PAGES = [f"/p{index}.html" for index in range(12)]
DELAY = 0.02


def one_host_site() -> Site:
    pages = {
        "/": Page(html_page("home", PAGES)),
        **{path: Page(html_page(path, ["/"])) for path in PAGES},
    }
    return Site(0, (OriginSpec("docs", "127.0.0.23", pages),), 0.0)


def test_p1_the_host_s_next_request_starts_while_the_page_before_is_recorded(tmp_path, monkeypatch):
    # Recording a page is made slow (0.2 s, as a large page's links on a busy disk can be):
    # with its slot handed over at the response, the host's next request does not wait for it.
    recorded_at: dict[str, float] = {}
    handed_over: list[str] = []
    record = Frontier.record
    lock = threading.Lock()

    def slow_record(self, end, **kwargs):
        if isinstance(end, ends.Completed) and end.slot_freed:
            time.sleep(0.2)
        done = record(self, end, **kwargs)
        with lock:
            if isinstance(end, ends.Answered):
                handed_over.append(end.lease.url)
            if isinstance(end, ends.Completed):
                recorded_at[end.lease.url] = time.monotonic()
        return done

    monkeypatch.setattr(Frontier, "record", slow_record)
    with serve(one_host_site()) as web:
        config = CrawlConfig(
            database=str(tmp_path / "crawl.db"),
            delay_seconds=DELAY,
            workers=3,
            slot_at_response=True,
        )
        with Crawler(config) as crawler:
            crawler.add_seeds([web.url("docs", "/")])
            pages = list(crawler.crawl())
        log = sorted(
            (r for r in web.log if r.path_with_query != "/robots.txt"),
            key=lambda request: request.started_at,
        )
        truth = web.truth()
        result = audit(web.log, truth, delays=truth.delays(DELAY))
    assert len(pages) == len(PAGES) + 1
    assert not result.overlaps, result.report()  # one request in flight to the host (P1)
    assert not result.gap_violations, result.report()  # never closer than the delay (P2)
    assert not result.duplicates, result.report()
    assert handed_over  # the slot went to the next request at the response
    # Some request started before the page before it was in the database: the wire did not
    # wait for the recording.
    overlapped = [
        later.path_with_query
        for earlier, later in itertools.pairwise(log)
        if later.started_at < recorded_at.get(web.url("docs", earlier.path_with_query), 0.0)
    ]
    assert overlapped, "every request waited for the page before it to be recorded"


def test_c5_without_a_thread_waiting_the_slot_goes_with_the_end(tmp_path, monkeypatch):
    # One worker: nobody to hand the next request to, so nothing is handed over and each page's
    # end frees its host, as before (and so without ``slot_at_response``, the default).
    answered: list[object] = []
    record = Frontier.record

    def watching(self, end, **kwargs):
        if isinstance(end, ends.Answered):
            answered.append(end)
        return record(self, end, **kwargs)

    monkeypatch.setattr(Frontier, "record", watching)
    with serve(one_host_site()) as web:
        config = CrawlConfig(
            database=str(tmp_path / "crawl.db"), delay_seconds=0, workers=1, slot_at_response=True
        )
        with Crawler(config) as crawler:
            crawler.add_seeds([web.url("docs", "/")])
            pages = list(crawler.crawl())
        truth = web.truth()
        result = audit(web.log, truth, delays=truth.delays(0.0))
    assert len(pages) == len(PAGES) + 1
    assert not result.overlaps, result.report()
    assert answered == []
