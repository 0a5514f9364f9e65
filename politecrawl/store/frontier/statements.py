"""The frontier's hot statements, built once with bound parameters.

SQLAlchemy spends more time building and keying a statement than SQLite spends running it, so
the statements run for every URL are constructed here once and executed with parameters; their
compiled forms are cached by the engine. Each statement has two names: its SQLAlchemy form,
``TAKE_HOST_SLOT_SQL`` (or a builder of one dialect's form, ``_insert_url_sql``), and the
``Prepared`` form the frontier runs (compiled once per dialect, ``prepared``),
``take_host_slot``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy import (
    Float,
    Integer,
    String,
    Table,
    Text,
    bindparam,
    case,
    cast as sql_cast,
    delete,
    func,
    literal,
    literal_column,
    or_,
    select,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.sql.elements import ColumnClause

from politecrawl.store.frontier.prepared import Prepared
from politecrawl.store.schema import (
    DEFERRED,
    LEASED,
    QUEUED,
    SITEMAP,
    EpochTime,
    from_epoch,
    hosts_table as hosts,
    in_state,
    link_fragments_table as link_fragments,
    links_table as links,
    sitemap_entries_table as sitemap_entries,
    sitemaps_table as sitemaps,
    to_epoch,
    urls_table as urls,
)

_NOW = bindparam("now", type_=EpochTime())

# Take a slot on a due host: its next start time has come (or comes within the claim's
# ``ahead_seconds``) and it has room for one more request (P1). The slot is taken at claim time,
# from the lease's start, so a worker killed mid-request still leaves the host its delay (P2).
# FOR UPDATE SKIP LOCKED lets PostgreSQL workers pass each other; SQLite ignores it and relies
# on BEGIN IMMEDIATE.
#
# Of the hosts due first (a window read off the index), the one that has waited longest since
# its last request (next start - delay), counting its delay once more (next start - 2 x delay),
# goes first. A host with a long delay (a Crawl-delay, a Request-rate, a back-off) bounds when the
# crawl can end: it is served the moment it is due, ahead of the quick hosts that took their
# turns meanwhile, and not behind every one that finished before it. Hosts with the same delay
# (the configured one) keep their turns since their last requests. At delay 0 a host's delay is
# its last response time: a host whose delay is a few milliseconds longer goes first by up to
# twice the difference, so a claim ahead may leave its worker idle that long while another host
# is due; none is starved. ``delay_seconds`` includes a back-off: a host backing off is served
# the moment it is due too (once per back-off).
#
# A claim may take a host that comes due a moment later (``ready``: the time asked plus the
# claim's ``ahead_seconds``): its lease starts when the host is due, and the worker waits for
# that before it asks (P2), so the claim's own transaction is not part of the host's gap.
#
# ``among``: only hosts of these names (a worker kept to the seeds' hosts, ``claims``).
_READY = bindparam("ready", type_=EpochTime())
_DUE_WINDOW = 16


def _take_host_slot_sql(*among: Any) -> Any:
    due_hosts = (
        select(hosts.c.id, hosts.c.next_fetch_at, hosts.c.delay_seconds)
        .where(
            hosts.c.active,
            hosts.c.next_fetch_at <= _READY,
            hosts.c.in_flight < hosts.c.max_in_flight,
            *among,
        )
        .order_by(hosts.c.next_fetch_at)
        .limit(_DUE_WINDOW)
        .with_for_update(skip_locked=True)
        .subquery()
    )
    due_host = (
        select(due_hosts.c.id)
        .order_by(due_hosts.c.next_fetch_at - 2 * due_hosts.c.delay_seconds, due_hosts.c.id)
        .limit(1)
        .scalar_subquery()
    )
    return (
        update(hosts)
        .where(hosts.c.id == due_host)
        .values(
            in_flight=hosts.c.in_flight + 1,
            # The lease's start (when the host is due, or now if later) plus the host's delay.
            next_fetch_at=case((hosts.c.next_fetch_at > _NOW, hosts.c.next_fetch_at), else_=_NOW)
            + hosts.c.delay_seconds,
        )
        .returning(
            hosts.c.id,
            hosts.c.host,
            hosts.c.error_streak,
            (hosts.c.next_fetch_at - hosts.c.delay_seconds).label("starts_at"),
        )
    )


TAKE_HOST_SLOT_SQL = _take_host_slot_sql()

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


_NEXT = bindparam("next_at", type_=EpochTime())
_ONE_FEWER_IN_FLIGHT = case((hosts.c.in_flight > 0, hosts.c.in_flight - 1), else_=0)

# Free the host after a request: one fewer in flight, and the next start as the finished
# request decided it (P3: a success ends a back-off at once). The start written at claim time is
# a safety net for a killed worker, not a floor: it is kept only while other requests to the
# host are still in flight (max_in_flight_per_host > 1), whose own claims set it.
# Further columns (active, delay_seconds, the pace columns) may come as parameters of the same
# names.
FREE_HOST_SQL = (
    update(hosts)
    .where(hosts.c.host == bindparam("host_name"))
    .values(
        in_flight=_ONE_FEWER_IN_FLIGHT,
        next_fetch_at=case(
            ((hosts.c.in_flight > 1) & (hosts.c.next_fetch_at > _NEXT), hosts.c.next_fetch_at),
            else_=_NEXT,
        ),
    )
)

# A request on a named host outside a lease (robots.txt redirects, O7): the host must be due
# with nothing in flight, and is then held by time alone, its next start set past the longest
# the request can take (``hold_seconds``) and its delay. Not by ``in_flight``: no lease records
# the holder, so a process killed while holding would leave the host unclaimable for good; a
# time runs out by itself (C5). ``RELEASE_NAMED_HOST_SQL`` gives the host back after the request.
TAKE_NAMED_HOST_SLOT_SQL = (
    update(hosts)
    .where(
        hosts.c.host == bindparam("host_name"),
        hosts.c.next_fetch_at <= _NOW,
        hosts.c.in_flight == 0,
    )
    .values(next_fetch_at=_NOW + bindparam("hold_seconds", type_=Float()) + hosts.c.delay_seconds)
    .returning(hosts.c.id)
)
RELEASE_NAMED_HOST_SQL = (
    update(hosts)
    .where(hosts.c.host == bindparam("host_name"))
    .values(next_fetch_at=bindparam("next_at", type_=EpochTime()))
)

# Free the host after a lease that made no request (excluded, deferred): it gets back the slot
# it was due at when the lease was claimed.
FREE_UNUSED_HOST_SQL = (
    update(hosts)
    .where(hosts.c.host == bindparam("host_name"))
    .values(
        in_flight=_ONE_FEWER_IN_FLIGHT,
        next_fetch_at=case(
            (
                hosts.c.next_fetch_at > bindparam("claimed_at", type_=EpochTime()),
                bindparam("claimed_at", type_=EpochTime()),
            ),
            else_=hosts.c.next_fetch_at,
        ),
    )
)

# Record a leased URL's outcome, if the lease is still its owner's; the columns to set come as
# parameters of the same names.
FINISH_LEASED_URL_SQL = update(urls).where(
    urls.c.id == bindparam("url_id"),
    in_state(LEASED),
    urls.c.lease_owner == bindparam("owner"),
)


# A page's links, one row a link (executemany): the new URLs, then the link rows by their
# targets' ids.
_INSERTS: dict[str, Callable[[Table], Any]] = {
    "sqlite": sqlite.insert,
    "postgresql": postgresql.insert,
}


def _insert_url_sql(dialect: str) -> Any:
    return _INSERTS[dialect](urls).on_conflict_do_nothing(index_elements=["url_key"])


# A link row whose target's id the enqueuer knows (``known_urls``): no lookup inside the insert.
# The row's keys are the columns (a page whose links have no text or line leaves them out).
def _insert_link_to_id_sql(dialect: str) -> Any:
    return _INSERTS[dialect](links).on_conflict_do_nothing()


# The ids of URLs by key, for lists of a few fixed lengths (padded by repeating a key), so that
# each length is compiled, and prepared by the driver, once.
URL_ID_LOOKUP_LENGTHS = (1, 4, 16, 64, 256)


def _url_ids_sql(length: int) -> Any:
    keys: list[Any] = [bindparam(f"key{index}") for index in range(length)]
    return select(urls.c.url_key, urls.c.id).where(urls.c.url_key.in_(keys))


# A fragment a page links to (L4), its target found by key; a page's own fragments included.
def _insert_fragment_sql(dialect: str) -> Any:
    return (
        _INSERTS[dialect](link_fragments)
        .from_select(
            ["from_id", "to_id", "fragment", "line"],
            select(
                sql_cast(bindparam("from_id"), link_fragments.c.from_id.type),
                urls.c.id,
                sql_cast(bindparam("fragment"), String()),
                sql_cast(bindparam("link_line"), Integer()),
            ).where(urls.c.url_key == bindparam("to_key")),
        )
        .on_conflict_do_nothing()
    )


# A sitemap's listing (S2, S3): one row a listed URL, found by key; a sitemap read again (a
# later pass) updates what it says.
def _insert_sitemap_entry_sql(dialect: str) -> Any:
    insert = _INSERTS[dialect](sitemap_entries).from_select(
        ["sitemap_id", "url_id", "lastmod", "lastmod_text", "line"],
        select(
            sql_cast(bindparam("sitemap_id"), sitemap_entries.c.sitemap_id.type),
            urls.c.id,
            sql_cast(bindparam("entry_lastmod"), Float(precision=53)),
            sql_cast(bindparam("entry_lastmod_text"), Text()),
            sql_cast(bindparam("entry_line"), Integer()),
        ).where(urls.c.url_key == bindparam("to_key")),
    )
    return insert.on_conflict_do_update(
        index_elements=["sitemap_id", "url_id"],
        set_={
            "lastmod": insert.excluded.lastmod,
            "lastmod_text": insert.excluded.lastmod_text,
            "line": insert.excluded.line,
        },
    )


# The newest lastmod any sitemap gave a URL.
RAISE_SITEMAP_LASTMOD_SQL = (
    update(urls)
    .where(
        urls.c.url_key == bindparam("to_key"),
        or_(
            urls.c.sitemap_lastmod.is_(None),
            urls.c.sitemap_lastmod < bindparam("entry_lastmod", type_=Float(precision=53)),
        ),
    )
    .values(sitemap_lastmod=bindparam("entry_lastmod", type_=Float(precision=53)))
)


# A sitemap to read: its row, found by key; the first reason it was queued for is kept.
def _insert_sitemap_sql(dialect: str) -> Any:
    return (
        _INSERTS[dialect](sitemaps)
        .from_select(
            ["url_id", "source", "for_origin", "nesting", "other_origins"],
            select(
                urls.c.id,
                sql_cast(bindparam("source"), String()),
                sql_cast(bindparam("for_origin"), String()),
                sql_cast(bindparam("nesting"), Integer()),
                sql_cast(literal(0), Integer()),
            ).where(urls.c.url_key == bindparam("to_key")),
        )
        .on_conflict_do_nothing()
    )


# A URL known as a page but not fetched yet is read as a sitemap once something names it so.
MAKE_SITEMAP_SQL = (
    update(urls)
    .where(
        urls.c.url_key == bindparam("to_key"),
        urls.c.kind != SITEMAP,
        or_(in_state(QUEUED), in_state(DEFERRED)),  # IN would need post-compiling
    )
    .values(kind=SITEMAP)
)

# A page fetched again with a new body (a recrawl): what it linked to and listed before is
# forgotten, and the links of the new body are recorded in the same transaction, so that a link
# removed from the page no longer names it as a referrer of a broken target.
FORGET_LINKS_SQL = delete(links).where(links.c.from_id == bindparam("from_id"))
FORGET_FRAGMENTS_SQL = delete(link_fragments).where(
    link_fragments.c.from_id == bindparam("from_id")
)
FORGET_LISTING_SQL = delete(sitemap_entries).where(
    sitemap_entries.c.sitemap_id == bindparam("from_id")
)

# Wake a host asleep with nothing queued: a new URL of it was just queued.
ACTIVATE_HOST_SQL = (
    update(hosts).where(hosts.c.id == bindparam("host_id"), ~hosts.c.active).values(active=True)
)

# When a worker that found nothing should ask again (``claims.next_wait``), in one round trip:
# the next start of a host with room for a request and a URL queued (a host whose last request
# failed is backed off, P3, and waiting that out with nothing left to ask it would hold the
# crawl's end back by up to max_backoff_seconds), the next deferred URL, the next lease to
# expire.
_HAS_QUEUED = select(urls.c.id).where(urls.c.host_id == hosts.c.id, in_state(QUEUED))


def _next_host_start(*among: Any) -> Any:
    return (
        select(func.min(hosts.c.next_fetch_at))
        .where(hosts.c.active, hosts.c.in_flight < hosts.c.max_in_flight, _HAS_QUEUED.exists())
        .where(*among)
        .scalar_subquery()
    )


NEXT_WAIT_TIMES_SQL = select(
    _next_host_start(),
    select(func.min(urls.c.next_attempt_at)).where(in_state(DEFERRED)).scalar_subquery(),
    select(func.min(urls.c.lease_expires_at)).where(in_state(LEASED)).scalar_subquery(),
)


class AmongHosts:
    """The claim and the wait of a worker kept to some hosts (``claims``): ``take_host_slot``
    among them, and when one of them may be asked next or a lease of theirs ends (deferred
    URLs left out: a wait for them is the run's to decide, O6). The host names are constants
    of the statements, one set a crawl."""

    def __init__(self, names: frozenset[str]) -> None:
        among = hosts.c.host.in_([literal(name) for name in sorted(names)])
        of_them = select(hosts.c.id).where(among)
        self.take_host_slot = Prepared(_take_host_slot_sql(among))
        self.next_wait_times = Prepared(
            select(
                _next_host_start(among),
                select(func.min(urls.c.lease_expires_at))
                .where(in_state(LEASED), urls.c.host_id.in_(of_them))
                .scalar_subquery(),
            )
        )


# Parameters and results of ``Prepared`` statements are plain values: times go in as epoch
# seconds and come back as such, converted as ``EpochTime`` converts them.
epoch = to_epoch
moment = from_epoch


# The statements run for every page, prepared for the driver.
take_host_slot = Prepared(TAKE_HOST_SLOT_SQL)
return_empty_slot = Prepared(RETURN_EMPTY_SLOT_SQL)
lease_best_url = Prepared(LEASE_BEST_URL_SQL)
lease_best_fresh_url = Prepared(LEASE_BEST_FRESH_URL_SQL)
finish_leased_url = Prepared(FINISH_LEASED_URL_SQL)
free_host = Prepared(FREE_HOST_SQL)
free_unused_host = Prepared(FREE_UNUSED_HOST_SQL)
take_named_host_slot = Prepared(TAKE_NAMED_HOST_SLOT_SQL)
release_named_host = Prepared(RELEASE_NAMED_HOST_SQL)
insert_url = Prepared(_insert_url_sql)
insert_link_to_id = Prepared(_insert_link_to_id_sql)
url_ids = {length: Prepared(_url_ids_sql(length)) for length in URL_ID_LOOKUP_LENGTHS}
insert_fragment = Prepared(_insert_fragment_sql)
insert_sitemap_entry = Prepared(_insert_sitemap_entry_sql)
insert_sitemap = Prepared(_insert_sitemap_sql)
raise_sitemap_lastmod = Prepared(RAISE_SITEMAP_LASTMOD_SQL)
make_sitemap = Prepared(MAKE_SITEMAP_SQL)
forget_links = Prepared(FORGET_LINKS_SQL)
forget_fragments = Prepared(FORGET_FRAGMENTS_SQL)
forget_listing = Prepared(FORGET_LISTING_SQL)
activate_host = Prepared(ACTIVATE_HOST_SQL)
next_wait_times = Prepared(NEXT_WAIT_TIMES_SQL)
