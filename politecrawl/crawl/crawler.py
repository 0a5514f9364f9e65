"""``Crawler``: the embeddable crawl, worker threads over the shared frontier [C5, P1, T5].

    with Crawler(CrawlConfig(agent="examplebot", contact="https://example.org/bot")) as crawler:
        crawler.add_seeds(["https://example.org/"])
        for page in crawler.crawl():
            ...

``Crawler`` opens the crawl database, queues seeds, and runs: it records each run, builds the
object graph (``assembly``), starts the helper processes (``processes``) and the worker threads
(``workers``: claim, visit, record with the next claim), and hands their pages out of
``crawl()`` as they complete. The run ends when nothing is queued or leased, when only work
deferred beyond ``deferred_horizon_seconds`` remains (it says so), at a limit, or on
``stop()``; in-flight requests finish and are recorded, nothing is lost, and opening the same
database again continues the crawl.
"""

from __future__ import annotations

import signal
import threading
from typing import TYPE_CHECKING

from politecrawl.clock import Clock, SystemClock
from politecrawl.crawl.addresses import servers_of
from politecrawl.crawl.assembly import fetcher_of, scope_of, visitor_of
from politecrawl.crawl.processes import HelperProcesses, HelperSlot, serve, share
from politecrawl.crawl.workers import Callbacks, RunLimits, Workers, site_hosts
from politecrawl.errors import PolitecrawlError
from politecrawl.politeness import SERVER_WAIT, HostQueue
from politecrawl.results import CrawlSummary, Excluded, Page
from politecrawl.scope import Scope
from politecrawl.store import (
    AddResult,
    Database,
    DatabaseSettings,
    Frontier,
    FrontierStats,
    RobotsOutcomeStore,
    drop_link_target_index,
    ensure_link_target_index,
    finish_run,
    open_database,
    start_run,
)
from politecrawl.store.reading import host_waits

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator
    from datetime import datetime, timedelta
    from types import TracebackType

    from politecrawl.config import CrawlConfig
    from politecrawl.crawl.visit import Visitor
    from politecrawl.fetch import Fetcher


class Crawler:
    """A polite crawl stored in ``config.storage.database``; use it as a context manager."""

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
        """``process_index``: which of ``config.crawl.processes`` this crawler is; 0 (the default)
        starts the others (``politecrawl.crawl.processes``) when the crawl runs."""
        self.config = config.validate()
        self.process_index = process_index
        self._max_pages = share(
            self.config.scope.max_pages, process_index, self.config.crawl.processes
        )
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
        self._interrupted = False
        self._workers: Workers | None = None

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
            self.config.storage.database,
            DatabaseSettings(synchronous_full=self.config.storage.synchronous_full),
        )
        self.frontier = Frontier(
            self.database,
            lease_seconds=self.config.storage.lease_seconds,
            default_delay_seconds=self.config.politeness.delay_seconds,
            max_in_flight_per_host=self.config.politeness.max_in_flight_per_host,
            servers=servers_of(self.config.politeness),
        )

    def close(self) -> None:
        """Stop the workers (if running) and close the database."""
        self.stop()
        try:
            if self._fetcher is not None:
                self._fetcher.close()  # an archive that cannot close its file raises
        finally:
            if self.database is not None:
                self.database.close()
                self.database = None
                self.frontier = None

    def stop(self) -> None:
        """Stop claiming work; in-flight requests finish and are recorded. Thread-safe."""
        self._stop.set()

    def interrupt(self) -> None:
        """``stop``, with the run recorded as interrupted (as by Ctrl-C); also before the crawl
        has started, which then stops at once. Thread-safe; not for a signal handler (it takes
        locks): a helper process's handler only notes the signal (``processes.serve``)."""
        self._interrupted = True
        workers = self._workers
        if workers is not None:
            workers.set_stop_reason("interrupted")
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
        now = self.clock.now()
        return [
            HostQueue(
                wait.host,
                wait.queued,
                wait.in_flight,
                wait.delay_seconds,
                wait.next_fetch_at,
                (SERVER_WAIT if wait.server_wait(now) else wait.wait_reason or "delay")
                if wait.queued
                else "deferred",
                wait.server,
                wait.server_delay_seconds,
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
        self._wake_left_work(now)
        run_id = self._run_id = start_run(
            self.database,
            config=self.config.as_flat_dict(),
            now=now,
            pass_number=self.frontier.pass_number,
        )
        visitor = self._visitor()
        if self.config.sitemaps.sitemaps and self.process_index == 0:
            visitor.queue_missed_sitemaps(RobotsOutcomeStore(self.database).without_sitemaps())
        if self.process_index == 0 and self.config.crawl.processes > 1:
            self._helpers = HelperProcesses(
                _serve_as_helper, self.config, self.config.crawl.processes
            )
            self._helpers.start()
        workers = self._new_workers(visitor)
        self.summary = workers.summary
        restore = (
            _signals_as_interrupt(lambda: workers.set_stop_reason("interrupted"))
            if handle_signals
            else None
        )
        failing = False
        try:
            yield from workers.run(started)
        except BaseException as error:  # an error, Ctrl-C, or the consumer closed the iterator
            failing = True
            if isinstance(error, KeyboardInterrupt):
                workers.set_stop_reason("interrupted")
            raise
        finally:
            self._interrupted = False
            if restore is not None:
                restore()
            workers.stop_and_join()
            try:
                helpers, helpers_failure = self._end_helpers(failing)
                if helpers_failure is not None:
                    workers.set_stop_reason("failed")  # unless a reason came first
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
                    raise PolitecrawlError(helpers_failure)
                if not failing and self.process_index == 0:
                    ensure_link_target_index(self.database)  # for the reports that follow
            except Exception:
                if not failing:
                    raise
                # The error already on its way out is the one worth reporting.

    def _wake_left_work(self, now: datetime) -> None:
        """What an earlier run left: expired leases, sleeping hosts, robots.txt whose attempts
        ran out and work deferred for the rest of that run, queued again (C5, O6). The first
        process also drops the links' target index for the run's writes (``link_targets``)."""
        assert self.database is not None
        assert self.frontier is not None
        self.frontier.release_expired(now=now)
        self.frontier.wake_stranded_hosts()
        RobotsOutcomeStore(self.database).retry_exhausted(now=now)
        self.frontier.wake_indefinitely_deferred(now=now)
        if self.process_index == 0:
            drop_link_target_index(self.database)  # built again as the run ends

    def _new_workers(self, visitor: Visitor) -> Workers:
        """This run's worker threads, not started; an ``interrupt`` before them stops them."""
        assert self.frontier is not None
        workers = Workers(
            frontier=self.frontier,
            visitor=visitor,
            clock=self.clock,
            count=self.config.crawl.workers,
            limits=RunLimits(
                self._max_pages,
                self.config.scope.max_duration_seconds,
                self.deferred_horizon_seconds,
            ),
            delay_seconds=self.config.politeness.delay_seconds,
            stop=self._stop,
            callbacks=Callbacks(self.on_page, self.on_error, self.on_excluded),
            keep_to=site_hosts(self.config.checking, self._scope),  # L1: the site never starves
            hand_over=self.config.politeness.slot_at_response,
        )
        self._workers = workers  # before the check: an interrupt from now on finds them
        if self._interrupted:
            self.interrupt()  # again, now that there are workers to tell why
        return workers

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


def _serve_as_helper(config: CrawlConfig, index: int, parent: int, slot: HelperSlot) -> None:
    """The life of helper process ``index`` (``politecrawl.crawl.processes``): its own crawler on
    the same crawl database."""
    with Crawler(config, process_index=index) as crawler:
        serve(crawler, parent, slot)


def _signals_as_interrupt(record: Callable[[], None]) -> Callable[[], None] | None:
    """Make SIGTERM and SIGINT call ``record`` and raise KeyboardInterrupt; returns the undo, or
    None off the main thread.

    The reason is recorded here, not where the KeyboardInterrupt is caught: a signal that
    arrives while the caller's loop body runs raises there, and the crawl generator then only
    sees GeneratorExit."""
    if threading.current_thread() is not threading.main_thread():
        return None

    def interrupt(_signal: int, _frame: object) -> None:
        record()
        raise KeyboardInterrupt

    previous = {signal.SIGTERM: signal.signal(signal.SIGTERM, interrupt)}
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:  # not when ignored
        previous[signal.SIGINT] = signal.signal(signal.SIGINT, interrupt)

    def restore() -> None:
        for number, handler in previous.items():
            signal.signal(number, handler)

    return restore
