"""The gate and the robots store, with ``responses`` for HTTP and a fake clock [O2-O7, E1-E4]."""

from __future__ import annotations

from datetime import timedelta

import pytest
import responses

from politecrawl.config import CrawlConfig
from politecrawl.fetch import Fetcher
from politecrawl.gate import Gate
from politecrawl.store import Frontier, RobotsOutcomeStore, open_database
from politecrawl.testing import FakeClock

ORIGIN = "http://robots.test"
ROBOTS = ORIGIN + "/robots.txt"


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
def setup(tmp_path, clock):
    config = CrawlConfig(database=str(tmp_path / "c.db"), delay_seconds=0.5)
    database = open_database(config.storage.database)
    frontier = Frontier(database)
    frontier.add([ORIGIN + "/", "http://other.test/"], now=clock.now())
    fetcher = Fetcher(user_agent=config.user_agent)
    store = RobotsOutcomeStore(database)

    def make_gate(**changes):
        return gate_of(config.replace(**changes), store, fetcher, clock, frontier)

    yield make_gate, store
    fetcher.close()
    database.close()


def gate_of(config, store, fetcher, clock, frontier):
    """A gate as the crawl assembles one from its configuration."""
    return Gate(
        config.robots,
        store,
        fetcher,
        clock,
        user_agent=config.user_agent,
        delay_seconds=config.politeness.delay_seconds,
        reserve_host=lambda host, now: frontier.reserve_host(host, now=now, hold_seconds=35.0),
        release_host=lambda host, at: frontier.release_host(host, next_fetch_at=at),
    )


def check(gate, clock, path):
    return gate.check(ORIGIN, ORIGIN + path, now=clock.now())


@responses.activate
def test_o2_robots_first_then_o3_obeyed_and_e1_stored(setup, clock):
    make_gate, store = setup
    responses.get(ROBOTS, body="User-agent: *\nDisallow: /private\n", headers={"ETag": '"r1"'})
    gate = make_gate()
    assert check(gate, clock, "/").kind == "robots_first"
    assert check(gate, clock, "/robots.txt").kind == "allowed"
    outcome = gate.fetch_robots(ORIGIN).outcome
    assert outcome.kind == "parsed"
    assert check(gate, clock, "/").kind == "allowed"
    denied = check(gate, clock, "/private/x")
    assert denied.kind == "disallowed"
    assert denied.verdict.rule.line_number == 2
    # E1: a new gate (a restarted crawl) reads the stored policy without fetching again.
    assert make_gate().check(ORIGIN, ORIGIN + "/private", now=clock.now()).kind == "disallowed"
    assert len(responses.calls) == 1
    assert store.get(ORIGIN).etag == '"r1"'


@responses.activate
@pytest.mark.parametrize(
    ("status", "kind"),
    [(404, "allowed"), (410, "allowed"), (401, "disallowed"), (403, "disallowed")],
)
def test_o4_o5_status_outcomes(setup, clock, status, kind):
    make_gate, _ = setup
    responses.get(ROBOTS, status=status)
    gate = make_gate()
    gate.fetch_robots(ORIGIN)
    assert check(gate, clock, "/anything").kind == kind


@responses.activate
def test_o5_rfc9309_reading_of_403_is_a_setting(setup, clock):
    make_gate, _ = setup
    responses.get(ROBOTS, status=403)
    gate = make_gate(unauthorized_means_allowed=True)
    gate.fetch_robots(ORIGIN)
    assert check(gate, clock, "/x").kind == "allowed"


@responses.activate
def test_o6_temporary_failures_defer_then_back_off_then_give_up_for_the_run(setup, clock):
    make_gate, _ = setup
    responses.get(ROBOTS, status=503)
    gate = make_gate()
    waits = []
    for _ in range(4):
        outcome = gate.fetch_robots(ORIGIN).outcome
        assert outcome.kind == "deferred"
        waits.append(None if outcome.retry_at is None else (outcome.retry_at - clock.now()))
        verdict = check(gate, clock, "/")
        assert verdict.kind == "deferred"
        if outcome.retry_at is not None:
            clock.advance((outcome.retry_at - clock.now()).total_seconds())
            assert check(gate, clock, "/").kind == "robots_first"
    assert waits == [timedelta(seconds=1), timedelta(seconds=2), timedelta(seconds=4), None]


@responses.activate
def test_o6_then_success(setup, clock):
    make_gate, _ = setup
    responses.get(ROBOTS, status=500)
    responses.get(ROBOTS, body="User-agent: *\nDisallow: /x\n")
    gate = make_gate()
    assert gate.fetch_robots(ORIGIN).outcome.kind == "deferred"
    clock.advance(1)
    assert gate.fetch_robots(ORIGIN).outcome.kind == "parsed"
    assert check(gate, clock, "/x").kind == "disallowed"


@responses.activate
def test_o7_redirects_followed_and_applied_to_the_origin_asked(setup, clock):
    make_gate, _ = setup
    responses.get(ROBOTS, status=301, headers={"Location": "/policy/robots.txt"})
    responses.get(ORIGIN + "/policy/robots.txt", body="User-agent: *\nDisallow: /secret\n")
    gate = make_gate()
    start = clock.now()
    assert gate.fetch_robots(ORIGIN).outcome.kind == "parsed"
    assert check(gate, clock, "/secret").kind == "disallowed"
    assert clock.now() - start >= timedelta(seconds=0.5)  # the hop waited the host's delay (P2)


@responses.activate
def test_o7_redirect_loop_counts_as_temporary_failure(setup, clock):
    make_gate, _ = setup
    responses.get(ROBOTS, status=302, headers={"Location": ROBOTS})
    gate = make_gate()
    outcome = gate.fetch_robots(ORIGIN).outcome
    assert outcome.kind == "deferred"
    assert "redirects" in outcome.reason


@responses.activate
def test_o8_only_the_first_bytes_are_read(setup, clock):
    make_gate, _ = setup
    body = "User-agent: *\nDisallow: /early\n" + "#" * 600_000 + "\nDisallow: /late\n"
    responses.get(ROBOTS, body=body)
    gate = make_gate()
    gate.fetch_robots(ORIGIN)
    assert check(gate, clock, "/early").kind == "disallowed"
    # Past the limit nothing was read, so no rule decides /late: the file's unread part might
    # forbid it, and a URL in doubt is not fetched.
    late = check(gate, clock, "/late")
    assert late.kind == "disallowed"
    assert "unread part" in late.verdict.reason
    assert check(gate, clock, "/robots.txt").kind == "allowed"


@responses.activate
def test_o8_a_file_of_exactly_the_limit_is_read_whole(setup, clock):
    make_gate, _ = setup
    head = "User-agent: *\nDisallow: /early\n"
    body = head + "#" * (512 * 1024 - len(head))
    assert len(body) == 512 * 1024
    responses.get(ROBOTS, body=body)
    gate = make_gate()
    gate.fetch_robots(ORIGIN)
    assert check(gate, clock, "/early").kind == "disallowed"
    assert check(gate, clock, "/late").kind == "allowed"


@responses.activate
def test_e2_e3_expiry_then_conditional_revalidation(setup, clock):
    make_gate, _ = setup
    responses.get(
        ROBOTS,
        body="User-agent: *\nDisallow: /x\n",
        headers={"Cache-Control": "max-age=60", "ETag": '"v1"'},
    )
    responses.get(ROBOTS, status=304, headers={"Cache-Control": "max-age=60"})
    gate = make_gate()
    gate.fetch_robots(ORIGIN)
    clock.advance(59)
    assert check(gate, clock, "/x").kind == "disallowed"
    clock.advance(2)
    assert check(gate, clock, "/x").kind == "robots_first"  # E3: revalidate before use
    outcome = gate.fetch_robots(ORIGIN).outcome
    assert responses.calls[1].request.headers["If-None-Match"] == '"v1"'
    assert outcome.kind == "parsed"
    assert check(gate, clock, "/x").kind == "disallowed"
    assert check(gate, clock, "/y").kind == "allowed"


@responses.activate
def test_e3_a_changed_robots_txt_replaces_the_old(setup, clock):
    make_gate, _ = setup
    responses.get(
        ROBOTS, body="User-agent: *\nDisallow: /x\n", headers={"Cache-Control": "max-age=5"}
    )
    responses.get(ROBOTS, body="User-agent: *\nDisallow: /y\n")
    gate = make_gate()
    gate.fetch_robots(ORIGIN)
    clock.advance(6)
    gate.fetch_robots(ORIGIN)
    assert check(gate, clock, "/x").kind == "allowed"
    assert check(gate, clock, "/y").kind == "disallowed"


@responses.activate
def test_crawl_delay_is_read_for_our_agent(setup, clock):
    make_gate, _ = setup
    responses.get(ROBOTS, body="User-agent: politecrawl\nCrawl-delay: 2.5\nDisallow:\n")
    gate = make_gate()
    gate.fetch_robots(ORIGIN)
    assert gate.robots_delay(ORIGIN) == 2.5


@responses.activate
def test_p2_u1_an_allowed_verdict_carries_robots_txt_delay_and_use_preferences(setup, clock):
    """What robots.txt says of an allowed URL comes with its verdict: its delay (P2) and its
    use preferences for the URL and the crawl's agent (U1); a disallowed URL needs neither."""
    make_gate, _ = setup
    body = "User-agent: *\nCrawl-delay: 1.5\nContent-Usage: /ai train-ai=n\nDisallow: /no\n"
    responses.get(ROBOTS, body=body)
    gate = make_gate()
    gate.fetch_robots(ORIGIN)
    plain, reserved, denied = (check(gate, clock, path) for path in ("/x", "/ai/x", "/no"))
    assert (plain.kind, plain.robots_delay, plain.said.signals) == ("allowed", 1.5, ())
    assert reserved.robots_delay == 1.5
    assert [one.line_number for one in reserved.said.signals] == [3]
    assert (denied.kind, denied.said.signals) == ("disallowed", ())
    assert check(gate, clock, "/robots.txt").robots_delay == 1.5  # O2: allowed, still paced


@responses.activate
def test_o7_o6_a_busy_redirect_target_host_is_no_failure_and_never_uses_up_attempts(
    tmp_path, clock
):
    """A robots.txt redirecting to another host that is busy (another worker or process is
    asking it) is retried about one delay later without counting an attempt: however long the
    other host stays busy, the origin is never deferred for the rest of the run."""
    config = CrawlConfig(database=str(tmp_path / "c.db"), delay_seconds=0.5, robots_max_attempts=2)
    database = open_database(config.storage.database)
    frontier = Frontier(database)
    frontier.add([ORIGIN + "/", "http://other.test/"], now=clock.now())
    responses.get(ROBOTS, status=302, headers={"Location": "http://other.test/shared.txt"})
    responses.get("http://other.test/shared.txt", body="User-agent: *\nDisallow: /x\n")
    with Fetcher(user_agent=config.user_agent) as fetcher:
        gate = gate_of(config, RobotsOutcomeStore(database), fetcher, clock, frontier)
        # someone else's request
        assert frontier.reserve_host("other.test", now=clock.now(), hold_seconds=35.0)
        for _ in range(config.robots.robots_max_attempts + 3):
            outcome = gate.fetch_robots(ORIGIN).outcome
            assert outcome.kind == "deferred"
            assert outcome.failures == 0
            assert outcome.retry_at == clock.now() + timedelta(seconds=0.5)
            assert "busy" in outcome.reason
            clock.advance(0.5)
        frontier.release_host("other.test", next_fetch_at=clock.now())
        outcome = gate.fetch_robots(ORIGIN).outcome
    database.close()
    assert outcome.kind == "parsed"
    assert check(gate, clock, "/x").kind == "disallowed"
    assert (
        len(responses.calls) == config.robots.robots_max_attempts + 3 + 2
    )  # the busy hops never sent
