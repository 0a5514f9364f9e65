"""The crawl's span and its requests per host over time, as the store reads them back for the
report's summary and its picture (``store.reading.timeline``), on SQLite and PostgreSQL.

A small crawl recorded through the frontier at known times: a.test answers five requests (one
404, one network failure) after its robots.txt, b.test two, c.test one. Each request is read
back as one mark while there are few, counted in slices of time when there are more than
``max_marks``, and the busiest ``max_hosts`` hosts are kept, the others counted.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from tests.store.conftest import BACK_ENDS, postgres_schema_url, require_postgres

from politecrawl.robots.outcome import RobotsOutcome
from politecrawl.store import (
    Frontier,
    Lease,
    RobotsOutcomeStore,
    ends,
    finish_run,
    open_database,
    start_run,
)
from politecrawl.store.reading import crawl_span, request_timeline

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
A, B, C = "http://a.test", "http://b.test", "http://c.test"
WEEK = timedelta(days=7)


@pytest.fixture(params=BACK_ENDS)
def database(request, tmp_path):
    if request.param == "sqlite":
        db = open_database(str(tmp_path / "timeline.db"))
        yield db
        db.close()
        return
    require_postgres()
    for url in postgres_schema_url():
        db = open_database(url)
        yield db
        db.close()


def _fetch(frontier: Frontier, url: str, at: datetime, *, status=200, error=None) -> None:
    """Lease ``url`` at ``at`` and record its answer (0.5 s long) or its failure."""
    others = []
    while True:
        lease = frontier.claim("w1", now=at)
        assert isinstance(lease, Lease), (url, lease)
        if lease.url == url:
            break
        others.append(lease)
    for other in others:
        frontier.record(ends.Released(other, next_fetch_at=at), now=at)
    if error is not None:
        end = ends.Failed(lease, error, at=at, next_fetch_at=at)
    else:
        end = ends.Completed(lease, ends.PageOutcome(status, elapsed_seconds=0.5), at)
    assert frontier.record(end, now=at).recorded


@pytest.fixture
def crawl(database):
    run = start_run(database, config={}, now=T0)
    frontier = Frontier(database, default_delay_seconds=0.0, max_in_flight_per_host=100)
    pages = [f"{A}/{n}" for n in range(5)] + [f"{B}/0", f"{B}/1", f"{C}/"]
    frontier.add(pages, now=T0)
    for origin in (A, B, C):
        outcome = RobotsOutcome("allow_all", 404, None, "404", T0 + WEEK, None, 0)
        RobotsOutcomeStore(database).put(origin, outcome, now=T0 + timedelta(seconds=1))
    second = timedelta(seconds=1)
    _fetch(frontier, f"{A}/0", T0 + 2 * second)
    _fetch(frontier, f"{B}/0", T0 + 3 * second)
    _fetch(frontier, f"{A}/1", T0 + 4 * second, status=404)
    _fetch(frontier, f"{A}/2", T0 + 6 * second, error="connection reset")
    _fetch(frontier, f"{C}/", T0 + 7 * second)
    _fetch(frontier, f"{A}/3", T0 + 8 * second)
    _fetch(frontier, f"{B}/1", T0 + 9 * second)
    _fetch(frontier, f"{A}/4", T0 + 10 * second)
    return database, run


def test_each_request_is_a_mark_when_there_are_few(crawl):
    database, _ = crawl
    timeline = request_timeline(database)
    assert timeline.bucket_seconds is None
    assert [host.host for host in timeline.hosts] == ["a.test", "b.test", "c.test"]
    a = timeline.hosts[0]
    assert (a.requests, a.failures) == (5, 2)  # the 404 and the failure
    assert a.robots_fetches == (T0 + timedelta(seconds=1),)
    # A request begins its elapsed time before its answer was recorded (the failure: no time).
    assert [mark.at for mark in a.marks] == [
        T0 + timedelta(seconds=1.5),
        T0 + timedelta(seconds=3.5),
        T0 + timedelta(seconds=6),
        T0 + timedelta(seconds=7.5),
        T0 + timedelta(seconds=9.5),
    ]
    assert [(mark.requests, mark.failures) for mark in a.marks] == [(1, 0), (1, 1), (1, 1)] + [
        (1, 0)
    ] * 2
    assert timeline.start == T0 + timedelta(seconds=1)  # robots.txt, the first request
    assert timeline.end == T0 + timedelta(seconds=10)
    assert timeline.requests == 8
    assert (timeline.other_hosts, timeline.other_requests) == (0, 0)


def test_the_busiest_hosts_are_kept_and_the_others_counted(crawl):
    database, _ = crawl
    timeline = request_timeline(database, max_hosts=2)
    assert [host.host for host in timeline.hosts] == ["a.test", "b.test"]
    assert (timeline.other_hosts, timeline.other_requests) == (1, 1)
    assert timeline.requests == 8


def test_many_requests_are_counted_in_slices_of_time(crawl):
    database, _ = crawl
    timeline = request_timeline(database, max_marks=3, buckets=4)
    assert timeline.bucket_seconds == pytest.approx(9 / 4, abs=0.001)  # whole milliseconds
    for host in timeline.hosts:
        assert sum(mark.requests for mark in host.marks) == host.requests
        assert len(host.marks) <= 4
        assert all(mark.seconds == timeline.bucket_seconds for mark in host.marks)
    a = timeline.hosts[0]
    assert sum(mark.failures for mark in a.marks) == 2
    assert a.marks[0].at == timeline.start  # the first slice begins with the span


def test_the_span_is_the_current_pass_s_runs(crawl):
    database, run = crawl
    span = crawl_span(database)
    assert span.seed_origins == (A, B, C)
    assert (span.pass_number, span.runs, span.started_at, span.ended_at) == (1, 1, T0, None)
    assert span.run_seconds == 0  # a run not ended counts no time yet
    finish_run(database, run, counters={}, outcome="finished", now=T0 + timedelta(seconds=12))
    again = start_run(database, config={}, now=T0 + timedelta(minutes=5))
    finish_run(database, again, counters={}, outcome="finished", now=T0 + timedelta(minutes=6))
    span = crawl_span(database)
    assert (span.runs, span.started_at, span.ended_at) == (2, T0, T0 + timedelta(minutes=6))
    assert span.run_seconds == pytest.approx(72)  # the time between runs left out


def test_an_empty_crawl_has_no_span_and_nothing_to_draw(database):
    assert request_timeline(database).start is None
    assert request_timeline(database).hosts == ()
    span = crawl_span(database)
    assert (span.seed_origins, span.runs, span.started_at) == ((), 0, None)


def test_the_timeline_s_bounds_must_make_sense(database):
    with pytest.raises(ValueError, match="max_hosts"):
        request_timeline(database, max_hosts=0)
    with pytest.raises(ValueError, match="buckets"):
        request_timeline(database, buckets=0)
