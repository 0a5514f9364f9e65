"""The worker threads of one run: how they wait, and how the run's end reaches all of them."""

from __future__ import annotations

import queue
import threading
from datetime import datetime, timedelta

import pytest

from politecrawl.clock import SystemClock, wait_for_event
from politecrawl.config import PolitenessSettings
from politecrawl.crawl.addresses import Addresses
from politecrawl.crawl.visit_result import Ended, VisitResult
from politecrawl.crawl.workers import CLAIM_AHEAD_SECONDS, RunLimits, Workers
from politecrawl.store import Lease, Recorded, Wait, ends
from politecrawl.testing import FakeClock, ScriptedFetcher


def _workers(
    clock: SystemClock | FakeClock, frontier: object = None, visitor: object = None, count: int = 2
) -> Workers:
    """Workers on stand-ins (by default none: only their waiting is tested)."""
    return Workers(
        frontier=frontier,  # type: ignore[arg-type]
        visitor=visitor,  # type: ignore[arg-type]
        clock=clock,
        count=count,
        limits=RunLimits(max_pages=None, max_duration_seconds=None, deferred_horizon_seconds=60),
        delay_seconds=0,
        stop=threading.Event(),
    )


def test_a_thread_that_finds_nothing_left_ends_the_wait_of_the_others():
    clock = SystemClock()
    workers = _workers(clock)
    in_flight = Wait(clock.now() + timedelta(hours=1), "requests in flight")
    answers: queue.Queue[bool] = queue.Queue()
    waiting = threading.Thread(target=lambda: answers.put(workers._wait(in_flight)))
    waiting.start()
    assert workers._wait(Wait(None, "nothing queued, leased or deferred")) is False
    waiting.join(timeout=30)
    # Ended (False), not told to ask the frontier again after a poll's sleep (True).
    assert answers.get_nowait() is False
    assert workers.summary.stopped_because == "finished"


def test_a_wait_with_the_run_going_on_sleeps_and_asks_again():
    clock = FakeClock()
    workers = _workers(clock)
    started = clock.monotonic()
    assert workers._wait(Wait(clock.now() + timedelta(seconds=0.1), "in flight"))
    assert clock.monotonic() - started == 0.1
    assert workers.summary.stopped_because == ""


def test_p2_a_wait_for_a_hosts_delay_asks_again_as_early_as_a_claim_may_take_it():
    # The claim may take a host CLAIM_AHEAD_SECONDS before it is due (its lease starts then):
    # the worker waiting for that host asks that much earlier, not after its due time.
    clock = FakeClock()
    workers = _workers(clock)
    started = clock.monotonic()
    assert workers._wait(Wait(clock.now() + timedelta(seconds=0.1), "politeness delay"))
    assert clock.monotonic() - started == pytest.approx(0.1 - CLAIM_AHEAD_SECONDS)


def test_a_fake_clock_waits_on_an_event_without_moving_once_it_is_set():
    clock = FakeClock()
    event = threading.Event()
    assert clock.wait(event, 2.0) is False
    assert clock.monotonic() == 2.0
    event.set()
    assert clock.wait(event, 2.0) is True
    assert clock.monotonic() == 2.0


class _SleepOnlyClock:
    """A user's clock from before ``Clock.wait``: now, monotonic and sleep only."""

    def __init__(self) -> None:
        self.inner = FakeClock()

    def now(self):  # type: ignore[no-untyped-def]
        return self.inner.now()

    def monotonic(self) -> float:
        return self.inner.monotonic()

    def sleep(self, seconds: float) -> None:
        self.inner.sleep(seconds)


def test_a_clock_with_only_sleep_still_drives_the_workers_waits():
    clock = _SleepOnlyClock()
    event = threading.Event()
    assert wait_for_event(clock, event, 0.5) is False
    assert clock.monotonic() == 0.5
    workers = _workers(clock)  # type: ignore[arg-type]
    assert workers._wait(Wait(clock.now() + timedelta(seconds=0.1), "politeness delay"))
    assert workers._wait(Wait(None, "nothing queued, leased or deferred")) is False


class _OneLeaseFrontier:
    """A frontier with one lease that starts 3 ms after the claim asks for it, then nothing."""

    def __init__(self, clock: FakeClock) -> None:
        self.clock = clock
        self.asked_ahead: list[float] = []
        self.lease: Lease | None = None

    def record(self, end, *, now, claim_for=None, ahead_seconds=0.0, keep_to=None) -> Recorded:  # type: ignore[no-untyped-def]
        """The end is dropped; the next claim is this frontier's."""
        return Recorded(True, self.claim(claim_for, now=now, ahead_seconds=ahead_seconds))

    def claim(self, worker: str, *, now, ahead_seconds: float = 0.0, keep_to=None) -> Lease | Wait:  # type: ignore[no-untyped-def]
        self.asked_ahead.append(ahead_seconds)
        if self.lease is not None:
            return Wait(None, "nothing queued, leased or deferred")
        asked = now()
        self.lease = Lease(
            url_id=1,
            url="http://a.example/",
            origin="http://a.example",
            host="a.example",
            depth=0,
            attempts=0,
            owner=worker,
            expires_at=asked + timedelta(seconds=60),
            pass_number=1,
            claimed_at=asked + timedelta(seconds=0.003),
        )
        return self.lease


class _RecordingVisitor:
    def __init__(self, clock: FakeClock) -> None:
        self.clock = clock
        self.fetcher = ScriptedFetcher({})
        self.addresses = Addresses(PolitenessSettings(), self.fetcher, clock)
        self.visited_at: list[datetime] = []
        self.requested_at: list[datetime] = []

    def visit(self, lease: Lease) -> VisitResult:
        self.visited_at.append(self.clock.now())
        self.fetcher.fetch(lease.url)  # a scripted answer takes no time: it left now
        self.requested_at.append(self.clock.now())
        return Ended(ends.Kept(lease, reason="test"))


def test_p2_p6_a_worker_claims_ahead_and_requests_no_sooner_than_its_lease_starts():
    """The visit's checks may come first; its request waits for the lease's start, so that it
    leaves then (``Fetcher.sending_after``)."""
    clock = FakeClock()
    frontier = _OneLeaseFrontier(clock)
    visitor = _RecordingVisitor(clock)
    workers = _workers(clock, frontier, visitor, count=1)
    list(workers.run(clock.monotonic()))
    assert frontier.asked_ahead
    assert set(frontier.asked_ahead) == {CLAIM_AHEAD_SECONDS}
    assert frontier.lease is not None
    assert visitor.visited_at[0] <= frontier.lease.claimed_at
    assert visitor.requested_at == [frontier.lease.claimed_at]
