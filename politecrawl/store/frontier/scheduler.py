"""The frontier: which URL is fetched next, by whom, and what became of it [C2, C5, P1-P3].

Hosts are the unit of scheduling: a claim picks a host that is due (its next start time has
come, or comes within the claim's ``ahead_seconds``, when the lease starts; and it has fewer
requests in flight than allowed; of the first due, the one waiting longest since its last request,
its delay counted twice), then that host's best queued URL through
the index on (host, state, depth, priority, id), so the URL table is never scanned (after a
failure of the host, a URL to retry, whose priority is its attempts, only when it has no
other: P3). The host's
next start time is set at claim time (from the lease's start), so a killed worker still leaves
the host its politeness window (P1-P2); the end of the lease sets it again from the finished
request. A lease ends one way: ``record`` takes one of ``ends``' values (completed, failed,
deferred, released, kept, excluded), with the worker's next claim in the same transaction when
asked, through the group commit on SQLite.
The parts: ``claims`` (the claim and the next wait), ``ends`` (the ends, as values),
``outcomes`` (what an end writes), ``enqueue`` (new URLs and links), ``leases`` (expiry and
wake-ups); this class puts them in transactions.

Leases (C5): a claimed URL belongs to its worker until the lease expires; expired leases return
to the queue, and so do, at once, the leases of workers on this machine whose process is gone.
Claims are safe across threads (SQLite: ``BEGIN IMMEDIATE``) and processes (PostgreSQL:
``FOR UPDATE SKIP LOCKED`` on the host row). Every write goes through ``Database.run``: a
transaction PostgreSQL aborts to break a deadlock between workers is run again, not lost.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, TypeVar

from sqlalchemy import Connection

from politecrawl.config import PolitenessSettings, StorageSettings
from politecrawl.store.frontier import statements as sql
from politecrawl.store.frontier.claims import Claimer, hold_named_host, kept_wait, next_wait
from politecrawl.store.frontier.counts import counts, seed_origins, seed_urls, url_of
from politecrawl.store.frontier.ends import Completed, LeaseEnd
from politecrawl.store.frontier.enqueue import Enqueuer
from politecrawl.store.frontier.group_commit import GroupCommit
from politecrawl.store.frontier.leases import (
    release_expired_leases,
    wake_deferred_urls,
    wake_stranded_hosts,
)
from politecrawl.store.frontier.link_sorting import sort_links
from politecrawl.store.frontier.outcomes import record, sitemap_seed
from politecrawl.store.frontier.values import (
    FrontierStats,
    Now,
    Recorded,
    ServerSettings,
    Wait,
    moment,
)
from politecrawl.store.reading.passes import current_pass, start_pass
from politecrawl.store.schema import URL_STATES

if TYPE_CHECKING:
    from politecrawl.sitemaps import SitemapSeed
    from politecrawl.store.database import Database
    from politecrawl.store.frontier.values import (
        AddResult,
        Lease,
    )

_HOUSEKEEPING_SECONDS = 1.0

T = TypeVar("T")


_STORAGE, _POLITENESS = StorageSettings(), PolitenessSettings()  # their defaults are ours


class Frontier:
    """The crawl's queue, leases and per-host politeness state, in the crawl database."""

    def __init__(
        self,
        database: Database,
        *,
        lease_seconds: float = _STORAGE.lease_seconds,
        default_delay_seconds: float = _POLITENESS.delay_seconds,
        max_in_flight_per_host: int = _POLITENESS.max_in_flight_per_host,
        servers: ServerSettings | None = None,
    ) -> None:
        """``servers``: host names on one server share its pace too (P6); None: each host is
        paced alone (``politeness_unit = "host"``)."""
        self.database = database
        self.servers = servers
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
        self._claimer = Claimer(lease_seconds, servers)
        # SQLite writes one transaction at a time: pages finished meanwhile share the next.
        # PostgreSQL runs the workers' transactions side by side, each in its own.
        self.group_commit = GroupCommit(self._write) if database.is_sqlite else None
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
        """Canonicalise, de-duplicate and queue URLs (C2), in one transaction. ``priority``:
        lower first within a depth; above 0 is how a URL to retry waits (after a failure of its
        host, behind every other URL of the host, whatever its depth)."""
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

    def claim(
        self,
        worker: str,
        *,
        now: Now,
        ahead_seconds: float = 0.0,
        keep_to: frozenset[str] | None = None,
    ) -> Lease | Wait:
        """Lease the best URL of a due host to ``worker``, or say when to ask again. ``now``:
        the time, or a clock's ``now``, asked inside the write transaction (``Now``).
        ``ahead_seconds``: a host due that much later may be leased; the lease starts when it
        is due (``Lease.claimed_at``), and no request of it may start before then (P2).
        ``keep_to``: host names the worker keeps to while they have work queued or in flight
        (it waits for them then), taking any host only when they have none (``claims``)."""
        self._check_ahead(ahead_seconds)
        self._housekeeping(moment(now))

        def claim_when_writing(connection: Connection) -> tuple[datetime, Lease | Wait]:
            at = moment(now)
            return at, self._claim_or_wait(connection, worker, at, ahead_seconds, keep_to)

        at, claimed = self._write(claim_when_writing)
        return self._after_empty_claim(claimed, at) if isinstance(claimed, Wait) else claimed

    def _check_ahead(self, ahead_seconds: float) -> None:
        """A lease claimed ahead must start well before it expires."""
        if not 0.0 <= ahead_seconds < self.lease_seconds / 2:
            raise ValueError(
                f"ahead_seconds must be at least 0 and less than half the lease "
                f"({self.lease_seconds / 2:g} s), not {ahead_seconds!r}"
            )

    def _claim_or_wait(
        self,
        connection: Connection,
        worker: str,
        now: datetime,
        ahead_seconds: float = 0.0,
        keep_to: frozenset[str] | None = None,
    ) -> Lease | Wait:
        """A lease for ``worker`` or, read in the same transaction, when to ask again: a
        second, read-only transaction for it cost a pool round (and on PostgreSQL a round
        trip) after most completed pages at delay 0, where a host waits one response time
        after each response (P3). ``keep_to``: as for ``claim``."""
        if keep_to:
            among = self._claimer.among(keep_to)
            claimed = self._claimer.claim(
                connection, worker, now, ahead_seconds=ahead_seconds, among=among
            )
            if claimed is not None:
                return claimed
            kept = kept_wait(connection, now, among)
            if kept is not None:
                return kept
        lease = self._claimer.claim(connection, worker, now, ahead_seconds=ahead_seconds)
        if lease is not None:
            return lease
        return next_wait(connection, now, with_servers=self.servers is not None)

    def _housekeeping(self, now: datetime) -> None:
        if self._housekeeping_at is None or now >= self._housekeeping_at:
            self.release_expired(now=now)
            self.wake_deferred(now=now)
            self._housekeeping_at = now + timedelta(seconds=_HOUSEKEEPING_SECONDS)

    def _after_empty_claim(self, wait: Wait, now: datetime) -> Wait:
        """``wait`` for a worker that found nothing to claim; before it is told that nothing
        is left but deferred work, hosts asleep with queued URLs are woken."""
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
            return next_wait(connection, now, with_servers=self.servers is not None)

    # --- finishing ----------------------------------------------------------------------------

    def record(
        self,
        end: LeaseEnd,
        *,
        now: Now,
        claim_for: str | None = None,
        ahead_seconds: float = 0.0,
        keep_to: frozenset[str] | None = None,
    ) -> Recorded:
        """Record how a lease ended (``ends``: completed, failed, deferred, released, kept,
        excluded): its URL's row, its host's next start and pace, and what the end brings,
        in one transaction. ``claim_for``: a worker whose next lease is claimed in the same
        transaction (one commit per lease), with ``ahead_seconds`` and ``keep_to`` as for
        ``claim``; the end is recorded at the time asked for it, the next lease claimed at the
        time read inside the write transaction. On SQLite, ends that arrive while another is
        written share the next transaction (``group_commit``).

        ``Recorded.recorded`` is False, and nothing of the end written, when the lease had
        been lost (expired and claimed again)."""
        self._check_ahead(ahead_seconds)
        asked = moment(now)
        if claim_for is not None:
            self._housekeeping(asked)
        links = None
        if isinstance(end, Completed):  # sorted before the write lock is taken
            links = sort_links(end.links, follow_links=end.follow_links)

        def record_then_claim(connection: Connection) -> tuple[datetime, bool, Lease | Wait | None]:
            recorded = record(connection, self._enqueuer, end, links, asked, servers=self.servers)
            if claim_for is None:
                return asked, recorded, None
            at = moment(now)
            return (
                at,
                recorded,
                self._claim_or_wait(connection, claim_for, at, ahead_seconds, keep_to),
            )

        write = self._write if self.group_commit is None else self.group_commit.run
        at, recorded, following = write(record_then_claim)
        if isinstance(following, Wait):
            following = self._after_empty_claim(following, at)
        return Recorded(recorded, following)

    def sitemap_of(self, lease: Lease) -> SitemapSeed | None:
        """The sitemap ``lease`` is, as it was queued (why, for which origin, how nested)."""
        with self.database.engine.connect() as connection:
            return sitemap_seed(connection, lease.url_id, lease.url)

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
        """Begin a recrawl pass (see ``politecrawl.store.reading.passes``); returns its number."""
        number = start_pass(self.database, now=now, max_age=max_age)
        self.pass_number = number
        self._enqueuer.pass_number = number
        return number

    def reserve_host(self, host: str, *, now: datetime, hold_seconds: float) -> bool:
        """Hold ``host`` for one request outside a lease (a robots.txt redirect to another
        host, O7): for ``hold_seconds`` (the longest the request can take) and then the host's
        delay, unless ``release_host`` gives it back sooner. False when the host is busy or not
        due. A host never seen is created. Held by time, not by a count of requests in flight,
        so that a holder killed mid-request (C5) leaves the host free once the time is up."""

        def take_slot(connection: Connection) -> bool:
            self._enqueuer.ids.ensure_host(connection, host, now)
            return hold_named_host(connection, host, now, hold_seconds=hold_seconds)

        return self._write(take_slot)

    def release_host(self, host: str, *, next_fetch_at: datetime) -> None:
        """Give back a host held by ``reserve_host``, with its next start time."""
        self._write(
            lambda connection: sql.release_named_host.rowcount(
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
            return seed_origins(connection)

    def url_of(self, url_id: int) -> str | None:
        """The URL with id ``url_id`` (a lease's ``referrer_id``), if it exists."""
        with self.database.engine.connect() as connection:
            return url_of(connection, url_id)

    def seed_urls(self) -> set[str]:
        """The URLs added at depth 0 (the crawl's seeds), canonical."""
        with self.database.engine.connect() as connection:
            return seed_urls(connection)

    # --- reading ----------------------------------------------------------------------------

    def stats(self, *, now: datetime, per_host: bool = False) -> FrontierStats:
        """Counts per state (and per host), robots outcomes per origin, next ready time."""
        with self.database.engine.connect() as connection:
            by_state, by_host, robots = counts(connection, per_host=per_host)
        wait = self._wait(now)
        return FrontierStats(
            {state: by_state.get(state, 0) for state in URL_STATES},
            by_host,
            robots,
            wait.until,
        )
