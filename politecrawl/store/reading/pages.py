"""Reading a crawl database back: read-only queries for reports and ``politecrawl why``.

[C5, E1, O6] Every question the maintenance report asks is one query (or one per few hundred
ids, for IN lists), never one per row: pages linking to broken URLs come with a join over
``links`` (indexed on ``to_id``), URLs of one origin through its host's in the claim index.
Nothing here writes, but for that index of links, built the first time it is needed
(``link_targets``). Rows leave the store as the frozen dataclasses of ``reading_types``
(``UrlRow``, ``OriginRobots``, ...), never as database rows; ``reason_detail`` JSON is decoded.
The page sections (broken, redirects, exclusions, directives, deferred, slow) list URLs of kind
``page`` only: a sitemap is audited by ``sitemap_reading`` (S4), a check (a link leaving the
site, a page resource) by ``check_reading`` (L1-L4). ``state_counts`` and the
origins' URL counts count every URL, sitemaps included.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from sqlalchemy import Select, and_, func, or_, select

from politecrawl.errors import UserInputError
from politecrawl.store.database import Database
from politecrawl.store.reading import sitemaps as sitemap_reading
from politecrawl.store.reading.link_targets import ensure_link_target_index
from politecrawl.store.reading.rows import (
    chunks,
    grouped_by_id,
    query_rows,
    url_row,
    url_select,
)
from politecrawl.store.reading.values import (
    OriginRobots,
    ReferredUrl,
    ReferrerRow,
    UrlHistory,
    UrlRow,
)
from politecrawl.store.schema import (
    DEFERRED,
    DONE,
    EXCLUDED,
    FAILED,
    OUT_OF_SCOPE,
    PAGE,
    URL_STATES,
    links_table as _links,
    origins_table as _origins,
    urls_table as _urls,
)
from politecrawl.urls import InvalidURL, canonicalize, url_key

FETCHED_STATES = (DONE, FAILED)
_is_page = _urls.c.kind == PAGE  # S4: a sitemap is never one of the pages a section lists
is_broken = or_(and_(_urls.c.state == DONE, _urls.c.status >= 400), _urls.c.state == FAILED)
"""Answered status >= 400, or failed for good; a URL waiting for a retry is deferred, not broken
(yet). Pages and checks alike."""


def _pages() -> Select[Any]:
    """``url_select()`` of pages only: sitemaps are audited in the sitemap section alone."""
    return url_select().where(_is_page)


def state_counts(database: Database) -> dict[str, int]:
    """How many URLs are in each state (every state named, zero included)."""
    with database.engine.connect() as connection:
        found: dict[str, int] = dict(
            connection.execute(select(_urls.c.state, func.count()).group_by(_urls.c.state)).all()
        )
    return {state: int(found.get(state, 0)) for state in URL_STATES}


def urls_in_state(database: Database, state: str, *, limit: int | None = None) -> list[UrlRow]:
    """The URLs in ``state``, oldest first."""
    return query_rows(
        database, url_select().where(_urls.c.state == state).order_by(_urls.c.id).limit(limit)
    )


def referrers(
    database: Database,
    url_ids: Iterable[int],
    *,
    written_only: bool = False,
    build_index: bool = True,
) -> dict[int, tuple[ReferrerRow, ...]]:
    """For each id, the pages linking to it (sorted by URL), with each link's text, line and
    kind; ids nobody links to are absent. ``written_only``: only links a person wrote, on a
    page (kind ``page``) that is no redirect (for "update this link", L1). ``build_index``:
    build the links' target index first if it is missing (``link_targets``); a question about
    one URL reads without it rather than build it for a whole live crawl."""
    status = func.coalesce(_urls.c.status, 0)  # never NULL: ``~is_redirect`` stays two-valued
    is_redirect = and_(_urls.c.final_url.is_not(None), status >= 300, status < 400)
    statement = (
        select(
            _links.c.to_id,
            _links.c.nofollow,
            _links.c.text,
            _links.c.line,
            _links.c.resource,
            _urls.c.url,
            is_redirect.label("redirect"),
        )
        .join(_urls, _urls.c.id == _links.c.from_id)
        .order_by(_links.c.to_id, _urls.c.url)
    )
    if written_only:
        statement = statement.where(_is_page, ~is_redirect)
    if build_index:
        ensure_link_target_index(database)
    return {
        to_id: tuple(
            ReferrerRow(url, bool(nofollow), text, line, bool(resource), bool(redirect))
            for nofollow, text, line, resource, url, redirect in rows
        )
        for to_id, rows in grouped_by_id(database, statement, _links.c.to_id, url_ids).items()
    }


def with_referrers(
    database: Database, rows: list[UrlRow], *, written_only: bool = False
) -> list[ReferredUrl]:
    """Each of ``rows`` with the pages linking to it (``referrers``, ``written_only`` alike)."""
    linking = referrers(database, [row.id for row in rows], written_only=written_only)
    return [ReferredUrl(row, linking.get(row.id, ())) for row in rows]


def broken_urls(database: Database) -> list[ReferredUrl]:
    """Fetched pages answered with status >= 400, and pages that failed for good (network
    error, too many redirects), each with the pages linking to it. A URL waiting for a retry is
    deferred, not broken (yet); a sitemap that failed is no broken page (S4: the sitemap audit
    has it)."""
    rows = query_rows(database, _pages().where(is_broken).order_by(_urls.c.url))
    return with_referrers(database, rows)


def redirect_rows(database: Database) -> list[UrlRow]:
    """Pages answered with a 3xx and a Location (``final_url``): one row per hop (C4).
    Sitemaps that redirect are in the sitemap audit."""
    return query_rows(
        database,
        _pages()
        .where(_urls.c.final_url.is_not(None), _urls.c.status >= 300, _urls.c.status < 400)
        .order_by(_urls.c.id),
    )


def rows_by_url(database: Database, urls: Iterable[str]) -> dict[str, UrlRow]:
    """The rows of ``urls`` (any spelling; looked up by canonical key), keyed as given.

    URLs that are not valid, or not in the crawl, are absent.
    """
    keys: dict[bytes, list[str]] = {}
    for url in urls:
        try:
            keys.setdefault(url_key(canonicalize(url)), []).append(url)
        except InvalidURL:
            continue
    found: dict[str, UrlRow] = {}
    with database.engine.connect() as connection:
        for chunk in chunks(list(keys)):
            statement = url_select().add_columns(_urls.c.url_key).where(_urls.c.url_key.in_(chunk))
            for row in connection.execute(statement):
                values = row._asdict()
                found_row = url_row({name: values[name] for name in values if name != "url_key"})
                for given in keys[values["url_key"]]:
                    found[given] = found_row
    return found


def urls_by_reason(
    database: Database, reasons: Sequence[str], *, state: str | None = None
) -> list[UrlRow]:
    """Pages not fetched for one of ``reasons`` (robots, scope, trap, steering, ...), by URL."""
    statement = _pages().where(_urls.c.reason.in_(list(reasons)))
    if state is not None:
        statement = statement.where(_urls.c.state == state)
    return query_rows(database, statement.order_by(_urls.c.url))


def robots_exclusions(database: Database) -> list[UrlRow]:
    """URLs excluded by robots.txt; ``detail`` has origin, semantics, line, text, why and
    robots_status (O3-O5, M1)."""
    return urls_by_reason(database, ["robots"], state=EXCLUDED)


def out_of_scope(database: Database) -> list[UrlRow]:
    """Pages refused by scope rules, trap guards or the anti-steering guard (C1, C3); ``detail``
    has the rule."""
    return query_rows(database, _pages().where(_urls.c.state == OUT_OF_SCOPE).order_by(_urls.c.url))


def directive_pages(database: Database) -> list[UrlRow]:
    """Fetched pages marked noindex or nofollow by META robots or X-Robots-Tag (T1-T5)."""
    return query_rows(
        database,
        _pages()
        .where(or_(_urls.c.noindex.is_(True), _urls.c.nofollow.is_(True)))
        .order_by(_urls.c.url),
    )


def deferred_urls(database: Database) -> list[UrlRow]:
    """Deferred pages, soonest first (a URL waiting for the next run, O6, comes last)."""
    return query_rows(
        database,
        _pages()
        .where(_urls.c.state == DEFERRED)
        .order_by(_urls.c.next_attempt_at.is_(None), _urls.c.next_attempt_at, _urls.c.url),
    )


def slow_pages(database: Database, *, min_seconds: float) -> list[UrlRow]:
    """Fetched pages whose response took longer than ``min_seconds``, slowest first."""
    return query_rows(
        database,
        _pages()
        .where(_urls.c.elapsed_seconds > min_seconds)
        .order_by(_urls.c.elapsed_seconds.desc(), _urls.c.url),
    )


def origin_robots(
    database: Database,
    *,
    outcome: str | None = None,
    name: str | None = None,
    with_body: bool = False,
) -> list[OriginRobots]:
    """Every origin (or those whose robots outcome is ``outcome``, or the one called ``name``)
    with its robots.txt state, by name. Bodies (up to 512 KiB each, O8) are read only when
    ``with_body``; otherwise use ``robots_body`` one origin at a time."""
    counts = (
        select(_urls.c.origin_id, func.count().label("url_count"))
        .group_by(_urls.c.origin_id)
        .subquery()
    )
    columns = [column for column in _origins.c if with_body or column.name != "robots_body"]
    statement = (
        select(
            *columns,
            func.length(_origins.c.robots_body).label("body_bytes"),
            func.coalesce(counts.c.url_count, 0).label("url_count"),
        )
        .outerjoin(counts, counts.c.origin_id == _origins.c.id)
        .order_by(_origins.c.origin)
    )
    if outcome is not None:
        statement = statement.where(_origins.c.robots_outcome == outcome)
    if name is not None:
        statement = statement.where(_origins.c.origin == name)
    with database.engine.connect() as connection:
        return [_origin_robots(row._asdict()) for row in connection.execute(statement)]


def robots_body(database: Database, origin_id: int) -> bytes | None:
    """The stored robots.txt body of one origin (None unless its outcome was parsed)."""
    with database.engine.connect() as connection:
        body: bytes | None = connection.execute(
            select(_origins.c.robots_body).where(_origins.c.id == origin_id)
        ).scalar()
    return body


def _origin_robots(values: dict[str, Any]) -> OriginRobots:
    return OriginRobots(
        id=values["id"],
        origin=values["origin"],
        outcome=values["robots_outcome"],
        status=values["robots_status"],
        body=values.get("robots_body"),
        body_bytes=values["body_bytes"],
        reason=values["robots_error"],
        fetched_at=values["robots_fetched_at"],
        expires_at=values["robots_expires_at"],
        retry_at=values["robots_retry_at"],
        failures=values["robots_failures"] or 0,
        etag=values["robots_etag"],
        last_modified=values["robots_last_modified"],
        url_count=int(values["url_count"]),
    )


def origin_urls(
    database: Database, origin_id: int, *, states: Sequence[str] = (*FETCHED_STATES, EXCLUDED)
) -> list[str]:
    """The pages of one origin in ``states`` (through its host's URLs in the claim index: no
    index on origin and state since 0009)."""
    host_id = select(_origins.c.host_id).where(_origins.c.id == origin_id).scalar_subquery()
    with database.engine.connect() as connection:
        return list(
            connection.execute(
                select(_urls.c.url)
                .where(
                    _urls.c.host_id == host_id,
                    _urls.c.state.in_(list(states)),
                    _urls.c.origin_id == origin_id,
                    _is_page,
                )
                .order_by(_urls.c.url)
            ).scalars()
        )


def url_history(database: Database, url: str) -> UrlHistory | None:
    """What the crawl knows about ``url`` (any spelling), or None when it never saw it: its
    row, the pages linking to it, its origin's robots.txt, the sitemaps listing it, and, for a
    sitemap, what reading it found (S4).

    Raises ``UserInputError`` when ``url`` is not a crawlable URL (B1).
    """
    try:
        canonical = canonicalize(url)
    except InvalidURL as error:
        raise UserInputError(f"{url}: {error.reason}") from None
    rows = query_rows(database, url_select().where(_urls.c.url_key == url_key(canonical)))
    if not rows:
        return None
    row = rows[0]
    origin = origin_robots(database, name=row.origin, with_body=True)
    linking = referrers(database, [row.id], build_index=False).get(row.id, ())
    return UrlHistory(
        row,
        linking,
        origin[0] if origin else None,
        listings=sitemap_reading.sitemap_entries_of(database, [row.id]).get(row.id, ()),
        sitemap=sitemap_reading.sitemap_of(database, row.id),
    )
