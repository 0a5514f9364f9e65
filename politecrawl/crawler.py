"""``Crawler``: the embeddable crawl, worker threads over the shared frontier [C5, P1, T5].

    with Crawler(CrawlConfig(agent="examplebot", contact="https://example.org/bot")) as crawler:
        crawler.add_seeds(["https://example.org/"])
        for page in crawler.crawl():
            ...

Workers claim leases, visit them (``politecrawl.visit``) and record each page together with
their next claim. Pages come out of ``crawl()`` as they complete. The run ends when nothing is
queued or leased, when only work deferred beyond ``deferred_horizon_seconds`` remains (it says
so), at a limit, or on ``stop()``; in-flight requests finish and are recorded, nothing is lost,
and opening the same database again continues the crawl.
"""

from __future__ import annotations

import contextlib
import dataclasses
import queue
import signal
import threading
from collections.abc import Callable, Iterable, Iterator
from datetime import timedelta
from types import TracebackType
from typing import Any

from politecrawl.assembly import fetcher_of, scope_of, visitor_of
from politecrawl.clock import Clock, SystemClock
from politecrawl.config import CrawlConfig
from politecrawl.errors import PolitecrawlError, StoreError
from politecrawl.fetch import Fetcher
from politecrawl.politeness import HostQueue
from politecrawl.processes import HelperProcesses, serve, share
from politecrawl.results import CrawlSummary, Excluded, Page
from politecrawl.scope import Scope
from politecrawl.store import (
    AddResult,
    Database,
    DatabaseSettings,
    Frontier,
    FrontierStats,
    Lease,
    RobotsOutcomeStore,
    Wait,
    finish_run,
    host_waits,
    is_database_error,
    open_database,
    start_run,
    worker_id,
)
from politecrawl.visit import Visitor, VisitResult

_POLL_SECONDS = 0.25
_DONE = object()


@dataclasses.dataclass(frozen=True, slots=True)
class _WorkerFailed:
    """A worker thread died of an error; the crawl stops and re-raises it."""

    error: BaseException


class Crawler:
    """A polite crawl stored in ``config.database``; use it as a context manager."""

    def __init__(
        self,
        config: CrawlConfig,
        *,
        clock: Clock | None = None,
        fetcher: Fetcher | None = None,
        on_page: Callable[[Page], None] | None = None,
        on_error: Callable[[Page], None] | None = None,
        on_excluded: Callable[[Excluded], None] | None = None,
        deferred_horizon_seconds: float = 60.0,
        process_index: int = 0,
    ) -> None:
        """``process_index``: which of ``config.processes`` this crawler is; 0 (the default)
        starts the others (``politecrawl.processes``) when the crawl runs."""
        self.config = config.validate()
        self.process_index = process_index
        self._max_pages = share(self.config.max_pages, process_index, self.config.processes)
        self._helpers: HelperProcesses | None = None
        self._run_id = 0
        self.clock = clock or SystemClock()
        self._fetcher = fetcher
        self.on_page = on_page
        self.on_error = on_error
        self.on_excluded = on_excluded
        self.deferred_horizon_seconds = deferred_horizon_seconds
        self.database: Database | None = None
        self.frontier: Frontier | None = None
        self._scope = Scope()
        self.summary = CrawlSummary()
        self._stop = threading.Event()
        self._lock = threading.Lock()

    # --- lifecycle --------------------------------------------------------------------------

    def __enter__(self) -> Crawler:
        self.open()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def open(self) -> None:
        """Open (creating or upgrading) the crawl database."""
        if self.database is not None:
            return
        self.database = open_database(
            self.config.database, DatabaseSettings(synchronous_full=self.config.synchronous_full)
        )
        self.frontier = Frontier(
            self.database,
            lease_seconds=self.config.lease_seconds,
            default_delay_seconds=self.config.delay_seconds,
            max_in_flight_per_host=self.config.max_in_flight_per_host,
        )

    def close(self) -> None:
        """Stop the workers (if running) and close the database."""
        self.stop()
        if self._fetcher is not None:
            self._fetcher.close()
        if self.database is not None:
            self.database.close()
            self.database = None
            self.frontier = None

    def stop(self) -> None:
        """Stop claiming work; in-flight requests finish and are recorded. Thread-safe."""
        self._stop.set()

    def progress(self) -> CrawlSummary:
        """The run's counters so far, those of the helper processes included."""
        helpers = self._helpers
        return self.summary if helpers is None else helpers.combined(self.summary)

    def stats(self) -> FrontierStats:
        """The frontier's counts now (for progress displays)."""
        self.open()
        assert self.frontier is not None
        return self.frontier.stats(now=self.clock.now())

    def host_queues(self) -> list[HostQueue]:
        """Each host with work left: its queue, in flight, delay and next start (for the
        display's estimate of the time left and its list of waiting hosts)."""
        self.open()
        assert self.database is not None
        return [
            HostQueue(
                wait.host,
                wait.queued,
                wait.in_flight,
                wait.delay_seconds,
                wait.next_fetch_at,
                (wait.wait_reason or "delay") if wait.queued else "deferred",
            )
            for wait in host_waits(self.database)
        ]

    # --- seeding ----------------------------------------------------------------------------

    def add_seeds(self, urls: Iterable[str]) -> AddResult:
        """Queue seed URLs (depth 0); their origins define the default scope (C1)."""
        self.open()
        assert self.frontier is not None
        return self.frontier.add(urls, now=self.clock.now(), depth=0)

    # --- crawling ---------------------------------------------------------------------------

    def recrawl(
        self, *, max_age: timedelta | None = None, handle_signals: bool = False
    ) -> Iterator[Page]:
        """Start a new pass over the crawl and run it (issue 6): every URL fetched before (or,
        with ``max_age``, every URL fetched longer ago than that) is revisited with a
        conditional GET; robots.txt is revalidated first. Pages come out as with ``crawl``;
        ``politecrawl report --compare`` says what changed. A killed recrawl is resumed with
        ``crawl()`` (or ``politecrawl resume``), not by starting another pass."""
        self.open()
        assert self.frontier is not None
        self.frontier.start_pass(now=self.clock.now(), max_age=max_age)
        return self.crawl(handle_signals=handle_signals)

    def run(self) -> CrawlSummary:
        """Crawl to the end, calling the callbacks; returns the summary."""
        for _ in self.crawl():
            pass
        return self.summary

    def crawl(self, *, handle_signals: bool = False) -> Iterator[Page]:
        """Crawl, yielding every fetched URL as it completes (noindex and errors included:
        check ``page.indexable``, T5). Callbacks, when given, are called as well.

        Ctrl-C (KeyboardInterrupt) stops claiming, lets in-flight requests finish and be
        recorded, then re-raises; a second Ctrl-C exits at once, and the leases it leaves behind
        return to the queue when the crawl is resumed. ``handle_signals`` makes SIGTERM do the
        same as Ctrl-C (from the main thread only; the command line uses it).
        """
        self.open()
        assert self.database is not None
        assert self.frontier is not None
        self._stop.clear()
        self.summary = CrawlSummary()
        started = self.clock.monotonic()
        now = self.clock.now()
        self.frontier.release_expired(now=now)
        self.frontier.wake_stranded_hosts()
        RobotsOutcomeStore(self.database).retry_exhausted(now=now)
        self.frontier.wake_indefinitely_deferred(now=now)
        run_id = self._run_id = start_run(
            self.database,
            config=_public(self.config),
            now=now,
            pass_number=self.frontier.pass_number,
        )
        events: queue.Queue[object] = queue.Queue(maxsize=1000)
        visitor = self._visitor()
        if self.config.sitemaps and self.process_index == 0:
            visitor.queue_missed_sitemaps(RobotsOutcomeStore(self.database).without_sitemaps())
        if self.process_index == 0 and self.config.processes > 1:
            self._helpers = HelperProcesses(_serve_as_helper, self.config, self.config.processes)
            self._helpers.start()
        workers = [
            threading.Thread(
                target=self._work,
                args=(visitor, events, worker_id(f"w{i}"), started),
                name=f"politecrawl-worker-{i}",
                daemon=True,
            )
            for i in range(self.config.workers)
        ]
        for worker in workers:
            worker.start()
        restore = _sigterm_as_interrupt() if handle_signals else None
        failing = False
        try:
            yield from self._drain(events, len(workers))
        except BaseException as error:  # an error, Ctrl-C, or the consumer closed the iterator
            failing = True
            if isinstance(error, KeyboardInterrupt):
                self._set_stop_reason("interrupted")
            raise
        finally:
            if restore is not None:
                restore()
            self._stop.set()
            _join_draining(workers, events)
            try:
                helpers, helpers_failure = self._end_helpers(failing)
                self._finish_summary(started)
                finish_run(
                    self.database,
                    run_id,
                    counters=self.summary.as_dict(),  # this process's own; helpers keep theirs
                    outcome=self.summary.stopped_because,
                    now=self.clock.now(),
                )
                if helpers is not None:
                    self.summary = helpers.combined(self.summary)
                if helpers_failure is not None:
                    self._set_stop_reason("failed")
                    raise PolitecrawlError(helpers_failure)
            except Exception:
                if not failing:
                    raise
                # The error already on its way out is the one worth reporting.

    def _end_helpers(self, failing: bool) -> tuple[HelperProcesses | None, str | None]:
        """Wait for the helper processes, after stopping them unless the crawl ended by
        itself (they see the same frontier and end too, or reach their own share of a limit).
        Returns them (for their counters) and what went wrong in them, if anything."""
        helpers, self._helpers = self._helpers, None
        if helpers is None:
            return None, None
        ended_by_itself = self.summary.stopped_because in (
            "finished",
            "only deferred work left",
            "max_pages",
            "max_duration",
        )
        if failing or not ended_by_itself:
            helpers.stop()
        return helpers, helpers.join()

    def _visitor(self) -> Visitor:
        assert self.database is not None
        assert self.frontier is not None
        self._scope = scope_of(self.config, self.frontier.seed_origins())
        if self._fetcher is None:
            self._fetcher = fetcher_of(
                self.config, lambda: self._scope.seed_hosts, run=f"run{self._run_id:06d}"
            )
        return visitor_of(
            self.config,
            database=self.database,
            frontier=self.frontier,
            fetcher=self._fetcher,
            scope=self._scope,
            clock=self.clock,
        )

    def _drain(self, events: queue.Queue[object], workers: int) -> Iterator[Page]:
        finished = 0
        failure: BaseException | None = None
        while finished < workers:
            event = events.get()
            if event is _DONE:
                finished += 1
            elif isinstance(event, _WorkerFailed):
                failure = failure or event.error
            elif isinstance(event, Page):
                self.summary.count_page(event)
                if event.error is not None and self.on_error is not None:
                    self.on_error(event)
                elif self.on_page is not None:
                    self.on_page(event)
                yield event
            elif isinstance(event, Excluded):
                self.summary.count_excluded(event)
                if self.on_excluded is not None:
                    self.on_excluded(event)
        if failure is not None:
            self._set_stop_reason("failed")
            if is_database_error(failure):
                reason = " ".join(str(failure).split())
                raise StoreError(
                    f"the crawl database failed: {reason}; everything recorded so far is kept "
                    "(resume continues the crawl)"
                ) from failure
            raise failure

    # --- workers ----------------------------------------------------------------------------

    def _work(self, visitor: Visitor, events: queue.Queue[object], me: str, started: float) -> None:
        assert self.frontier is not None
        claimed: Lease | Wait | None = None
        try:
            claimed = self.frontier.claim(me, now=self.clock.now())
            while not self._stop.is_set():
                if isinstance(claimed, Wait):
                    if not self._wait(claimed):
                        break
                    claimed = self.frontier.claim(me, now=self.clock.now())
                    continue
                if self._limit_reached(started):
                    self.frontier.release(
                        claimed, now=self.clock.now(), next_fetch_at=claimed.claimed_at
                    )
                    claimed = None
                    break
                claimed = self._visit(visitor, claimed, events, me)
            if isinstance(claimed, Lease) and self._stop.is_set():
                # Stopped while holding the next lease (taken with the last page's record):
                # give it back now, or it would wait for its lease to expire (C5).
                self.frontier.release(
                    claimed, now=self.clock.now(), next_fetch_at=claimed.claimed_at
                )
                claimed = None
        except Exception as error:
            # A worker must not die quietly: the others stop, and crawl() raises the error.
            self._stop.set()
            events.put(_WorkerFailed(error))
            if isinstance(claimed, Lease):
                self._give_back(visitor, claimed, error)
        finally:
            events.put(_DONE)

    def _give_back(self, visitor: Visitor, lease: Lease, error: Exception) -> None:
        """Settle the lease of a failed worker, if the database still answers; otherwise it
        returns when it expires, or at once when a later process resumes (C5).

        After a database error the URL goes back to the queue. After any other error (a bug)
        it is recorded as failed with the error, so that a resumed crawl does not meet the
        same bug on the same page again. Its request may have been made: the host keeps its
        delay from now (P2)."""
        assert self.frontier is not None
        frontier = self.frontier
        with contextlib.suppress(Exception):  # the worker's own error is the one reported
            now = self.clock.now()
            delay = max(self.config.delay_seconds, visitor.gate.robots_delay(lease.origin))
            next_fetch_at = now + timedelta(seconds=delay)
            if is_database_error(error):
                frontier.release(lease, now=now, next_fetch_at=next_fetch_at)
            else:
                message = f"internal error: {type(error).__name__}: {error}"
                frontier.fail(lease, message, now=now, next_fetch_at=next_fetch_at)

    def _visit(
        self, visitor: Visitor, lease: Lease, events: queue.Queue[object], me: str
    ) -> Lease | Wait:
        assert self.frontier is not None
        result: VisitResult = visitor.visit(lease)
        if result.robots_fetched:
            with self._lock:
                self.summary.robots_fetches += 1
        if result.sitemap_skipped:
            with self._lock:
                self.summary.sitemap_skips += 1
        if result.completion is not None and result.completion.lease.kind == "sitemap":
            with self._lock:
                self.summary.sitemaps += 1
        if result.checked:
            with self._lock:
                self.summary.checks += 1
                self.summary.broken_checks += result.check_broken
        if result.page is not None:
            with self._lock:
                self.summary.pages += 1
        # What the visit found is recorded with this worker's next claim: one commit a lease.
        record = result.completion or result.end
        if record is None:
            claimed = self.frontier.claim(me, now=self.clock.now())
        else:
            _, claimed = self.frontier.complete_and_claim(record, worker=me, now=self.clock.now())
        if result.excluded is not None:
            events.put(result.excluded)
        if result.page is not None:
            events.put(result.page)
        return claimed

    def _wait(self, wait: Wait) -> bool:
        """Sleep until ``wait.until`` on the crawl's clock (in steps of at most a quarter of a
        second, so ``stop()`` is prompt; a ``FakeClock`` makes them instant); False when the
        run should end: nothing left, or only work deferred beyond the horizon (O6)."""
        if wait.until is None:
            self._set_stop_reason("finished")
            return False
        seconds = (wait.until - self.clock.now()).total_seconds()
        if wait.reason == "deferred work" and seconds > self.deferred_horizon_seconds:
            self._set_stop_reason("only deferred work left")
            return False
        self.clock.sleep(min(max(seconds, 0.001), _POLL_SECONDS))
        return True

    def _limit_reached(self, started: float) -> bool:
        config = self.config
        with self._lock:
            pages = self.summary.pages
        if self._max_pages is not None and pages >= self._max_pages:  # this process's share
            self._set_stop_reason("max_pages")
            return True
        if (
            config.max_duration_seconds is not None
            and self.clock.monotonic() - started >= config.max_duration_seconds
        ):
            self._set_stop_reason("max_duration")
            return True
        return False

    # --- counting ---------------------------------------------------------------------------

    def _set_stop_reason(self, reason: str) -> None:
        with self._lock:
            if not self.summary.stopped_because:
                self.summary.stopped_because = reason

    def _finish_summary(self, started: float) -> None:
        assert self.frontier is not None
        stats = self.frontier.stats(now=self.clock.now())
        summary = self.summary
        summary.deferred = stats.by_state.get("deferred", 0)
        summary.queued = stats.by_state.get("queued", 0)
        summary.failed = stats.by_state.get("failed", 0)
        summary.done = stats.by_state.get("done", 0)
        summary.duration_seconds = self.clock.monotonic() - started
        if not summary.stopped_because:
            summary.stopped_because = "stopped"


def _serve_as_helper(config: CrawlConfig, index: int, parent: int, reports: Any) -> None:
    """The life of helper process ``index`` (``politecrawl.processes``): its own crawler on
    the same crawl database."""
    with Crawler(config, process_index=index) as crawler:
        serve(crawler, index, parent, reports)


def _join_draining(workers: list[threading.Thread], events: queue.Queue[object]) -> None:
    """Wait for the stopped workers. Their events are dropped (everything is recorded in the
    database already): a worker blocked on a full queue, because the consumer stopped reading,
    must still get to its end."""
    for worker in workers:
        while worker.is_alive():
            worker.join(timeout=0.05)
            with contextlib.suppress(queue.Empty):
                while True:
                    events.get_nowait()


def _sigterm_as_interrupt() -> Callable[[], None] | None:
    """Make SIGTERM raise KeyboardInterrupt; returns the undo, or None off the main thread."""
    if threading.current_thread() is not threading.main_thread():
        return None

    def interrupt(_signal: int, _frame: object) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, interrupt)

    def restore() -> None:
        signal.signal(signal.SIGTERM, previous)

    return restore


def _public(config: CrawlConfig) -> dict[str, object]:
    """The configuration as stored with the run (``extra`` left out)."""
    values = dataclasses.asdict(config)
    values.pop("extra", None)
    return values
