"""The frontier: which URL is fetched next, by whom, and what became of it [C2, C5, P1-P3].

Hosts are the unit of scheduling: a claim picks a host that is due (its next start time has
come and it has fewer requests in flight than allowed; of the first due, the one waiting longest
since its last request), then that host's best queued URL through
the index on (host, state, depth, priority, id), so the URL table is never scanned. The host's
next start time is set at claim time, so a killed worker still leaves the host its politeness
window (P1-P2); the end of the lease sets it again from the finished request. A lease ends
with a ``Completion`` (a response, with its links, listing or check) or a ``LeaseEnd``
(excluded, deferred, failed, released, kept: built by ``excluded``, ``deferred``, ``failed``,
``released``, ``kept``); ``complete_and_claim`` records either with the worker's next claim
in one short transaction, and ``complete``/``end`` (and ``exclude``, ``fail``, ...) record one
at once.
The parts: ``claims`` (the claim and the next wait), ``outcomes`` (the one write that ends a
lease), ``enqueue`` (new URLs and links), ``leases`` (expiry and wake-ups); this class puts
them in transactions.

Leases (C5): a claimed URL belongs to its worker until the lease expires; expired leases return
to the queue, and so do, at once, the leases of workers on this machine whose process is gone.
Claims are safe across threads (SQLite: ``BEGIN IMMEDIATE``) and processes (PostgreSQL:
``FOR UPDATE SKIP LOCKED`` on the host row). Every write goes through ``Database.run``: a
transaction PostgreSQL aborts to break a deadlock between workers is run again, not lost.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar, cast

from sqlalchemy import Connection, Table, func, select

from politecrawl.sitemaps import SitemapSeed
from politecrawl.store import statements as sql
from politecrawl.store.claims import Claimer, next_wait
from politecrawl.store.database import Database
from politecrawl.store.enqueue import Enqueuer, SortedLinks, sort_links
from politecrawl.store.frontier_types import (
    AddResult,
    Completion,
    FrontierStats,
    HostPaceRecord,
    Lease,
    LeaseEnd,
    LinkOut,
    OriginDeferral,
    PageOutcome,
    Wait,
)
from politecrawl.store.leases import (
    release_expired_leases,
    wake_deferred_urls,
    wake_stranded_hosts,
)
from politecrawl.store.outcomes import (
    as_json,
    defer_queued_of_origin,
    finish_lease,
    page_values,
    record_reading,
    sitemap_seed,
)
from politecrawl.store.passes import current_pass, start_pass
from politecrawl.store.schema import (
    DEFERRED,
    DONE,
    FAILED,
    LEASED,
    PAGE,
    QUEUED,
    URL_STATES,
    HostRecord,
    OriginRecord,
    UrlRecord,
)

_hosts = cast(Table, HostRecord.__table__)
_origins = cast(Table, OriginRecord.__table__)
_urls = cast(Table, UrlRecord.__table__)
_HOUSEKEEPING_SECONDS = 1.0

T = TypeVar("T")


class Frontier:
    """The crawl's queue, leases and per-host politeness state, in the crawl database."""

    def __init__(
        self,
        database: Database,
        *,
        lease_seconds: float = 120.0,
        default_delay_seconds: float = 1.0,
        max_in_flight_per_host: int = 1,
    ) -> None:
        self.database = database
        self.lease_seconds = lease_seconds
        self.default_delay_seconds = default_delay_seconds
        self.max_in_flight_per_host = max_in_flight_per_host
        with database.engine.connect() as connection:
            pass_number = current_pass(connection)
        self.pass_number = pass_number
        self._enqueuer = Enqueuer(
            database.is_sqlite,
            default_delay_seconds=default_delay_seconds,
            max_in_flight_per_host=max_in_flight_per_host,
            pass_number=pass_number,
        )
        self._claimer = Claimer(lease_seconds)
        self._housekeeping_at: datetime | None = None
        self._stranded_check_at = datetime.min.replace(tzinfo=UTC)

    # --- adding -----------------------------------------------------------------------------

    def add(
        self,
        urls: Iterable[str],
        *,
        now: datetime,
        depth: int = 0,
        priority: int = 0,
        discovered_from: int | None = None,
    ) -> AddResult:
        """Canonicalise, de-duplicate and queue URLs (C2), in one transaction."""
        batch = list(urls)  # read once: the transaction may run again
        return self._write(
            lambda connection: self._enqueuer.add(
                connection,
                batch,
                now=now,
                depth=depth,
                priority=priority,
                discovered_from=discovered_from,
            )
        )

    def _write(self, work: Callable[[Connection], T]) -> T:
        """``work`` in one write transaction, run again if the database aborts it (deadlock)."""
        return self.database.run(
            work, on_commit=self._enqueuer.committed, on_rollback=self._enqueuer.rolled_back
        )

    # --- claiming ---------------------------------------------------------------------------

    def claim(self, worker: str, *, now: datetime) -> Lease | Wait:
        """Lease the best URL of a due host to ``worker``, or say when to ask again."""
        self._housekeeping(now)
        lease = self._write(lambda connection: self._claimer.claim(connection, worker, now))
        return lease if lease is not None else self._wait_after_claim(now)

    def _housekeeping(self, now: datetime) -> None:
        if self._housekeeping_at is None or now >= self._housekeeping_at:
            self.release_expired(now=now)
            self.wake_deferred(now=now)
            self._housekeeping_at = now + timedelta(seconds=_HOUSEKEEPING_SECONDS)

    def _wait_after_claim(self, now: datetime) -> Wait:
        """``_wait`` for a worker that found nothing to claim; before it is told that nothing
        is left but deferred work, hosts asleep with queued URLs are woken."""
        wait = self._wait(now)
        if wait.until is not None:
            # Workers poll while they wait for deferred work: the (whole-table) check runs at
            # most once a housekeeping interval then, and not at all for other waits.
            if wait.reason != "deferred work" or now < self._stranded_check_at:
                return wait
            self._stranded_check_at = now + timedelta(seconds=_HOUSEKEEPING_SECONDS)
        if self.wake_stranded_hosts():
            return Wait(now, "politeness delay")
        return wait

    def wake_stranded_hosts(self) -> int:
        """Wake hosts asleep with queued URLs (see ``leases.wake_stranded_hosts``)."""
        return self._write(wake_stranded_hosts)

    def _wait(self, now: datetime) -> Wait:
        with self.database.engine.connect() as connection:  # a read: no write lock taken
            return next_wait(connection, now)

    # --- finishing ----------------------------------------------------------------------------

    def complete(
        self,
        lease: Lease,
        outcome: PageOutcome,
        *,
        now: datetime,
        next_fetch_at: datetime,
        links: Sequence[LinkOut] = (),
        follow_links: bool = True,
        host_delay_seconds: float | None = None,
        redirect_to: str | None = None,
        host_pace: HostPaceRecord | None = None,
    ) -> bool:
        """Record a fetched page, queue its followable links, free its host (one transaction).

        Links are recorded (for reports) whether followed or not; only those that are followable
        (``follow_links`` and no rel=nofollow) are queued, one level deeper. Links must be
        absolute URLs. Returns False when the lease had been lost (expired and claimed again):
        nothing is recorded then.
        """
        completion = Completion(
            lease,
            outcome,
            next_fetch_at,
            host_delay_seconds,
            host_pace,
            tuple(links),
            follow_links,
            redirect_to,
        )
        sorted_links = sort_links(links, follow_links=follow_links)  # before the lock is taken
        return self._write(
            lambda connection: self._complete_in(connection, completion, sorted_links, now)
        )

    def complete_and_claim(
        self, completion: Completion | LeaseEnd, *, worker: str, now: datetime
    ) -> tuple[bool, Lease | Wait]:
        """Record ``completion`` (as ``complete`` or ``end``) and claim the worker's next lease
        in the same transaction: one commit per lease. Returns what ``complete`` and ``claim``
        return."""
        self._housekeeping(now)
        if isinstance(completion, LeaseEnd):
            ending = completion

            def record(connection: Connection) -> bool:
                return self._end_in(connection, ending, now)

        else:
            page = completion
            links = sort_links(page.links, follow_links=page.follow_links)  # before the lock

            def record(connection: Connection) -> bool:
                return self._complete_in(connection, page, links, now)

        def complete_then_claim(connection: Connection) -> tuple[bool, Lease | None]:
            recorded = record(connection)
            return recorded, self._claimer.claim(connection, worker, now)

        recorded, following = self._write(complete_then_claim)
        return recorded, following if following is not None else self._wait_after_claim(now)

    def _complete_in(
        self,
        connection: Connection,
        completion: Completion,
        links: SortedLinks,
        now: datetime,
    ) -> bool:
        lease = completion.lease
        if not finish_lease(
            connection,
            lease,
            page_values(lease, completion.outcome, now),
            completion.next_fetch_at,
            host_delay_seconds=completion.host_delay_seconds,
            host_pace=completion.host_pace,
        ):
            return False
        if completion.redirect_to is not None:
            self._enqueuer.add_redirect(
                connection,
                lease.url_id,
                lease.depth,
                completion.redirect_to,
                hops=lease.redirect_hops + 1,
                now=now,
                sitemap=completion.redirect_sitemap,
                kind=completion.outcome.kind or lease.kind,
            )
        status = completion.outcome.status
        if lease.fetched_at is not None and status is not None and 200 <= status < 300:
            # fetched before (a recrawl) and read anew: its old links and listing go
            for forget in (sql.forget_links, sql.forget_fragments, sql.forget_listing):
                forget.rowcount(connection, {"from_id": lease.url_id})
        self._enqueuer.record_links(connection, lease.url_id, lease.depth, links, now)
        if completion.sitemap is not None:
            record_reading(connection, lease.url_id, completion.sitemap)
            self._enqueuer.record_listing(
                connection, lease.url_id, lease.depth, completion.sitemap, now
            )
        return True

    def sitemap_of(self, lease: Lease) -> SitemapSeed | None:
        """The sitemap ``lease`` is, as it was queued (why, for which origin, how nested)."""
        with self.database.engine.connect() as connection:
            return sitemap_seed(connection, lease.url_id, lease.url)

    # The ways a lease ends without a page: each builds a ``LeaseEnd`` (what the visitor
    # returns, for the worker to record with its next claim) and has a method that records it
    # at once.

    @staticmethod
    def failed(
        lease: Lease,
        error: str,
        *,
        now: datetime,
        next_fetch_at: datetime,
        retry_at: datetime | None = None,
        status: int | None = None,
        host_delay_seconds: float | None = None,
        host_pace: HostPaceRecord | None = None,
        kind: str | None = None,
        check_method: str | None = None,
    ) -> LeaseEnd:
        """A failed attempt: retried at ``retry_at`` (deferred), or final when it is None.
        ``kind`` as for ``excluded``; ``check_method``: how a check asked (L2)."""
        values: dict[str, Any] = {
            "status": status,
            "error": error,
            "attempts": lease.attempts + 1,
            "fetched_at": now,
        }
        if kind is not None:
            values["kind"] = kind
        if check_method is not None:
            values["check_method"] = check_method
        if retry_at is None:
            values["state"] = FAILED
        else:
            values.update(state=DEFERRED, next_attempt_at=retry_at, reason="retry")
        return LeaseEnd(lease, values, next_fetch_at, host_pace, host_delay_seconds)

    @staticmethod
    def deferred(
        lease: Lease,
        *,
        until: datetime | None,
        reason: str,
        detail: dict[str, Any] | None = None,
        next_fetch_at: datetime | None = None,
        origin_deferred: OriginDeferral | None = None,
    ) -> LeaseEnd:
        """Put the URL aside until ``until`` (robots.txt unreachable, O6; Retry-After, P3).

        ``until=None``: not in this run (``wake_indefinitely_deferred`` brings it back on resume).
        ``next_fetch_at=None`` (here and in ``excluded``): no request was made for the lease, so
        the host gets back the slot it was due at when the lease was claimed.
        ``origin_deferred``: every queued URL of the origin with it (O6).
        """
        values = {
            "state": DEFERRED,
            "next_attempt_at": until,
            "reason": reason,
            "reason_detail": as_json(detail),
        }
        return LeaseEnd(lease, values, next_fetch_at, origin_deferred=origin_deferred)

    @staticmethod
    def released(
        lease: Lease, *, next_fetch_at: datetime, sitemaps: Sequence[SitemapSeed] = ()
    ) -> LeaseEnd:
        """Give the URL back to the queue without counting an attempt (e.g. robots.txt first).
        ``sitemaps``: the origin's sitemaps its robots.txt named, queued in the same
        transaction as the release (S1). robots.txt itself was recorded just before, by the
        gate: should the crawl die in between, the next run queues what it missed
        (``RobotsOutcomeStore.without_sitemaps``, ``add_sitemaps``)."""
        return LeaseEnd(lease, {"state": QUEUED}, next_fetch_at, sitemaps=tuple(sitemaps))

    @staticmethod
    def kept(lease: Lease, *, reason: str) -> LeaseEnd:
        """The URL is not fetched in this pass and its last result stands (S3: its sitemap
        says it has not changed since; L1: a check made lately); the host gets back its slot."""
        return LeaseEnd(lease, {"state": DONE, "reason": reason})

    @staticmethod
    def excluded(
        lease: Lease,
        *,
        state: str,
        reason: str,
        detail: dict[str, Any] | None = None,
        next_fetch_at: datetime | None = None,
        kind: str | None = None,
    ) -> LeaseEnd:
        """Never fetch this URL in this pass, and keep why (robots line, scope rule, trap).
        ``kind``: what the URL is from now on (a link leaving the site is a check, L1)."""
        if state not in URL_STATES or state in (QUEUED, LEASED):
            raise ValueError(f"not a final state: {state!r}")
        values = {"state": state, "reason": reason, "reason_detail": as_json(detail)}
        if kind is not None:
            values["kind"] = kind
        return LeaseEnd(lease, values, next_fetch_at)

    def end(self, ending: LeaseEnd, *, now: datetime) -> bool:
        """Record ``ending`` (False, and nothing written, when the lease had been lost)."""
        return self._write(lambda connection: self._end_in(connection, ending, now))

    def _end_in(self, connection: Connection, ending: LeaseEnd, now: datetime) -> bool:
        lease = ending.lease
        if not finish_lease(
            connection,
            lease,
            dict(ending.values),
            ending.next_fetch_at,
            host_delay_seconds=ending.host_delay_seconds,
            host_pace=ending.host_pace,
        ):
            return False
        if ending.sitemaps:
            self._enqueuer.queue_sitemaps(
                connection, ending.sitemaps, depth=0, discovered_from=lease.url_id, now=now
            )
        if (deferral := ending.origin_deferred) is not None:
            defer_queued_of_origin(
                connection, deferral.origin, deferral.until, deferral.reason, deferral.detail
            )
        return True

    def fail(self, lease: Lease, error: str, **options: Any) -> bool:
        """``failed``, recorded at once."""
        return self.end(self.failed(lease, error, **options), now=options["now"])

    def defer(self, lease: Lease, *, now: datetime, **options: Any) -> bool:
        """``deferred``, recorded at once."""
        return self.end(self.deferred(lease, **options), now=now)

    def release(self, lease: Lease, *, now: datetime, **options: Any) -> bool:
        """``released``, recorded at once."""
        return self.end(self.released(lease, **options), now=now)

    def keep_unchanged(self, lease: Lease, *, reason: str) -> bool:
        """``kept``, recorded at once."""
        return self.end(self.kept(lease, reason=reason), now=lease.claimed_at)

    def exclude(self, lease: Lease, *, now: datetime, **options: Any) -> bool:
        """``excluded``, recorded at once."""
        return self.end(self.excluded(lease, **options), now=now)

    def add_sitemaps(self, sitemaps: Sequence[SitemapSeed], *, now: datetime) -> None:
        """Queue sitemaps found outside a lease (S1: an origin whose robots.txt was read but
        whose sitemaps were not queued); those already known are left as they are."""
        seeds = list(sitemaps)
        self._write(
            lambda connection: self._enqueuer.queue_sitemaps(
                connection, seeds, depth=0, discovered_from=None, now=now
            )
        )

    # --- housekeeping -----------------------------------------------------------------------

    def release_expired(self, *, now: datetime) -> int:
        """Return expired leases, and those of dead local processes, to the queue (C5)."""
        return self._write(lambda connection: release_expired_leases(connection, now))

    def wake_deferred(self, *, now: datetime) -> int:
        """Queue again the deferred URLs whose time has come."""
        return self._write(lambda connection: wake_deferred_urls(connection, now))

    def start_pass(self, *, now: datetime, max_age: timedelta | None = None) -> int:
        """Begin a recrawl pass (see ``politecrawl.store.passes``); returns its number."""
        number = start_pass(self.database, now=now, max_age=max_age)
        self.pass_number = number
        self._enqueuer.pass_number = number
        return number

    def reserve_host(self, host: str, *, now: datetime) -> bool:
        """Take a request slot on ``host`` outside a lease (a robots.txt redirect to another
        host, O7); False when the host is busy or not due. A host never seen is created."""

        def take_slot(connection: Connection) -> bool:
            self._enqueuer.ensure_host(connection, host, now)
            slot = sql.take_named_host_slot.first(
                connection, {"host_name": host, "now": sql.epoch(now)}
            )
            return slot is not None

        return self._write(take_slot)

    def release_host(self, host: str, *, next_fetch_at: datetime) -> None:
        """Give back a slot taken by ``reserve_host``, with the host's next start time."""
        self._write(
            lambda connection: sql.free_host.rowcount(
                connection, {"host_name": host, "next_at": sql.epoch(next_fetch_at)}
            )
        )

    def wake_indefinitely_deferred(self, *, now: datetime) -> int:
        """Queue again the URLs deferred for the rest of a run (``until=None``): a resumed run
        retries unreachable robots.txt (O6)."""
        return self._write(lambda connection: wake_deferred_urls(connection, now, indefinite=True))

    def seed_origins(self) -> list[str]:
        """The origins of the URLs added at depth 0: the crawl's seeds (scope C1)."""
        with self.database.engine.connect() as connection:
            rows = connection.execute(
                select(_origins.c.origin)
                .join(_urls, _urls.c.origin_id == _origins.c.id)
                .where(_urls.c.depth == 0, _urls.c.redirect_hops == 0, _urls.c.kind == PAGE)
                .distinct()
            )
            return sorted(row.origin for row in rows)

    def url_of(self, url_id: int) -> str | None:
        """The URL with id ``url_id`` (a lease's ``referrer_id``), if it exists."""
        with self.database.engine.connect() as connection:
            return connection.execute(
                select(_urls.c.url).where(_urls.c.id == url_id)
            ).scalar_one_or_none()

    def seed_urls(self) -> set[str]:
        """The URLs added at depth 0 (the crawl's seeds), canonical."""
        with self.database.engine.connect() as connection:
            rows = connection.execute(
                select(_urls.c.url).where(
                    _urls.c.depth == 0, _urls.c.redirect_hops == 0, _urls.c.kind == PAGE
                )
            )
            return {row.url for row in rows}

    # --- reading ----------------------------------------------------------------------------

    def stats(self, *, now: datetime, per_host: bool = False) -> FrontierStats:
        """Counts per state (and per host), robots outcomes per origin, next ready time."""
        with self.database.engine.connect() as connection:
            by_state: dict[str, int] = dict(
                connection.execute(
                    select(_urls.c.state, func.count()).group_by(_urls.c.state)
                ).all()
            )
            robots: dict[str, int] = dict(
                connection.execute(
                    select(
                        func.coalesce(_origins.c.robots_outcome, "unknown"), func.count()
                    ).group_by(_origins.c.robots_outcome)
                ).all()
            )
            by_host: dict[str, dict[str, int]] = {}
            if per_host:
                rows = connection.execute(
                    select(_hosts.c.host, _urls.c.state, func.count())
                    .join(_urls, _urls.c.host_id == _hosts.c.id)
                    .group_by(_hosts.c.host, _urls.c.state)
                ).all()
                for host, state, count in rows:
                    by_host.setdefault(host, {})[state] = count
        wait = self._wait(now)
        return FrontierStats(
            {state: by_state.get(state, 0) for state in URL_STATES},
            by_host,
            robots,
            wait.until,
        )
