"""The worker threads of one run: claim, visit, record with the next claim, hand pages out.

``Workers.run`` starts ``count`` threads on the shared frontier and yields, in the caller's
thread, every page they complete (counting it in the run's ``CrawlSummary`` and calling the
callbacks). A thread stops at the run's limits, when nothing is left (or only work deferred
beyond the horizon, O6), or on ``stop``; its last lease is given back. When one thread ends
for a reason that holds for all (nothing left, a limit), the others stop waiting at once rather
than at their next poll. A thread that fails stops the others, and ``run`` raises its error
once every thread has ended: a database that failed as ``StoreError``, anything else (an
``ArchiveError``, a bug) as it is.

With ``slot_at_response``, when a thread waits for a host to come due, a thread whose page's
response has just been read
hands it the host's next URL (``hand_over``: the slot freed at the response, ``ends.Answered``)
and goes on reading and recording its page: one host's requests follow one another without
waiting for the recording (issue 40), still one in flight and a delay apart (P1, P2).

When the run checks links on other sites (L1, L3) and has more than one thread, the first keeps
to the seeds' hosts (``site_hosts``) while they have work queued or in flight
(``Frontier.claim``'s ``keep_to``), and takes any host only when they have none. A check of
another site can take as long as its time-outs allow, and longer while its host name is being
resolved (the system's resolver has no deadline of ours); with every thread on such checks, the
site's own pages waited for minutes (issue 38). One thread kept back bounds that, whatever the
other sites do.
"""

from __future__ import annotations

import collections
import contextlib
import queue
import threading
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

from politecrawl.clock import wait_for_event
from politecrawl.crawl.visit_result import Ended, PageVisit, count_visit
from politecrawl.errors import ArchiveError, StoreError
from politecrawl.politeness import next_start_after
from politecrawl.results import CrawlSummary, Excluded, Page
from politecrawl.store import Frontier, Lease, Wait, ends, is_database_error, worker_id

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from politecrawl.clock import Clock
    from politecrawl.config import CheckingSettings
    from politecrawl.crawl.visit import Visitor
    from politecrawl.scope import Scope

_POLL_SECONDS = 0.25
CLAIM_AHEAD_SECONDS = 0.005
"""A worker may claim a host this long before it is due, and waits for that moment before the
visit asks anything (P2). The claim's transaction (a wait for the write lock with it) then comes
before the host's next start instead of after it, where it added to every gap of a host with a
short delay (from the server's log, bench web at delay 0: the Request-rate host, asking 20 ms,
had gaps of 25 ms at the median, now 23). Short, because a worker that claimed ahead waits
idle."""
_DONE = object()


@dataclass(frozen=True, slots=True)
class _WorkerFailed:
    """A worker thread died of an error; the run stops and re-raises it."""

    error: BaseException


@dataclass(frozen=True, slots=True)
class RunLimits:
    """When this process's workers stop claiming (a run limit; the crawl can be resumed)."""

    max_pages: int | None
    """This process's share of ``max_pages``."""
    max_duration_seconds: float | None
    deferred_horizon_seconds: float
    """Work deferred further than this does not keep the run going (O6)."""


@dataclass(frozen=True, slots=True)
class Callbacks:
    """The library user's callbacks, called in the thread that reads the run's pages."""

    on_page: Callable[[Page], None] | None = None
    on_error: Callable[[Page], None] | None = None
    on_excluded: Callable[[Excluded], None] | None = None


class Workers:
    """The worker threads of one run, and the run's counters while it lasts."""

    def __init__(
        self,
        *,
        frontier: Frontier,
        visitor: Visitor,
        clock: Clock,
        count: int,
        limits: RunLimits,
        delay_seconds: float,
        stop: threading.Event,
        callbacks: Callbacks = Callbacks(),
        keep_to: frozenset[str] | None = None,
        hand_over: bool = False,
    ) -> None:
        """``keep_to``: the hosts the first thread keeps to while they have work (with more
        than one thread; ``site_hosts`` says which); ``hand_over``: a host's slot goes to its
        next URL at the response (``slot_at_response``)."""
        self.frontier = frontier
        self.visitor = visitor
        self.clock = clock
        self.count = count
        self.limits = limits
        self.delay_seconds = delay_seconds
        self.callbacks = callbacks
        self.keep_to = keep_to if count > 1 else None
        self.summary = CrawlSummary()
        self._stop = stop
        self._ending = threading.Event()
        """Set when the run is over for every thread of this process (nothing left, a limit):
        waiting threads wake at once and end."""
        self._lock = threading.Lock()
        self._events: queue.Queue[object] = queue.Queue(maxsize=1000)
        self._threads: list[threading.Thread] = []
        self._idle = 0
        """Threads waiting for a host to come due (``_wait``)."""
        self._handed: collections.deque[Lease] = collections.deque()
        """Leases claimed for a waiting thread by one whose page is still being read."""
        self._wake = threading.Event()
        """Set when a lease is handed to the waiting threads, or when the run ends."""
        if hand_over and count > 1 and visitor is not None:
            visitor.hand_over = self.hand_over

    def run(self, started: float) -> Iterator[Page]:
        """Start the threads and yield every page they complete, until all have ended;
        ``started`` is the run's start on the clock's monotonic counter."""
        self._threads = [
            threading.Thread(
                target=self._work,
                args=(worker_id(f"w{i}"), started, self.keep_to if i == 0 else None),
                name=f"politecrawl-worker-{i}",
                daemon=True,
            )
            for i in range(self.count)
        ]
        for thread in self._threads:
            thread.start()
        yield from self._drain()

    def stop_and_join(self) -> None:
        """Stop claiming and wait for every thread. Their events are dropped (everything is
        recorded in the database already): a thread blocked on a full queue, because the
        consumer stopped reading, must still get to its end."""
        self._stop.set()
        self._wake.set()
        for thread in self._threads:
            while thread.is_alive():
                thread.join(timeout=0.05)
                with contextlib.suppress(queue.Empty):
                    while True:
                        self._events.get_nowait()
        self._release_handed()

    def hand_over(self, answered: ends.Answered) -> bool:
        """A page's response has been read (``Visitor``): while its thread reads and records
        it, free the host's slot and claim the host's next URL for a thread that waits, so
        that the next request starts now rather than after the recording (one request in
        flight per host holds: this one's response is in). True when the slot was freed (the
        lease's end then records its row alone); nothing is done, and False, when no thread
        waits to take the next lease (every thread is busy: the slot goes with the end)."""
        with self._lock:
            if self._idle <= len(self._handed) or self._stop.is_set() or self._ending.is_set():
                return False
        lease = answered.lease
        done = self.frontier.record(
            answered,
            now=self.clock.now,
            claim_for=lease.owner,
            ahead_seconds=CLAIM_AHEAD_SECONDS,
            keep_to=frozenset((lease.host,)),
        )
        if isinstance(done.following, Lease):
            with self._lock:
                self._handed.append(done.following)
            self._wake.set()
        return done.recorded

    def _take_handed(self) -> Lease | None:
        """A lease another thread claimed for a waiting one, if any."""
        with self._lock:
            lease = self._handed.popleft() if self._handed else None
            if not self._handed and not self._ending.is_set():
                self._wake.clear()
        return lease

    def _release_handed(self) -> None:
        """Give back the leases no thread took (the run ended first)."""
        while (lease := self._take_handed()) is not None:
            with contextlib.suppress(Exception):
                self._release(lease)

    def set_stop_reason(self, reason: str) -> None:
        """Say why the run ended, unless a reason was given already."""
        with self._lock:
            if not self.summary.stopped_because:
                self.summary.stopped_because = reason

    # --- the reading side -------------------------------------------------------------------

    def _drain(self) -> Iterator[Page]:
        finished = 0
        failure: BaseException | None = None
        callbacks = self.callbacks
        while finished < self.count:
            event = self._events.get()
            if event is _DONE:
                finished += 1
            elif isinstance(event, _WorkerFailed):
                failure = failure or event.error
            elif isinstance(event, Page):
                self.summary.count_page(event)
                if event.error is not None and callbacks.on_error is not None:
                    callbacks.on_error(event)
                elif callbacks.on_page is not None:
                    callbacks.on_page(event)
                yield event
            elif isinstance(event, Excluded):
                self.summary.count_excluded(event)
                if callbacks.on_excluded is not None:
                    callbacks.on_excluded(event)
        self._release_handed()
        if failure is not None:
            self.set_stop_reason("failed")
            if is_database_error(failure):
                reason = " ".join(str(failure).split())
                raise StoreError(
                    f"the crawl database failed: {reason}; everything recorded so far is kept "
                    "(resume continues the crawl)"
                ) from failure
            raise failure

    # --- one thread -------------------------------------------------------------------------

    def _work(self, me: str, started: float, keep_to: frozenset[str] | None) -> None:
        """One thread; ``keep_to``: the hosts it keeps to while they have work (L1)."""
        claimed: Lease | Wait | None = None
        ahead = CLAIM_AHEAD_SECONDS
        try:
            claimed = self.frontier.claim(
                me, now=self.clock.now, ahead_seconds=ahead, keep_to=keep_to
            )
            while not self._stop.is_set():
                if isinstance(claimed, Wait):
                    if not self._wait(claimed):
                        break
                    claimed = self._take_handed() or self.frontier.claim(
                        me, now=self.clock.now, ahead_seconds=ahead, keep_to=keep_to
                    )
                    continue
                if self._limit_reached(started):
                    self._release(claimed)
                    claimed = None
                    break
                claimed = self._visit(claimed, me, keep_to)
            if isinstance(claimed, Lease) and self._stop.is_set():
                # Stopped while holding the next lease (taken with the last page's record):
                # give it back now, or it would wait for its lease to expire (C5).
                self._release(claimed)
                claimed = None
        except Exception as error:
            # A worker must not die quietly: the others stop, and run() raises the error.
            self._stop.set()
            self._events.put(_WorkerFailed(error))
            if isinstance(claimed, Lease):
                self._give_back(claimed, error)
        finally:
            self._events.put(_DONE)

    def _release(self, lease: Lease) -> None:
        self.frontier.record(ends.Released(lease, lease.claimed_at), now=self.clock.now())

    def _give_back(self, lease: Lease, error: Exception) -> None:
        """Settle the lease of a failed worker, if the database still answers; otherwise it
        returns when it expires, or at once when a later process resumes (C5).

        After a database error, or a WARC archive that cannot be written (a full disk: not
        the page's fault either), the URL goes back to the queue. After any other error (a
        bug) it is recorded as failed with the error, so that a resumed crawl does not meet
        the same bug on the same page again. Its request may have been made: the host keeps
        its delay from now (P2)."""
        with contextlib.suppress(Exception):  # the worker's own error is the one reported
            now = self.clock.now()
            next_fetch_at = next_start_after(
                now,
                delay_seconds=self.delay_seconds,
                robots_delay=self.visitor.gate.robots_delay(lease.origin),
            )
            end: ends.LeaseEnd
            if is_database_error(error) or isinstance(error, ArchiveError):
                end = ends.Released(lease, next_fetch_at)
            else:
                message = f"internal error: {type(error).__name__}: {error}"
                end = ends.Failed(lease, message, at=now, next_fetch_at=next_fetch_at)
            self.frontier.record(end, now=now)

    def _visit(self, lease: Lease, me: str, keep_to: frozenset[str] | None) -> Lease | Wait:
        # A lease claimed ahead of its host's next start (CLAIM_AHEAD_SECONDS) starts then: its
        # request waits for that moment, after the visit's checks, so that it leaves then (P2,
        # P6: a server's log sees its gaps between starts, not that plus the checks' time).
        wait_for_start = partial(self.visitor.addresses.wait_to_send, lease)
        with self.visitor.fetcher.sending_after(wait_for_start):
            result = self.visitor.visit(lease)
        with self._lock:
            count_visit(self.summary, result)
        # What the visit found is recorded with this worker's next claim: one commit a lease.
        following = self.frontier.record(
            result.end,
            now=self.clock.now,
            claim_for=me,
            ahead_seconds=CLAIM_AHEAD_SECONDS,
            keep_to=keep_to,
        ).following
        assert following is not None  # a claim was asked for
        if isinstance(result, Ended) and result.excluded is not None:
            self._events.put(result.excluded)
        elif isinstance(result, PageVisit):
            self._events.put(result.page)
        return following

    def _wait(self, wait: Wait) -> bool:
        """Sleep until ``wait.until`` on the crawl's clock (in steps of at most a quarter of a
        second, so ``stop()`` is prompt; a ``FakeClock`` makes them instant); False when the
        run should end: nothing left, or only work deferred beyond the horizon (O6)."""
        if wait.until is None:
            return self._end("finished")
        seconds = (wait.until - self.clock.now()).total_seconds()
        if wait.reason == "deferred work" and seconds > self.limits.deferred_horizon_seconds:
            return self._end("only deferred work left")
        if wait.reason == "politeness delay":
            seconds -= CLAIM_AHEAD_SECONDS  # the claim takes the host that far ahead of time
        # A thread that ends the run wakes the others: a crawl's last page would otherwise be
        # followed by up to a poll's wait (0.25 s) of threads that have nothing left to do. A
        # lease handed over (``hand_over``) wakes them too.
        with self._lock:
            self._idle += 1
        try:
            wait_for_event(self.clock, self._wake, min(max(seconds, 0.001), _POLL_SECONDS))
        finally:
            with self._lock:
                self._idle -= 1
        return not self._ending.is_set()

    def _end(self, reason: str) -> bool:
        """End the run for every thread of this process, for ``reason``; False (for ``_wait``)."""
        self.set_stop_reason(reason)
        self._ending.set()
        self._wake.set()
        return False

    def _limit_reached(self, started: float) -> bool:
        limits = self.limits
        with self._lock:
            pages = self.summary.pages
        if limits.max_pages is not None and pages >= limits.max_pages:
            self._end("max_pages")
            return True
        duration = limits.max_duration_seconds
        if duration is not None and self.clock.monotonic() - started >= duration:
            self._end("max_duration")
            return True
        return False


def site_hosts(checking: CheckingSettings, scope: Scope) -> frozenset[str] | None:
    """The hosts a run's first thread keeps to (``Workers``' ``keep_to``, see the module's
    docstring): the seeds' hosts, when the run checks links or resources of other sites."""
    if not (checking.check_outbound or checking.check_resources):
        return None
    if scope.mode == "any" or not scope.seed_hosts:  # no other site: nothing to keep back for
        return None
    return scope.seed_hosts
