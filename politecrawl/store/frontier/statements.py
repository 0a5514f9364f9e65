"""The frontier's hot statements, built once with bound parameters: a lease's end and what it
brings (links, listings, sitemaps); the claim's are ``claim_statements``.

SQLAlchemy spends more time building and keying a statement than SQLite spends running it, so
the statements run for every URL are constructed here once and executed with parameters; their
compiled forms are cached by the engine. Each statement has two names: its SQLAlchemy form,
``FREE_HOST_SQL`` (or a builder of one dialect's form, ``_insert_url_sql``), and the
``Prepared`` form the frontier runs (compiled once per dialect, ``prepared``), ``free_host``.
The times they write come as parameters, decided by ``politeness``.
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
    literal,
    or_,
    select,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite

from politecrawl.store.frontier.prepared import Prepared
from politecrawl.store.schema import (
    DEFERRED,
    LEASED,
    QUEUED,
    SITEMAP,
    SLOTS_GIVEN_BACK,
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

# Give back a host held for a request outside a lease (``claim_statements``, O7), with its next
# start as that request decided it.
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
# Whether a lease is still its owner's (1 row) before its slots are freed early (``Answered``):
# the row stays locked to the commit on PostgreSQL, and is marked as holding no slot any more
# (SLOTS_GIVEN_BACK: a lease lost after it gives back neither its host's slot nor its server's,
# which the host's next lease holds by then: P1, P6).
LEASE_IS_HELD_SQL = (
    update(urls)
    .where(
        urls.c.id == bindparam("url_id"), in_state(LEASED), urls.c.lease_owner == bindparam("owner")
    )
    .values(lease_server_id=SLOTS_GIVEN_BACK)
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

# Parameters and results of ``Prepared`` statements are plain values: times go in as epoch
# seconds and come back as such, converted as ``EpochTime`` converts them.
epoch = to_epoch
moment = from_epoch


# The statements run for every page, prepared for the driver.
finish_leased_url = Prepared(FINISH_LEASED_URL_SQL)
lease_is_held = Prepared(LEASE_IS_HELD_SQL)
free_host = Prepared(FREE_HOST_SQL)
free_unused_host = Prepared(FREE_UNUSED_HOST_SQL)
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
