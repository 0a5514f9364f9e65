"""The claim's statements: a due host, its slot, its best queued URL, and the next wait [P1-P3].

Built once, with bound parameters, and prepared for the driver like the frontier's other hot
statements (``statements``, whose conventions hold here: ``*_SQL`` the SQLAlchemy form, the
lower-case name the ``Prepared`` one). No time is computed here: the claim reads the due hosts,
``politeness`` orders them and decides the lease's start and the host's next start, and these
statements write what it decided (``claims``).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import and_, bindparam, case, func, literal, literal_column, or_, select, update
from sqlalchemy.sql.elements import ColumnClause

from politecrawl.store.frontier.prepared import Prepared
from politecrawl.store.schema import (
    DEFERRED,
    LEASED,
    QUEUED,
    EpochTime,
    hosts_table as hosts,
    in_state,
    servers_table as servers,
    urls_table as urls,
)

# The hosts due first: their next start has come (or comes within the claim's
# ``ahead_seconds``: ``ready`` is the time asked plus that) and they have room for one more
# request (P1). A window read off ix_hosts_due, of which ``politeness.claim_order`` takes one.
# FOR UPDATE SKIP LOCKED lets PostgreSQL workers pass each other; SQLite ignores it and relies
# on BEGIN IMMEDIATE. ``among``: only hosts of these names (a worker kept to the seeds' hosts).
# ``with_servers`` (P6): and whose server, when known, is due too and has room; the server's and
# the host's address columns follow (the server's row is taken by its own statement, ``servers``).
_DUE_WINDOW = 16
_READY = bindparam("ready", type_=EpochTime())
_ON_SERVER = hosts.outerjoin(servers, servers.c.id == hosts.c.server_id)
_SERVER_FREE = or_(
    hosts.c.server_id.is_(None),
    and_(servers.c.next_fetch_at <= _READY, servers.c.in_flight < servers.c.max_in_flight),
)


def _due_hosts_sql(*among: Any, with_servers: bool = False) -> Any:
    columns: list[Any] = [
        hosts.c.id,
        hosts.c.host,
        hosts.c.error_streak,
        hosts.c.next_fetch_at,  # epoch seconds: a ``Prepared`` row is the driver's
        hosts.c.delay_seconds,
    ]
    where = [
        hosts.c.active,
        hosts.c.next_fetch_at <= _READY,
        hosts.c.in_flight < hosts.c.max_in_flight,
        *among,
    ]
    if not with_servers:
        query = select(*columns)
    else:
        columns += [
            servers.c.id,
            servers.c.address,
            servers.c.next_fetch_at,
            servers.c.delay_seconds,
            hosts.c.address,
            hosts.c.address_resolved_at,
        ]
        query = select(*columns).select_from(_ON_SERVER)
        where.append(_SERVER_FREE)
    return (
        query.where(*where)
        .order_by(hosts.c.next_fetch_at)
        .limit(_DUE_WINDOW)
        .with_for_update(skip_locked=True, of=hosts)
    )


DUE_HOSTS_SQL = _due_hosts_sql()
DUE_HOSTS_ON_SERVERS_SQL = _due_hosts_sql(with_servers=True)

# Take the slot on the host chosen: one more request in flight, and the host's next start as
# the claim decided it (``politeness.slot_at_claim``: taken at claim time, so a worker killed
# mid-request still leaves the host its delay, P2).
TAKE_HOST_SLOT_SQL = (
    update(hosts)
    .where(hosts.c.id == bindparam("host_id"))
    .values(
        in_flight=hosts.c.in_flight + 1,
        next_fetch_at=bindparam("next_at", type_=EpochTime()),
    )
)

# The slot was taken on a host with nothing queued: give it back and let the host sleep until
# add() wakes it.
RETURN_EMPTY_SLOT_SQL = (
    update(hosts)
    .where(hosts.c.id == bindparam("host_id"))
    .values(in_flight=hosts.c.in_flight - 1, active=False)
)


def _best_queued_url(*, fresh: bool) -> Any:
    """The host's first queued URL, breadth first (depth, priority, age); ``fresh``: of those
    not waiting to be retried (a retry's priority is its number of attempts, above 0)."""
    where = [urls.c.host_id == bindparam("for_host"), in_state(QUEUED)]
    if fresh:
        where.append(urls.c.priority <= 0)
    return (
        select(urls.c.id)
        .where(*where)
        .order_by(urls.c.depth, urls.c.priority, urls.c.id)
        .limit(1)
        .scalar_subquery()
    )


# P3: a host whose last request failed takes a fresh URL, whatever its depth, before a URL to
# retry: its failing URLs are never tried back to back, each failure lengthening the host's
# back-off, while its other URLs wait. Otherwise a due retry takes its turn behind the fresh URLs
# of its depth (its priority is its attempts), so retries are spread through the host's crawl
# rather than left to wait out their schedule at its end. Both look-ups of the first walk
# ix_urls_claim in order; COALESCE asks the second only when the first finds none.
_BEST_QUEUED_URL = _best_queued_url(fresh=False)
_BEST_FRESH_URL = func.coalesce(_best_queued_url(fresh=True), _best_queued_url(fresh=False))

# Written out: SQLAlchemy renders SQLite's RETURNING columns without their table, which would
# bind both sides of a correlated subquery to the alias.
_REFERRER_URL: ColumnClause[str] = literal_column(
    "(SELECT referrer.url FROM urls AS referrer WHERE referrer.id = urls.discovered_from)"
)


def _lease_url_sql(best: Any) -> Any:
    """Lease the URL ``best`` names, if still queued; the lease's columns."""
    return (
        update(urls)
        .where(urls.c.id == best, in_state(QUEUED))
        .values(
            state=LEASED,
            lease_owner=bindparam("owner"),
            lease_expires_at=bindparam("expires_at", type_=EpochTime()),
            lease_server_id=bindparam("server_id"),
        )
        .returning(
            urls.c.id,
            urls.c.url,
            urls.c.depth,
            urls.c.attempts,
            urls.c.pass_number,
            urls.c.redirect_hops,
            urls.c.etag,
            urls.c.last_modified,
            urls.c.discovered_from,
            _REFERRER_URL,  # by primary key: the page or redirect that led here
            urls.c.kind,
            urls.c.status,
            urls.c.fetched_at,
            urls.c.sitemap_lastmod,
        )
    )


LEASE_BEST_URL_SQL = _lease_url_sql(_BEST_QUEUED_URL)
LEASE_BEST_FRESH_URL_SQL = _lease_url_sql(_BEST_FRESH_URL)

# A request on a named host outside a lease (robots.txt redirects, O7): the host must be due
# with nothing in flight, and is then held by time alone until ``hold_until``
# (``politeness.hold_until``, from the host's delay, read first and locked). Not by
# ``in_flight``: no lease records the holder, so a process killed while holding would leave the
# host unclaimable for good; a time runs out by itself (C5). ``statements.release_named_host``
# gives the host back after the request.
NAMED_HOST_DELAY_SQL = (
    select(hosts.c.delay_seconds).where(hosts.c.host == bindparam("host_name")).with_for_update()
)
TAKE_NAMED_HOST_SLOT_SQL = (
    update(hosts)
    .where(
        hosts.c.host == bindparam("host_name"),
        hosts.c.next_fetch_at <= bindparam("now", type_=EpochTime()),
        hosts.c.in_flight == 0,
    )
    .values(next_fetch_at=bindparam("hold_until", type_=EpochTime()))
)

# When a worker that found nothing should ask again (``claims.next_wait``), in one round trip:
# the next start of a host with room for a request and a URL queued (a host whose last request
# failed is backed off, P3, and waiting that out with nothing left to ask it would hold the
# crawl's end back by up to max_backoff_seconds), the next deferred URL, the next lease to
# expire.
# With servers (P6), a host starts when its server is due too, and not while its server is
# full (then the end of a lease in flight is what to wait for).
_HAS_QUEUED = select(urls.c.id).where(urls.c.host_id == hosts.c.id, in_state(QUEUED))
_HOST_AND_SERVER_START = case(
    (servers.c.next_fetch_at > hosts.c.next_fetch_at, servers.c.next_fetch_at),
    else_=hosts.c.next_fetch_at,
)


def _next_host_start(*among: Any, with_servers: bool = False) -> Any:
    where = [hosts.c.active, hosts.c.in_flight < hosts.c.max_in_flight, _HAS_QUEUED.exists()]
    if not with_servers:
        return select(func.min(hosts.c.next_fetch_at)).where(*where, *among).scalar_subquery()
    room = or_(hosts.c.server_id.is_(None), servers.c.in_flight < servers.c.max_in_flight)
    return (
        select(func.min(_HOST_AND_SERVER_START))
        .select_from(_ON_SERVER)
        .where(*where, room, *among)
        .scalar_subquery()
    )


def _next_wait_times_sql(*, with_servers: bool = False) -> Any:
    return select(
        _next_host_start(with_servers=with_servers),
        select(func.min(urls.c.next_attempt_at)).where(in_state(DEFERRED)).scalar_subquery(),
        select(func.min(urls.c.lease_expires_at)).where(in_state(LEASED)).scalar_subquery(),
    )


NEXT_WAIT_TIMES_SQL = _next_wait_times_sql()
NEXT_WAIT_TIMES_ON_SERVERS_SQL = _next_wait_times_sql(with_servers=True)


class AmongHosts:
    """The claim and the wait of a worker kept to some hosts (``claims``): ``due_hosts`` among
    them, and when one of them may be asked next or a lease of theirs ends (deferred URLs left
    out: a wait for them is the run's to decide, O6). The host names are constants of the
    statements, one set a crawl; ``with_servers``: their servers' slots too (P6)."""

    def __init__(self, names: frozenset[str], *, with_servers: bool = False) -> None:
        among = hosts.c.host.in_([literal(name) for name in sorted(names)])
        of_them = select(hosts.c.id).where(among)
        self.due_hosts = Prepared(_due_hosts_sql(among, with_servers=with_servers))
        self.next_wait_times = Prepared(
            select(
                _next_host_start(among, with_servers=with_servers),
                select(func.min(urls.c.lease_expires_at))
                .where(in_state(LEASED), urls.c.host_id.in_(of_them))
                .scalar_subquery(),
            )
        )


due_hosts = Prepared(DUE_HOSTS_SQL)
due_hosts_on_servers = Prepared(DUE_HOSTS_ON_SERVERS_SQL)
take_host_slot = Prepared(TAKE_HOST_SLOT_SQL)
return_empty_slot = Prepared(RETURN_EMPTY_SLOT_SQL)
lease_best_url = Prepared(LEASE_BEST_URL_SQL)
lease_best_fresh_url = Prepared(LEASE_BEST_FRESH_URL_SQL)
named_host_delay = Prepared(NAMED_HOST_DELAY_SQL)
take_named_host_slot = Prepared(TAKE_NAMED_HOST_SLOT_SQL)
next_wait_times = Prepared(NEXT_WAIT_TIMES_SQL)
next_wait_times_on_servers = Prepared(NEXT_WAIT_TIMES_ON_SERVERS_SQL)
