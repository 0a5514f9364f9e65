"""Reading the link checks of a crawl back: read-only queries for the report's link checks (L1-L4).

Owns every question the report asks of the URLs of kind ``check`` (links leaving the site and
page resources, asked for their status only), of the links to URLs that redirect for good, and
of ``link_fragments``: how much was checked, the checks that broke and the checks robots.txt
forbids (each with every page linking to it, through ``reading.referrers``), the permanent
redirects (301, 308) pages link to, and the ``#fragment`` links whose page was fetched with its
anchors. Each is one query (plus one per few hundred ids for the referrers and the anchors),
never one per row. The judgements (which fragment is missing, where a redirect leads) are the
report's; the store only narrows the rows. Nothing here writes (but for the links' target
index, see ``link_targets``); rows leave as the frozen values of ``reading_types``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlalchemy import ColumnElement, Select, and_, func, or_, select

from politecrawl.store.database import Database
from politecrawl.store.reading.pages import is_broken, with_referrers
from politecrawl.store.reading.rows import (
    grouped_by_id,
    query_rows,
    url_select,
)
from politecrawl.store.reading.values import CheckCounts, FragmentLink, ReferredUrl, UrlRow
from politecrawl.store.schema import (
    CHECK,
    DONE,
    EXCLUDED,
    FAILED,
    PAGE,
    link_fragments_table as _fragments,
    origins_table,
    urls_table,
)

__all__ = [
    "PERMANENT_REDIRECTS",
    "broken_checks",
    "check_counts",
    "fetched_with_anchors",
    "fragment_links",
    "fragment_links_select",
    "page_anchors",
    "permanent_redirects",
    "robots_forbidden_checks",
]

PERMANENT_REDIRECTS = (301, 308)
"""The statuses that tell a link's author to update the link (RFC 9110 15.4.2, 15.4.9)."""

_urls = urls_table
_linker = urls_table.alias("linker")
_is_check = _urls.c.kind == CHECK


def check_counts(database: Database) -> CheckCounts:
    """The checks per state, the pages fetched, and the fragment links recorded."""
    with database.engine.connect() as connection:
        rows = connection.execute(
            select(_urls.c.kind, _urls.c.state, func.count())
            .where(_urls.c.kind.in_([CHECK, PAGE]))
            .group_by(_urls.c.kind, _urls.c.state)
        ).all()
        fragments = connection.execute(select(func.count()).select_from(_fragments)).scalar()
    checks = {state: int(count) for kind, state, count in rows if kind == CHECK}
    pages = sum(
        int(count) for kind, state, count in rows if kind == PAGE and state in (DONE, FAILED)
    )
    return CheckCounts(dict(sorted(checks.items())), pages, int(fragments or 0))


def broken_checks(database: Database) -> list[ReferredUrl]:
    """Checks answered with status >= 400, and checks that failed for good (a network error
    after the retries), by URL, each with every page linking to it (L1-L3). A check waiting
    for a retry is deferred, not broken (yet)."""
    rows = query_rows(database, url_select().where(_is_check, is_broken).order_by(_urls.c.url))
    return with_referrers(database, rows)


def robots_forbidden_checks(database: Database) -> list[ReferredUrl]:
    """Checks robots.txt forbids (never requested, L1), by URL, each with every page linking
    to it; ``row.detail`` has the deciding line as for pages (origin, semantics, line, text,
    why, robots_status)."""
    rows = query_rows(
        database,
        url_select()
        .where(_is_check, _urls.c.state == EXCLUDED, _urls.c.reason == "robots")
        .order_by(_urls.c.url),
    )
    return with_referrers(database, rows)


def permanent_redirects(database: Database) -> tuple[list[ReferredUrl], dict[str, UrlRow]]:
    """The pages and checks that answered 301 or 308 and that a page links to, by URL, each
    with the links a person wrote to it (on pages that are no redirect themselves); and every
    page and check that answered 301 or 308, by URL, to follow where the redirects lead."""
    rows = query_rows(
        database,
        url_select()
        .where(
            _urls.c.kind.in_([PAGE, CHECK]),
            _urls.c.state == DONE,
            _urls.c.status.in_(PERMANENT_REDIRECTS),
        )
        .order_by(_urls.c.url),
    )
    linked = [item for item in with_referrers(database, rows, written_only=True) if item.referrers]
    return linked, {row.url: row for row in rows}


def fragment_links(database: Database) -> list[FragmentLink]:
    """The ``#fragment`` links (L4) whose page was fetched (2xx, or a recrawl's 304: the page
    as it was) with its anchors recorded, by page, fragment and linking page. The others
    cannot be judged: their page failed, redirects, is no HTML, or was fetched without
    fragment checking."""
    statement = fragment_links_select().where(fetched_with_anchors(_urls.c.state, _urls.c.status))
    with database.engine.connect() as connection:
        return [FragmentLink(*row) for row in connection.execute(statement)]


def fragment_links_select(*more: ColumnElement[Any]) -> Select[Any]:
    """The ``#fragment`` links with their page and the linking page, as ``FragmentLink`` takes
    them (``more``: its further columns), by page, fragment and linking page; joined on
    ``urls`` as the page, for the caller's conditions on it."""
    return (
        select(
            _linker.c.url,
            _urls.c.id,
            _urls.c.url,
            origins_table.c.origin,
            _fragments.c.fragment,
            _fragments.c.line,
            *more,
        )
        .join_from(_fragments, _urls, _urls.c.id == _fragments.c.to_id)
        .join(origins_table, origins_table.c.id == _urls.c.origin_id)
        .join(_linker, _linker.c.id == _fragments.c.from_id)
        .order_by(_urls.c.url, _fragments.c.fragment, _linker.c.url)
    )


def fetched_with_anchors(
    state: ColumnElement[Any], status: ColumnElement[Any]
) -> ColumnElement[bool]:
    """A verdict of ``state`` and ``status`` that a page's recorded anchors can be judged by
    (L4): fetched, 2xx or 304 (the page as it was), its anchors recorded."""
    return and_(
        state == DONE,
        or_(and_(status >= 200, status < 300), status == 304),
        _urls.c.anchors.is_not(None),
    )


def page_anchors(database: Database, url_ids: Iterable[int]) -> dict[int, frozenset[str]]:
    """For each id, the page's ids and ``<a name>``s as recorded (L4); ids of pages fetched
    without fragment checking (``anchors`` NULL) are absent."""
    statement = select(_urls.c.id, _urls.c.anchors).where(_urls.c.anchors.is_not(None))
    grouped = grouped_by_id(database, statement, _urls.c.id, url_ids)  # one row an id
    return {
        url_id: frozenset(name for name in rows[0][0].split("\n") if name)
        for url_id, rows in grouped.items()
    }
