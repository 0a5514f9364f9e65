"""Reading the sitemaps of a crawl back: read-only queries for the sitemap audit (S4) and ``why``.

Owns every question the report asks of the ``sitemaps`` and ``sitemap_entries`` tables: the
sitemaps and what reading them found, the listed pages that went wrong, the pages no sitemap
lists, the listed pages no page links to, the lastmods that cannot be right, and how many
fetches a recrawl spared on a sitemap's word (S3). Each is one query (plus one per few hundred
ids for the listings), never one per row. A listing is a ``sitemap_entries`` row, not a
``links`` row: "linked" means linked from a page (kind ``page``). Entries whose URL is itself a
sitemap (an index's children) are sitemaps, audited as such, never as listed pages. Nothing
here writes; rows leave as the frozen values of ``reading_types``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from sqlalchemy import ColumnElement, and_, exists, func, or_, select, union

from politecrawl.store.database import Database
from politecrawl.store.reading.link_targets import ensure_link_target_index
from politecrawl.store.reading.rows import (
    grouped_by_id,
    query_rows,
    url_row,
    url_select,
)
from politecrawl.store.reading.values import (
    ListedLastmod,
    ListedUrl,
    SitemapEntryRow,
    SitemapRow,
    UrlRow,
)
from politecrawl.store.schema import (
    DONE,
    EXCLUDED,
    FAILED,
    OUT_OF_SCOPE,
    PAGE,
    SITEMAP,
    links_table as _links,
    origins_table,
    sitemap_entries_table as _entries,
    sitemaps_table as _sitemaps,
    urls_table,
)

__all__ = [
    "SITEMAP_UNCHANGED",
    "lastmod_problems",
    "listed_problems",
    "sitemap_entries_of",
    "sitemap_of",
    "sitemap_orphans",
    "sitemap_rows",
    "sitemap_unchanged_count",
    "unlisted_pages",
]

SITEMAP_UNCHANGED = "sitemap-unchanged"
"""The reason of a URL whose fetch a recrawl spared because its sitemap lastmod was old (S3)."""

_urls = urls_table
_listing_sitemap = urls_table.alias("listing_sitemap")
_linker = urls_table.alias("linker")

_is_page = _urls.c.kind == PAGE
_is_listed = exists().where(_entries.c.url_id == _urls.c.id)
_is_linked = exists().where(
    _links.c.to_id == _urls.c.id,
    _links.c.from_id == _linker.c.id,
    _linker.c.kind == PAGE,
)


def sitemap_rows(database: Database) -> list[SitemapRow]:
    """Every URL of kind ``sitemap``, read or not, with what reading it found; by URL."""
    return _sitemap_rows(database, _urls.c.kind == SITEMAP)


def sitemap_of(database: Database, url_id: int) -> SitemapRow | None:
    """The URL ``url_id`` as a sitemap, or None when it is not one (a page)."""
    found = _sitemap_rows(database, and_(_urls.c.id == url_id, _urls.c.kind == SITEMAP))
    return found[0] if found else None


def _sitemap_rows(database: Database, where: ColumnElement[bool]) -> list[SitemapRow]:
    statement = (
        url_select()
        .add_columns(
            _sitemaps.c.source,
            _sitemaps.c.for_origin,
            _sitemaps.c.nesting,
            _sitemaps.c.format,
            _sitemaps.c.entries,
            _sitemaps.c.other_origins,
            _sitemaps.c.truncated,
            _sitemaps.c.problems,
        )
        .outerjoin(_sitemaps, _sitemaps.c.url_id == _urls.c.id)
        .where(where)
        .order_by(_urls.c.url)
    )
    with database.engine.connect() as connection:
        return [_sitemap_row(row._asdict()) for row in connection.execute(statement)]


def _sitemap_row(values: dict[str, Any]) -> SitemapRow:
    read = {
        name: values.pop(name)
        for name in (
            "source",
            "for_origin",
            "nesting",
            "format",
            "entries",
            "other_origins",
            "truncated",
            "problems",
        )
    }
    return SitemapRow(
        row=url_row(values),
        source=read["source"],
        for_origin=read["for_origin"],
        nesting=read["nesting"] or 0,
        format=read["format"],
        entries=read["entries"],
        other_origins=read["other_origins"] or 0,
        truncated=bool(read["truncated"]),
        problems=_problems(read["problems"]),
    )


def _problems(text: str | None) -> tuple[str, ...]:
    """The ``problems`` JSON list as strings (a value that is not a list, as one problem)."""
    if not text:
        return ()
    try:
        value = json.loads(text)
    except ValueError:
        return (text,)
    if isinstance(value, list):
        return tuple(str(item) for item in value)
    return (str(value),)


def sitemap_entries_of(
    database: Database, url_ids: Iterable[int]
) -> dict[int, tuple[SitemapEntryRow, ...]]:
    """For each id, the sitemap entries listing it, by sitemap URL; unlisted ids are absent."""
    statement = (
        select(
            _entries.c.url_id,
            _listing_sitemap.c.url,
            _entries.c.line,
            _entries.c.lastmod,
            _entries.c.lastmod_text,
            _listing_sitemap.c.fetched_at,
        )
        .join(_listing_sitemap, _listing_sitemap.c.id == _entries.c.sitemap_id)
        .order_by(_entries.c.url_id, _listing_sitemap.c.url)
    )
    return {
        url_id: tuple(SitemapEntryRow(*listing) for listing in rows)
        for url_id, rows in grouped_by_id(database, statement, _entries.c.url_id, url_ids).items()
    }


def _listed(database: Database, where: ColumnElement[bool]) -> list[ListedUrl]:
    rows = query_rows(
        database, url_select().where(_is_page, _is_listed, where).order_by(_urls.c.url)
    )
    listed = sitemap_entries_of(database, [row.id for row in rows])
    return [ListedUrl(row, listed.get(row.id, ())) for row in rows]


def listed_problems(database: Database) -> list[ListedUrl]:
    """Listed pages that are broken (failed, or status >= 400), redirected (3xx), noindex,
    excluded by robots.txt, out of scope, or name another URL as canonical; by URL. The
    canonical test here is textual (``canonical_url != url``): the caller compares canonical
    forms."""
    status = _urls.c.status
    return _listed(
        database,
        or_(
            _urls.c.state == FAILED,
            and_(_urls.c.state == DONE, status >= 300),
            _urls.c.noindex.is_(True),
            and_(_urls.c.state == EXCLUDED, _urls.c.reason == "robots"),
            _urls.c.state == OUT_OF_SCOPE,
            and_(_urls.c.canonical_url.is_not(None), _urls.c.canonical_url != _urls.c.url),
        ),
    )


def sitemap_orphans(database: Database) -> list[ListedUrl]:
    """Listed pages no page links to (no ``links`` row from a URL of kind ``page``); by URL."""
    ensure_link_target_index(database)
    return _listed(database, ~_is_linked)


def unlisted_pages(database: Database) -> list[UrlRow]:
    """Indexable HTML pages (fetched 2xx or 304, not noindex) that no sitemap lists, on the origins
    some sitemap speaks for: the origin of a sitemap read with entries, or the origin whose
    robots.txt named it (``for_origin``). By URL. Their ``canonical_url`` is for the caller to
    check (a page naming another URL as canonical belongs in no sitemap)."""
    with_entries = _sitemaps.c.entries > 0
    spoken_for = union(
        select(_urls.c.origin_id)
        .join(_sitemaps, _sitemaps.c.url_id == _urls.c.id)
        .where(with_entries),
        select(origins_table.c.id)
        .join(_sitemaps, _sitemaps.c.for_origin == origins_table.c.origin)
        .where(with_entries),
    ).subquery()
    content_type = func.lower(func.coalesce(_urls.c.content_type, ""))
    return query_rows(
        database,
        url_select()
        .where(
            _is_page,
            _urls.c.state == DONE,
            # 2xx, or 304: a recrawl's revalidation, the page as it was (E3, S3)
            or_(and_(_urls.c.status >= 200, _urls.c.status < 300), _urls.c.status == 304),
            or_(_urls.c.noindex.is_(None), _urls.c.noindex.is_(False)),
            or_(content_type.like("text/html%"), content_type.like("application/xhtml+xml%")),
            ~_is_listed,
            _urls.c.origin_id.in_(select(spoken_for.c[0])),
        )
        .order_by(_urls.c.url),
    )


def lastmod_problems(database: Database) -> list[ListedLastmod]:
    """Entries whose lastmod is malformed (written, not read) or later than the sitemap's
    fetch; by listed URL, then sitemap."""
    listed = urls_table.alias("listed")
    statement = (
        select(
            listed.c.url,
            _listing_sitemap.c.url,
            _entries.c.line,
            _entries.c.lastmod,
            _entries.c.lastmod_text,
            _listing_sitemap.c.fetched_at,
        )
        .join_from(_entries, listed, listed.c.id == _entries.c.url_id)
        .join(_listing_sitemap, _listing_sitemap.c.id == _entries.c.sitemap_id)
        .where(
            or_(
                and_(_entries.c.lastmod_text.is_not(None), _entries.c.lastmod.is_(None)),
                and_(
                    _listing_sitemap.c.fetched_at.is_not(None),
                    _entries.c.lastmod > _listing_sitemap.c.fetched_at,
                ),
            )
        )
        .order_by(listed.c.url, _listing_sitemap.c.url, _entries.c.line)
    )
    with database.engine.connect() as connection:
        return [
            ListedLastmod(url, SitemapEntryRow(*listing))
            for url, *listing in connection.execute(statement)
        ]


def sitemap_unchanged_count(database: Database) -> int:
    """URLs of the current pass whose fetch was spared because no sitemap lastmod was newer
    than the last fetch (reason ``sitemap-unchanged``, S3)."""
    every = urls_table.alias("every")  # an alias: not correlated to the count
    current = select(func.max(every.c.pass_number)).scalar_subquery()
    with database.engine.connect() as connection:
        count = connection.execute(
            select(func.count()).where(
                _urls.c.reason == SITEMAP_UNCHANGED, _urls.c.pass_number == current
            )
        ).scalar()
    return int(count or 0)
