"""The worker threads of one run: how they wait, and how the run's end reaches all of them."""

from __future__ import annotations

import queue
import threading
from datetime import datetime, timedelta

from politecrawl.clock import SystemClock, wait_for_event
from politecrawl.crawl.visit_result import VisitResult
from politecrawl.crawl.workers import RunLimits, Workers
from politecrawl.store import Completion, Lease, PageOutcome, Wait
from politecrawl.testing import FakeClock


def _workers(clock: SystemClock | FakeClock) -> Workers:
    """Workers whose frontier and visitor are never reached: only their waiting is tested."""
    return Workers(
        frontier=None,  # type: ignore[arg-type]
        visitor=None,  # type: ignore[arg-type]
        clock=clock,
        count=2,
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
    assert workers._wait(Wait(clock.now() + timedelta(seconds=0.1), "politeness delay"))
    assert clock.monotonic() - started == 0.1
    assert workers.summary.stopped_because == ""


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


class _KeepingFrontier:
    """A frontier with one host: its first URL, then (kept, when asked) its second, leased
    ahead of the host's next start; then nothing. Records what each completion asked."""

    def __init__(self) -> None:
        self.asked_to_keep: list[bool] = []
        self.leases = 0

    def _lease(self, number: int, claimed_at: datetime) -> Lease:
        self.leases += 1
        return Lease(
            url_id=number,
            url=f"http://a.example/{number}",
            origin="http://a.example",
            host="a.example",
            depth=0,
            attempts=0,
            owner="w0",
            expires_at=claimed_at + timedelta(seconds=60),
            pass_number=1,
            claimed_at=claimed_at,
        )

    def claim(self, worker: str, *, now: datetime) -> Lease | Wait:
        if self.leases == 0:
            return self._lease(1, now)
        return Wait(None, "nothing queued, leased or deferred")

    def complete_and_claim(
        self, completion: Completion, *, worker: str, now: datetime, keep_host: bool = False
    ) -> tuple[bool, Lease | Wait]:
        self.asked_to_keep.append(keep_host)
        if keep_host and self.leases == 1:
            return True, self._lease(2, completion.next_fetch_at)
        return True, Wait(None, "nothing queued, leased or deferred")


class _TimingVisitor:
    """Records when each lease is visited; its host's next start is ``delay`` after that."""

    def __init__(self, clock: FakeClock, delay: float) -> None:
        self.clock = clock
        self.delay = delay
        self.visits: list[tuple[str, datetime, datetime]] = []

    def visit(self, lease: Lease) -> VisitResult:
        now = self.clock.now()
        self.visits.append((lease.url, lease.claimed_at, now))
        next_start = now + timedelta(seconds=self.delay)
        return VisitResult(completion=Completion(lease, PageOutcome(200), next_fetch_at=next_start))


def _run_one_host(delay: float) -> tuple[_KeepingFrontier, _TimingVisitor]:
    """One run on ``_KeepingFrontier``, with one worker (two would race for its first lease)."""
    clock = FakeClock()
    frontier = _KeepingFrontier()
    visitor = _TimingVisitor(clock, delay)
    workers = Workers(
        frontier=frontier,  # type: ignore[arg-type]
        visitor=visitor,  # type: ignore[arg-type]
        clock=clock,
        count=1,
        limits=RunLimits(max_pages=None, max_duration_seconds=None, deferred_horizon_seconds=60),
        delay_seconds=0,
        stop=threading.Event(),
    )
    for _page in workers.run(clock.monotonic()):
        pass
    return frontier, visitor


def test_p2_a_kept_hosts_lease_is_visited_no_sooner_than_the_hosts_next_start():
    # One worker may keep a host: the frontier keeps one only when no other is due by its
    # start, so the worker waits where it would have waited anyway.
    frontier, visitor = _run_one_host(0.05)
    assert frontier.asked_to_keep[0] is True  # the host's next start is 50 ms ahead
    (first, _, visited), (second, claimed_at, second_visited) = visitor.visits
    assert (first, second) == ("http://a.example/1", "http://a.example/2")
    assert claimed_at == visited + timedelta(seconds=0.05)
    assert second_visited >= claimed_at


def test_a_host_is_not_kept_when_its_next_start_is_far_or_already_near():
    # Due in more than a tenth of a second: whichever worker is free then serves it as well;
    # due at once: the usual claim is as prompt.
    for delay in (0.5, 0.0, 0.001):
        frontier, visitor = _run_one_host(delay)
        assert frontier.asked_to_keep == [False], delay
        assert len(visitor.visits) == 1


def test_no_thread_keeps_a_host_once_the_run_is_ending():
    clock = FakeClock()
    workers = _workers(clock)
    soon = clock.now() + timedelta(seconds=0.05)
    assert workers._may_keep(soon, clock.now()) is True
    workers._end("max_pages")
    assert workers._may_keep(soon, clock.now()) is False


class _FarKeptFrontier(_KeepingFrontier):
    """Its second lease starts a minute ahead; records what is given back."""

    def __init__(self) -> None:
        super().__init__()
        self.released: list[tuple[int, datetime, datetime]] = []

    def complete_and_claim(
        self, completion: Completion, *, worker: str, now: datetime, keep_host: bool = False
    ) -> tuple[bool, Lease | Wait]:
        return True, self._lease(2, now + timedelta(seconds=60))

    def release(self, lease: Lease, *, now: datetime, next_fetch_at: datetime) -> bool:
        self.released.append((lease.url_id, next_fetch_at, lease.claimed_at))
        return True


def test_p2_a_lease_that_starts_later_is_given_back_at_its_start_when_the_run_stops():
    clock = SystemClock()
    frontier = _FarKeptFrontier()
    stop = threading.Event()
    workers = Workers(
        frontier=frontier,  # type: ignore[arg-type]
        visitor=_TimingVisitor(clock, 0.05),  # type: ignore[arg-type]
        clock=clock,
        count=1,
        limits=RunLimits(max_pages=None, max_duration_seconds=None, deferred_horizon_seconds=60),
        delay_seconds=0,
        stop=stop,
    )
    runner = threading.Thread(target=lambda: list(workers.run(clock.monotonic())), daemon=True)
    runner.start()
    while frontier.leases < 2 and runner.is_alive():
        threading.Event().wait(0.01)
    stop.set()
    runner.join(timeout=30)  # the lease starts in a minute: a wait that ignored stop is caught
    assert not runner.is_alive()
    # Never visited before its start; given back due at its start, not at the time of stopping.
    assert [url for url, _, _ in workers.visitor.visits] == ["http://a.example/1"]  # type: ignore[attr-defined]
    ((url_id, given_back, claimed_at),) = frontier.released
    assert url_id == 2
    assert given_back == claimed_at
