"""An origin's queued URLs deferred with its robots.txt, found through its host (O6).

Since revision 0009 there is no index on (origin, state): the deferral reads the origin's host's
queued URLs in the claim index and keeps those of the origin. Another origin of the same host
(another scheme or port) and the origin's URLs in other states must be left as they are.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy import text

from politecrawl.store import Frontier, Lease, ends
from politecrawl.store.reading import origin_robots, origin_urls

T0 = datetime(2026, 1, 1, tzinfo=UTC)


def test_o6_an_origins_deferral_defers_its_queued_urls_alone(database):
    frontier = Frontier(database, default_delay_seconds=0.0, lease_seconds=60.0)
    frontier.add(
        [
            "http://a.example/robots-first",
            "http://a.example/one",
            "http://a.example/two",
            "https://a.example/other-scheme",
            "http://a.example:8080/other-port",
            "http://b.example/other-host",
        ],
        now=T0,
    )
    lease = frontier.claim("w1", now=T0)
    assert isinstance(lease, Lease)
    assert lease.url == "http://a.example/robots-first"
    until = T0 + timedelta(seconds=300)
    deferral = ends.OriginDeferral("http://a.example", until, "robots-deferred", {"status": 503})
    ended = ends.Deferred(lease, until=until, reason="robots-deferred", origin_deferred=deferral)
    assert frontier.record(ended, now=T0).recorded
    with database.engine.connect() as connection:
        states = dict(connection.execute(text("SELECT url, state FROM urls")).all())
    assert states == {
        "http://a.example/robots-first": "deferred",
        "http://a.example/one": "deferred",
        "http://a.example/two": "deferred",
        "https://a.example/other-scheme": "queued",
        "http://a.example:8080/other-port": "queued",
        "http://b.example/other-host": "queued",
    }


def test_o8_a_reports_urls_of_one_origin_leave_out_its_hosts_other_origins(database):
    frontier = Frontier(database, default_delay_seconds=0.0, lease_seconds=60.0)
    # One host, claimed in the order added: p and q fetched, r left queued.
    frontier.add(["http://a.example/p", "https://a.example/q", "http://a.example/r"], now=T0)
    for expected in ("http://a.example/p", "https://a.example/q"):
        lease = frontier.claim("w1", now=T0)
        assert isinstance(lease, Lease)
        assert lease.url == expected
        completed = ends.Completed(lease, ends.PageOutcome(200), T0)
        assert frontier.record(completed, now=T0).recorded
    origins = {origin.origin: origin.id for origin in origin_robots(database)}
    assert origin_urls(database, origins["http://a.example"]) == ["http://a.example/p"]
    assert origin_urls(database, origins["https://a.example"]) == ["https://a.example/q"]
