"""The frontier contract, on SQLite and on PostgreSQL, with explicit times [C2, C5, P1, P2]."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import threading
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import text

from politecrawl.html import parse_html
from politecrawl.links import extract_links
from politecrawl.politeness import HostPace
from politecrawl.store import Frontier, Lease, LinkOut, Wait, ends, open_database
from politecrawl.testing import FakeClock

T0 = datetime(2026, 1, 1, tzinfo=UTC)


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


@pytest.fixture
def frontier(database):
    return Frontier(database, default_delay_seconds=1.0, lease_seconds=60.0)


def claim(frontier: Frontier, seconds: float, worker: str = "w1") -> Lease:
    lease = frontier.claim(worker, now=at(seconds))
    assert isinstance(lease, Lease), lease
    return lease


def done(frontier: Frontier, lease: Lease, seconds: float, **kwargs) -> None:
    assert frontier.record(
        ends.Completed(lease, ends.PageOutcome(200), at(seconds + 1), **kwargs), now=at(seconds)
    ).recorded


def test_c2_add_canonicalises_and_deduplicates(frontier):
    result = frontier.add(
        [
            "http://A.example:80/a/./b/../c",
            "http://a.example/a/c",
            "http://a.example/a/c#frag",
            "ftp://a.example/",
            "not a url",
        ],
        now=T0,
    )
    assert (result.added, result.known) == (1, 2)
    assert [url for url, _ in result.invalid] == ["ftp://a.example/", "not a url"]
    again = frontier.add(["http://a.example/a/c"], now=T0)
    assert (again.added, again.known) == (0, 1)
    assert claim(frontier, 0).url == "http://a.example/a/c"


def test_c2_completed_url_is_never_queued_again_in_the_pass(frontier):
    frontier.add(["http://a.example/"], now=T0)
    done(frontier, claim(frontier, 0), 0)
    assert frontier.add(["http://a.example/"], now=at(5)).added == 0
    assert frontier.claim("w1", now=at(10)) == Wait(None, "nothing queued, leased or deferred")


def test_p1_one_request_in_flight_per_host(frontier):
    frontier.add(["http://a.example/1", "http://a.example/2", "http://b.example/1"], now=T0)
    first = claim(frontier, 0)
    second = claim(frontier, 0)
    assert {first.host, second.host} == {"a.example", "b.example"}
    waiting = frontier.claim("w2", now=at(0))
    assert isinstance(waiting, Wait)
    assert waiting.reason == "requests in flight"


def test_p2_next_request_waits_for_the_host_delay(frontier):
    frontier.add(["http://a.example/1", "http://a.example/2"], now=T0)
    lease = claim(frontier, 0)
    frontier.record(ends.Completed(lease, ends.PageOutcome(200), at(2.5)), now=at(0.5))
    waiting = frontier.claim("w1", now=at(2.0))
    assert waiting == Wait(at(2.5), "politeness delay")
    assert claim(frontier, 2.5).url == "http://a.example/2"


def test_p2_the_slot_is_taken_at_claim_time(frontier):
    # A worker that dies before completing still leaves the host its delay (DESIGN notes).
    frontier.add(["http://a.example/1", "http://a.example/2"], now=T0)
    claim(frontier, 0)
    assert frontier.release_expired(now=at(61)) == 1
    # The lost request may still be ending on the server: the host waits its delay again.
    assert frontier.claim("w2", now=at(61.5)) == Wait(at(62), "politeness delay")
    lease = frontier.claim("w2", now=at(62))
    assert isinstance(lease, Lease)
    assert lease.url == "http://a.example/1"


def test_p2_a_claim_ahead_takes_a_host_due_a_moment_later_and_its_lease_starts_then(frontier):
    # a.example is due at 1.5 s. Asked at 1.497 s with 5 ms ahead, the claim leases it: the
    # lease starts at 1.5 s (its worker must not ask before), and the host's slot runs from
    # there, not from the claim.
    frontier.add(["http://a.example/1", "http://a.example/2", "http://a.example/3"], now=T0)
    lease = claim(frontier, 0)
    frontier.record(ends.Completed(lease, ends.PageOutcome(200), at(1.5)), now=at(0.5))
    ahead = frontier.claim("w1", now=at(1.497), ahead_seconds=0.005)
    assert isinstance(ahead, Lease)
    assert ahead.claimed_at == at(1.5)
    # The slot a killed worker would leave (P2): the lease's start plus the 1 s delay.
    with frontier.database.engine.connect() as connection:
        next_start = connection.execute(text("SELECT next_fetch_at FROM hosts")).scalar_one()
    assert next_start == pytest.approx(at(2.5).timestamp())
    # A lease given back unused returns the host's slot as it was due: at 1.5 s, not 1.497 s.
    frontier.record(ends.Released(ahead, next_fetch_at=ahead.claimed_at), now=at(1.498))
    assert frontier.claim("w2", now=at(1.499)) == Wait(at(1.5), "politeness delay")


@pytest.mark.parametrize("ahead", [-0.001, 30.0, float("nan")])
def test_p2_a_claim_ahead_is_refused_when_it_could_outlast_its_lease(frontier, ahead):
    frontier.add(["http://a.example/1"], now=T0)
    with pytest.raises(ValueError, match="ahead_seconds"):
        frontier.claim("w1", now=at(0), ahead_seconds=ahead)
    with pytest.raises(ValueError, match="ahead_seconds"):
        frontier.record(
            ends.Released(claim(frontier, 0), next_fetch_at=at(0)),
            now=at(0),
            claim_for="w1",
            ahead_seconds=ahead,
        )


def test_p2_a_claim_ahead_never_takes_a_host_due_later_than_that(frontier):
    frontier.add(["http://a.example/1", "http://a.example/2"], now=T0)
    lease = claim(frontier, 0)
    frontier.record(ends.Completed(lease, ends.PageOutcome(200), at(1.5)), now=at(0.5))
    assert frontier.claim("w1", now=at(1.49), ahead_seconds=0.005) == Wait(
        at(1.5), "politeness delay"
    )
    # Without ahead_seconds (the default), a host is leased only once it is due.
    assert frontier.claim("w1", now=at(1.499)) == Wait(at(1.5), "politeness delay")
    on_time = claim(frontier, 1.5)
    assert on_time.claimed_at == at(1.5)


def test_p2_a_claim_ahead_of_a_host_already_due_starts_at_once(frontier):
    frontier.add(["http://a.example/1"], now=T0)
    lease = frontier.claim("w1", now=at(3), ahead_seconds=0.005)
    assert isinstance(lease, Lease)
    assert lease.claimed_at == at(3)


def _slow_and_fast_finished(frontier: Frontier, *, slow_at: float, fast_at: float) -> None:
    """slow.example (a 2 s delay) and fast.example (none), each with a URL left, after their
    first requests finished at ``slow_at`` and ``fast_at`` seconds."""
    frontier.add(["http://slow.example/1", "http://slow.example/2"], now=T0)
    frontier.add(["http://fast.example/1", "http://fast.example/2"], now=T0)
    first, second = claim(frontier, 0), claim(frontier, 0, "w2")
    slow, fast = sorted((first, second), key=lambda lease: lease.host != "slow.example")
    frontier.record(
        ends.Completed(slow, ends.PageOutcome(200), at(slow_at + 2.0), host_pace=pace(delay=2.0)),
        now=at(slow_at),
    )
    frontier.record(
        ends.Completed(fast, ends.PageOutcome(200), at(fast_at), host_pace=pace(delay=0.0)),
        now=at(fast_at),
    )


def test_p2_of_due_hosts_the_one_waiting_longest_since_its_last_request_goes_first(frontier):
    # slow.example asks for 2 s between requests, fast.example for none. Both are due at 3 s;
    # fast became due earlier (it finished at 1.5 s), but slow has waited longer since its last
    # request (it finished at 0.5 s): serving fast first, as a plain "due first" order does,
    # makes the host that bounds the crawl's end wait behind every quick host, every time.
    _slow_and_fast_finished(frontier, slow_at=0.5, fast_at=1.5)
    assert claim(frontier, 3).host == "slow.example"
    assert claim(frontier, 3, "w2").host == "fast.example"


def test_p2_a_host_with_a_long_delay_goes_first_even_behind_a_quick_host_that_waited_longer(
    frontier,
):
    # slow.example asks for 2 s and finished at 1.2 s, so it is due at 3.2 s; fast.example asks
    # for nothing and finished at 1.0 s. At 3.2 s fast has waited longer since its last request
    # (2.2 s against 2.0 s), but slow bounds the crawl's end: a turn it misses costs the crawl
    # its delay, one that fast misses costs nothing. Its delay counts twice: slow goes first.
    _slow_and_fast_finished(frontier, slow_at=1.2, fast_at=1.0)
    assert claim(frontier, 3.2).host == "slow.example"
    assert claim(frontier, 3.2, "w2").host == "fast.example"


def test_p2_hosts_with_the_same_delay_take_their_turns(frontier):
    # Both ask for the frontier's 1 s. a finished first, so it goes first, though b has the
    # lower id; and b, due 3 ms later, is not taken ahead of time while a is due now.
    frontier.add(["http://b.example/1", "http://b.example/2"], now=T0)
    frontier.add(["http://a.example/1", "http://a.example/2"], now=T0)
    first, second = claim(frontier, 0), claim(frontier, 0, "w2")
    a, b = sorted((first, second), key=lambda lease: lease.host != "a.example")
    frontier.record(ends.Completed(b, ends.PageOutcome(200), at(1.503)), now=at(0.503))
    frontier.record(ends.Completed(a, ends.PageOutcome(200), at(1.4)), now=at(0.4))
    on_time = frontier.claim("w1", now=at(1.5), ahead_seconds=0.005)
    assert isinstance(on_time, Lease)
    assert (on_time.host, on_time.claimed_at) == ("a.example", at(1.5))
    # With nothing else due, b is taken ahead: its lease starts when it is due.
    ahead = frontier.claim("w2", now=at(1.5), ahead_seconds=0.005)
    assert isinstance(ahead, Lease)
    assert (ahead.host, ahead.claimed_at) == ("b.example", at(1.503))


@pytest.mark.parametrize("call", ["claim", "record"])
def test_p2_a_claim_that_waited_for_the_write_lock_sees_the_hosts_due_by_then(tmp_path, call):
    # On SQLite one transaction writes at a time; a claim asked at 0.5 s waits for another
    # worker's transaction until 1.5 s. a.example came due at 1 s meanwhile. Told the time as
    # a clock's ``now``, the claim reads it once it holds the lock, and leases a.example then:
    # read when it was asked (0.5 s), it would send the worker to sleep until 1 s, and every
    # host that bounds a busy crawl's end would start late by a wait for the lock (P2).
    database = open_database(str(tmp_path / "crawl.db"))
    frontier = Frontier(database, default_delay_seconds=1.0)
    frontier.add(["http://a.example/1", "http://a.example/2", "http://b.example/1"], now=T0)
    first, other = claim(frontier, 0), claim(frontier, 0, "w2")
    if first.host != "a.example":
        first, other = other, first
    done(frontier, first, 0)  # a.example is due again at 1 s
    clock = FakeClock(at(0.5))
    locked, asked = threading.Event(), threading.Event()

    def now() -> datetime:
        """The clock, telling the other worker when the claim first asked it (before the lock)."""
        moment = clock.now()
        asked.set()
        return moment

    def another_workers_transaction() -> None:
        with database.transaction():
            locked.set()
            assert asked.wait(5)
            clock.advance(1.0)  # the claim cannot read the clock again until this commits

    holder = threading.Thread(target=another_workers_transaction)
    holder.start()
    assert locked.wait(5)
    if call == "claim":
        claimed = frontier.claim("w1", now=now)
    else:
        ending = ends.Completed(other, ends.PageOutcome(200), next_fetch_at=at(1.5))
        ended = frontier.record(ending, now=now, claim_for="w2")
        recorded, claimed = ended.recorded, ended.following
        assert recorded
    holder.join()
    assert isinstance(claimed, Lease), claimed
    assert (claimed.url, claimed.claimed_at) == ("http://a.example/2", at(1.5))


def test_breadth_first_by_depth_then_priority_then_age(frontier):
    frontier.add(["http://a.example/deep"], now=T0, depth=2)
    frontier.add(["http://a.example/late", "http://a.example/early"], now=T0, depth=1)
    frontier.add(["http://a.example/urgent"], now=T0, depth=1, priority=-1)
    order = []
    for step in range(4):
        lease = claim(frontier, step * 2)
        order.append(lease.url.rsplit("/", 1)[1])
        done(frontier, lease, step * 2)
    assert order == ["urgent", "late", "early", "deep"]


def test_complete_records_the_page_and_queues_followable_links(frontier, database):
    frontier.add(["http://a.example/"], now=T0)
    lease = claim(frontier, 0)
    links = [
        LinkOut("http://a.example/next"),
        LinkOut("http://a.example/private", nofollow=True),
        LinkOut("http://b.example/"),
        LinkOut("javascript:void(0)"),
    ]
    assert frontier.record(
        ends.Completed(
            lease,
            ends.PageOutcome(
                200, content_type="text/html", etag='"v1"', noindex=True, size_bytes=10
            ),
            at(1.2),
            links=links,
        ),
        now=at(0.2),
    ).recorded
    with database.engine.connect() as connection:
        rows = connection.execute(
            text("SELECT url, depth, state, discovered_from FROM urls ORDER BY id")
        ).all()
        page = connection.execute(
            text("SELECT status, etag, noindex, attempts FROM urls WHERE id = :id"),
            {"id": lease.url_id},
        ).one()
        link_rows = connection.execute(
            text(
                "SELECT u.url, l.nofollow FROM links l JOIN urls u ON u.id = l.to_id ORDER BY u.url"
            )
        ).all()
    assert [tuple(row) for row in rows] == [
        ("http://a.example/", 0, "done", None),
        ("http://a.example/next", 1, "queued", lease.url_id),
        ("http://b.example/", 1, "queued", lease.url_id),
    ]
    assert tuple(page) == (200, '"v1"', True, 1)
    # The nofollow link is not queued (T6), so it has no row to link to: nothing to report.
    assert [tuple(row) for row in link_rows] == [
        ("http://a.example/next", False),
        ("http://b.example/", False),
    ]


def test_l1_l4_the_crawlers_own_links_are_recorded_as_found(frontier, database):
    # The crawler hands the frontier ``links.Link`` values as extract_links made them (no
    # copy into LinkOut): the followable one is queued and recorded with its text, line and
    # fragment; the nofollow one is neither queued nor, having no row, recorded.
    frontier.add(["http://a.example/docs/", "http://a.example/docs/b.html"], now=T0)
    lease = claim(frontier, 0)
    body = (
        b'<html><body>\n<a href="b.html#install">Install</a>\n'
        b'<a href="c.html" rel="nofollow">C</a></body></html>'
    )
    parsed = parse_html(body, content_type="text/html", details=True)
    assert parsed is not None
    found = extract_links(parsed, lease.url)
    assert frontier.record(
        ends.Completed(lease, ends.PageOutcome(200), at(1), links=found), now=at(0)
    ).recorded
    with database.engine.connect() as connection:
        link_rows = connection.execute(
            text(
                "SELECT u.url, l.nofollow, l.text, l.line FROM links l "
                "JOIN urls u ON u.id = l.to_id ORDER BY u.url"
            )
        ).all()
        fragments = connection.execute(text("SELECT fragment, line FROM link_fragments")).all()
        queued = connection.execute(text("SELECT url FROM urls WHERE state = 'queued'")).all()
    # c.html is not queued (nofollow), so it has no row to link to
    assert [tuple(row) for row in link_rows] == [
        ("http://a.example/docs/b.html", False, "Install", 2)
    ]
    assert [tuple(row) for row in fragments] == [("install", 2)]
    assert [row.url for row in queued] == ["http://a.example/docs/b.html"]


def test_t5_nofollow_page_links_are_recorded_not_queued(frontier, database):
    frontier.add(["http://a.example/", "http://a.example/known"], now=T0)
    lease = claim(frontier, 0)
    frontier.record(
        ends.Completed(
            lease,
            ends.PageOutcome(200, nofollow=True),
            at(1),
            links=[LinkOut("http://a.example/known"), LinkOut("http://a.example/new")],
            follow_links=False,
        ),
        now=at(0),
    )
    with database.engine.connect() as connection:
        urls = connection.execute(text("SELECT url FROM urls ORDER BY id")).scalars().all()
        links = connection.execute(text("SELECT nofollow FROM links")).scalars().all()
    assert urls == ["http://a.example/", "http://a.example/known"]
    assert links == [True]


def test_c5_expired_lease_returns_and_the_late_worker_records_nothing(frontier):
    frontier.add(["http://a.example/"], now=T0)
    stale = claim(frontier, 0, worker="slow")
    assert frontier.release_expired(now=at(30)) == 0
    assert frontier.release_expired(now=at(61)) == 1
    fresh = claim(frontier, 62, worker="fast")
    assert fresh.url_id == stale.url_id
    assert not frontier.record(
        ends.Completed(stale, ends.PageOutcome(200), at(63)), now=at(62)
    ).recorded
    done(frontier, fresh, 62)
    assert frontier.stats(now=at(63)).by_state["done"] == 1


def test_c5_leases_of_a_dead_local_process_return_at_once(frontier):
    frontier.add(["http://a.example/"], now=T0)
    gone = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        text=True,
        check=True,
    )
    owner = f"{socket.gethostname()}:{gone.stdout.strip()}:t1"
    claim(frontier, 0, worker=owner)
    assert frontier.release_expired(now=at(1)) == 1  # long before the lease would expire
    assert claim(frontier, 2).url == "http://a.example/"  # after the host's delay


def test_o6_defer_and_wake(frontier):
    frontier.add(["http://a.example/"], now=T0)
    lease = claim(frontier, 0)
    assert frontier.record(
        ends.Deferred(lease, until=at(30), reason="robots-unreachable", detail={"status": 503}),
        now=at(0),
    ).recorded
    assert frontier.claim("w1", now=at(10)) == Wait(at(30), "deferred work")
    assert frontier.wake_deferred(now=at(30)) == 1
    assert claim(frontier, 30).url_id == lease.url_id


def test_fail_with_retry_then_final(frontier, database):
    frontier.add(["http://a.example/"], now=T0)
    lease = claim(frontier, 0)
    frontier.record(
        ends.Failed(
            lease,
            "503 Service Unavailable",
            at=at(0),
            status=503,
            next_fetch_at=at(5),
            retry_at=at(5),
        ),
        now=at(0),
    )
    assert isinstance(frontier.claim("w1", now=at(4)), Wait)
    retry = claim(frontier, 6)
    assert (retry.url_id, retry.attempts) == (lease.url_id, 1)
    frontier.record(
        ends.Failed(retry, "503 Service Unavailable", at=at(6), status=503, next_fetch_at=at(7)),
        now=at(6),
    )
    with database.engine.connect() as connection:
        row = connection.execute(text("SELECT state, attempts, status, error FROM urls")).one()
    assert tuple(row) == ("failed", 2, 503, "503 Service Unavailable")


def pace(error_streak: int = 0, *, delay: float = 1.0) -> HostPace:
    """The host's pace after a request: failed ``error_streak`` times in a row (0: a success),
    ``delay`` seconds between requests (its next start is the lease end's own)."""
    return HostPace(delay, T0, error_streak, 0.0, None, "delay")


def fail_then_queue_deeper(frontier: Frontier) -> None:
    """A page of depth 1 fails (its retry due at 1 s), then two of depth 2 are queued."""
    frontier.add(["http://a.example/fails"], now=T0, depth=1)
    failing = claim(frontier, 0)
    ending = ends.Failed(
        failing, "HTTP 500", at=at(0), status=500, next_fetch_at=at(1), retry_at=at(1),
        host_pace=pace(1),
    )  # fmt: skip
    assert frontier.record(ending, now=at(0)).recorded
    frontier.add(["http://a.example/deep", "http://a.example/deeper"], now=at(0), depth=2)
    frontier.wake_deferred(now=at(2))


def claim_order(frontier: Frontier, error_streak: int) -> list[tuple[str, int]]:
    """(name, attempts) of the three URLs ``fail_then_queue_deeper`` leaves, in the order they
    are claimed, each request ending with the host at ``error_streak``."""
    order = []
    for step in range(3):
        lease = claim(frontier, 2 + step * 2)
        order.append((lease.url.rsplit("/", 1)[1], lease.attempts))
        done(frontier, lease, 2 + step * 2, host_pace=pace(error_streak))
    return order


def test_p3_after_a_failure_of_its_host_a_url_to_retry_waits_for_every_fresh_url(frontier):
    fail_then_queue_deeper(frontier)
    # Its retry was due first and its depth is the smallest, and still it waits for the rest
    # while the host is still failing.
    assert claim_order(frontier, 1) == [("deep", 0), ("deeper", 0), ("fails", 1)]


def test_p3_after_a_success_a_due_retry_takes_its_turn_by_depth(frontier):
    fail_then_queue_deeper(frontier)
    # After the failure a fresh URL first; after that success, the retry before depth 2.
    assert claim_order(frontier, 0) == [("deep", 0), ("fails", 1), ("deeper", 0)]


def test_p3_a_retry_left_from_the_last_pass_is_a_fresh_url_in_the_next(frontier, database):
    frontier.add(["http://a.example/fails"], now=T0)
    failing = claim(frontier, 0)
    frontier.record(
        ends.Failed(failing, "HTTP 503", at=at(0), status=503, next_fetch_at=at(1), retry_at=at(9)),
        now=at(0),
    )
    frontier.start_pass(now=at(2))
    with database.engine.connect() as connection:
        row = connection.execute(text("SELECT state, priority, attempts FROM urls")).one()
    assert tuple(row) == ("queued", 0, 0)


def test_exclude_keeps_the_reason_as_data(frontier, database):
    frontier.add(["http://a.example/private"], now=T0)
    lease = claim(frontier, 0)
    detail = {
        "origin": "http://a.example",
        "semantics": "draft",
        "line": 3,
        "text": "Disallow: /private",
    }
    frontier.record(
        ends.Excluded(lease, state="excluded", reason="robots", detail=detail), now=at(0)
    )
    with database.engine.connect() as connection:
        row = connection.execute(text("SELECT state, reason, reason_detail FROM urls")).one()
    assert (row.state, row.reason, json.loads(row.reason_detail)) == ("excluded", "robots", detail)
    with pytest.raises(ValueError, match="not a final state"):
        frontier.record(ends.Excluded(lease, state="queued", reason="x"), now=at(0))


def test_release_returns_the_url_without_counting_an_attempt(frontier):
    frontier.add(["http://a.example/"], now=T0)
    lease = claim(frontier, 0)
    frontier.record(
        ends.Released(lease, next_fetch_at=at(1.3)), now=at(0.3)
    )  # robots.txt was fetched first
    assert isinstance(frontier.claim("w1", now=at(1)), Wait)
    again = claim(frontier, 1.3)
    assert (again.url_id, again.attempts) == (lease.url_id, 0)


def test_stats_counts_states_hosts_and_next_ready(frontier):
    frontier.add(["http://a.example/1", "http://a.example/2", "http://b.example/"], now=T0)
    done(frontier, claim(frontier, 0), 0)
    stats = frontier.stats(now=at(0), per_host=True)
    assert stats.by_state["done"] == 1
    assert stats.by_state["queued"] == 2
    assert stats.total == 3
    assert sum(stats.by_host["a.example"].values()) == 2
    assert stats.robots_outcomes == {"unknown": 2}
    assert stats.next_ready_at == at(0)


def test_frontier_survives_reopening(database_url):
    from politecrawl.store import open_database

    first = open_database(database_url)
    Frontier(first).add(["http://a.example/1", "http://a.example/2"], now=T0)
    lease = claim(Frontier(first), 0)
    first.close()
    second = open_database(database_url)
    frontier = Frontier(second)
    done(frontier, lease, 1)
    assert claim(frontier, 2).url == "http://a.example/2"
    second.close()


def test_p2_o6_status_says_what_each_host_waits_for(frontier, database):
    from politecrawl.store.reading import host_waits

    frontier.add(
        ["http://a.example/1", "http://a.example/2", "http://b.example/1", "http://c.example/1"],
        now=T0,
    )
    done(frontier, claim(frontier, 0), 0)  # a host done once: its delay runs
    deferred = claim(frontier, 0)
    frontier.record(ends.Deferred(deferred, until=at(300), reason="robots-deferred"), now=at(0))
    in_flight = claim(frontier, 0)
    waits = {wait.host: wait for wait in host_waits(database)}
    reasons = {host: wait.why(at(0.5)) for host, wait in waits.items()}
    assert any(
        reason.startswith("politeness delay (1 s between requests)") for reason in reasons.values()
    )
    assert reasons[deferred.host] == "deferred: robots-deferred"
    assert reasons[in_flight.host] == "1 request(s) in flight"


def test_c1_a_lease_names_the_url_that_led_to_it(frontier):
    frontier.add(["http://a.example/"], now=T0)
    seed = claim(frontier, 0)
    assert (seed.referrer_id, seed.referrer) == (None, None)
    done(frontier, seed, 0, links=[LinkOut("http://a.example/next")])
    found = claim(frontier, 2)
    assert found.url == "http://a.example/next"
    assert (found.referrer_id, found.referrer) == (seed.url_id, "http://a.example/")


def test_c2_links_are_canonicalised_once_unless_the_crawl_already_did():
    from politecrawl.store.frontier.link_sorting import sort_links

    raw = sort_links([LinkOut("http://A.example:80/a/./b")])
    assert list(raw.followable.values()) == ["http://a.example/a/b"]
    # extract_links hands over canonical URLs, marked so: they go in as they are.
    done_once = sort_links([LinkOut("http://a.example/a/b", canonical=True)])
    assert list(done_once.followable) == list(raw.followable)


def test_e3_l4_s4_a_304_keeps_what_was_learnt_from_the_body(frontier, database):
    # A recrawl's 304 has no body: the anchors (L4) and canonical (S4) read from the last one
    # stand, as its noindex and hash do.
    frontier.add(["http://a.test/page"], now=at(0))
    lease = claim(frontier, 0)
    body = ends.PageOutcome(200, anchors=frozenset({"intro"}), canonical_url="http://a.test/c")
    assert frontier.record(ends.Completed(lease, body, at(1)), now=at(1)).recorded
    frontier.start_pass(now=at(2))
    again = claim(frontier, 3)
    assert frontier.record(ends.Completed(again, ends.PageOutcome(304), at(4)), now=at(4)).recorded
    with database.engine.connect() as connection:
        row = connection.execute(
            text("SELECT status, anchors, canonical_url FROM urls WHERE url = 'http://a.test/page'")
        ).one()
    assert tuple(row) == (304, "intro", "http://a.test/c")


def test_c5_p1_o7_a_host_held_for_a_robots_redirect_frees_itself_when_the_holder_dies(database):
    # A worker holds another host for a robots.txt redirect's hop (O7), then its process is
    # killed before it gives the host back: a resumed crawl waits out the hold and goes on.
    first = Frontier(database, default_delay_seconds=1.0, lease_seconds=60.0)
    first.add(["http://b.example/page"], now=T0)
    assert first.reserve_host("b.example", now=T0, hold_seconds=30.0)
    resumed = Frontier(database, default_delay_seconds=1.0, lease_seconds=60.0)
    assert resumed.release_expired(now=at(10)) == 0
    assert resumed.claim("w2", now=at(10)) == Wait(at(31), "politeness delay")  # P1: held
    assert not resumed.reserve_host("b.example", now=at(10), hold_seconds=30.0)
    lease = resumed.claim("w2", now=at(31))  # the hold and the delay are over
    assert isinstance(lease, Lease)
    assert lease.url == "http://b.example/page"


def test_p1_o7_a_held_host_given_back_is_due_at_the_time_given(database):
    frontier = Frontier(database, default_delay_seconds=1.0, lease_seconds=60.0)
    frontier.add(["http://b.example/page"], now=T0)
    assert frontier.reserve_host("b.example", now=T0, hold_seconds=30.0)
    frontier.release_host("b.example", next_fetch_at=at(2))
    assert frontier.claim("w1", now=at(1)) == Wait(at(2), "politeness delay")
    lease = frontier.claim("w1", now=at(2))
    assert isinstance(lease, Lease)
    assert not frontier.reserve_host("b.example", now=at(2), hold_seconds=30.0)  # in flight


def test_c5_a_leases_origin_is_its_urls_own_after_a_rolled_back_claim(database):
    """A transaction that queued and claimed a URL of a new origin is rolled back; SQLite then
    gives that origin's id to another origin. The next lease still names its URL's origin (a
    cache of origin names by id once named the rolled-back one: robots.txt of the wrong site).
    Only SQLite gives an id out again; PostgreSQL's sequences never do, so there the test
    checks only that the lease's origin is its URL's."""
    first = Frontier(database, default_delay_seconds=0.0)

    def queue_claim_and_fail(connection) -> None:
        first._enqueuer.add(connection, ["http://x.example/a"], now=T0, depth=0)
        lease = first._claim_or_wait(connection, "w1", T0)
        assert isinstance(lease, Lease)
        assert lease.origin == "http://x.example"
        raise RuntimeError("rolled back")

    with pytest.raises(RuntimeError):
        first._write(queue_claim_and_fail)
    Frontier(database, default_delay_seconds=0.0).add(["http://y.example/b"], now=T0)
    lease = claim(first, 1)
    assert (lease.url, lease.origin) == ("http://y.example/b", "http://y.example")


def test_l1_p1_a_worker_kept_to_the_site_takes_its_hosts_waits_for_them_then_takes_any(frontier):
    # Issue 38: links leaving the site must never hold every worker while the site's pages
    # wait. A claim kept to the site's hosts takes them (other hosts due earlier or not), waits
    # while they have work queued or in flight, and takes any host once they have none.
    site = frozenset({"site.example"})
    frontier.add(["http://out.example/a", "http://out2.example/b"], now=T0)
    frontier.add(["http://site.example/1", "http://site.example/2"], now=at(0.5))
    first = frontier.claim("w0", now=at(1), keep_to=site)
    assert isinstance(first, Lease)
    assert first.url == "http://site.example/1"
    in_flight = frontier.claim("w0", now=at(1), keep_to=site)
    assert isinstance(in_flight, Wait)
    assert in_flight.reason == "requests in flight"  # its page may queue more: not elsewhere
    done(frontier, first, 1)
    assert frontier.claim("w0", now=at(1.5), keep_to=site) == Wait(at(2), "politeness delay")
    second = claim_kept(frontier, 2, site)
    assert second.url == "http://site.example/2"
    done(frontier, second, 2)
    assert claim_kept(frontier, 2.5, site).host in {"out.example", "out2.example"}
    assert claim(frontier, 2.5).host in {"out.example", "out2.example"}


def claim_kept(frontier: Frontier, seconds: float, keep_to: frozenset[str]) -> Lease:
    lease = frontier.claim("w0", now=at(seconds), keep_to=keep_to)
    assert isinstance(lease, Lease), lease
    return lease


def test_p1_c5_a_host_slot_freed_early_is_not_freed_again_when_its_lease_is_lost(database):
    """``Answered`` gives the host its slot back as soon as the response is read, and the
    host's next URL is leased; should the first lease then be lost (its process killed before
    its end), the host's slot is not given back a second time: the second lease still holds
    it, and a third URL of the host waits for it (one request in flight per host)."""
    frontier = Frontier(database, default_delay_seconds=1.0, lease_seconds=10.0)
    frontier.add(["http://a.example/1", "http://a.example/2", "http://a.example/3"], now=T0)
    first = claim(frontier, 0)
    pace = HostPace(1.0, at(1.0), 0, 0.0, None, "delay")
    assert frontier.record(ends.Answered(first, pace), now=at(0.5)).recorded
    second = claim(frontier, 1.0, worker="w2")
    assert second.host == first.host
    assert frontier.release_expired(now=at(10.5)) == 1  # the first lease, lost; not the second
    with database.engine.connect() as connection:
        in_flight = connection.execute(
            text("SELECT in_flight FROM hosts WHERE host = 'a.example'")
        ).scalar_one()
    assert in_flight == 1  # the second lease's
