"""The live display's estimate of the time left, from an injected clock."""

from __future__ import annotations

import io
from datetime import UTC, datetime, timedelta

from politecrawl.cli.progress import ProgressDisplay, describe_wait
from politecrawl.politeness import HostQueue, time_left
from politecrawl.results import CrawlSummary
from politecrawl.store import FrontierStats

NOW = datetime(2026, 11, 25, 12, 0, tzinfo=UTC)


def queue(host: str, queued: int, delay: float, wait: float = 0.0, **kw) -> HostQueue:
    return HostQueue(
        host, queued, kw.pop("in_flight", 0), delay, NOW + timedelta(seconds=wait), **kw
    )


def test_p2_the_busiest_hosts_queue_and_pace_bound_the_time_left():
    hosts = [queue("a", 100, 1.0), queue("b", 30, 5.0, wait=3.0), queue("c", 0, 1.0)]
    # b: 3 s until its next start, then 29 more requests 5 s apart = 148 s; a: 99 s.
    assert time_left(hosts, now=NOW) == (148.0, "b")
    assert time_left([], now=NOW) == (0.0, None)
    assert time_left([queue("a", 0, 1.0, in_flight=1)], now=NOW) == (0.0, "a")


def test_the_estimate_says_which_host_bounds_it_and_why_hosts_wait():
    hosts = [
        queue("a.example", 10, 1.0, wait=0.5),
        queue("b.example", 120, 1.0),
        queue("c.example", 4, 8.0, wait=6.0, reason="back-off after 3 failed request(s) in a row"),
        queue("d.example", 0, 1.0, reason="deferred"),
    ]
    text = describe_wait(hosts, NOW)
    assert text.startswith("~1m59s (busiest b.example: 120 queued, 1 s apart)")
    assert "3 hosts waiting: " in text
    assert "1 back-off" in text
    assert "1 deferred" in text


def test_the_piped_progress_line_carries_the_time_left():
    stream = io.StringIO()
    display = ProgressDisplay(
        lambda: CrawlSummary(pages=5),
        lambda: FrontierStats({"queued": 7, "leased": 1, "deferred": 0}),
        stream=stream,
        host_queues=lambda: [queue("a.example", 7, 2.0, wait=1.0, in_flight=1)],
        now=lambda: NOW,
        interval_seconds=0.0,
    )
    with display:
        display.tick()
    line = stream.getvalue()
    assert "5 pages" in line
    assert "7 queued" in line
    assert "time left ~15s (busiest a.example: 7 queued, 2 s apart)" in line


def test_s1_l1_the_progress_line_counts_sitemaps_and_checks_only_when_there_are_any():
    def line(summary: CrawlSummary) -> str:
        stream = io.StringIO()
        display = ProgressDisplay(
            lambda: summary,
            lambda: FrontierStats({"queued": 0, "leased": 0, "deferred": 0}),
            stream=stream,
            interval_seconds=0.0,
        )
        with display:
            display.tick()
        return stream.getvalue()

    plain = line(CrawlSummary(pages=3))
    assert "sitemaps" not in plain
    assert "checked" not in plain
    checking = line(CrawlSummary(pages=3, sitemaps=2, checks=9, broken_checks=4))
    assert "2 sitemaps read, 9 links checked (4 broken)" in checking
