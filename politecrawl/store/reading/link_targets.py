"""The index of links by their target (``links.to_id``): built when read, not kept while a
crawl writes [L1, S4].

Reports name the pages that link to a URL (``reading.referrers``; the sitemap audit's "linked
from a page"), which needs the links indexed by target. Kept up to date while a crawl records
its pages, that index was a quarter of a page's transaction (every link a random insert into
it: 0.25 ms of 0.95 ms with 40 links a page); built in one sorted pass, it costs a fraction of
that. So a crawl run drops it as it starts and builds it as it ends (``Crawler.crawl``; not
after Ctrl-C or an error, to stop at once), and a report builds it first when it is missing (a
live crawl, one stopped or killed), after which the crawl keeps it up to date, as before, until
its next run. On PostgreSQL it is built and dropped ``CONCURRENTLY``, so that the crawls of other
machines go on writing meanwhile. A reader that may not build it (a role that can only read, a
build in progress elsewhere) reads without it: the same answers, slower. Not in ``schema``:
migration 0006 removed it, so that autogenerate and ``create_all`` agree on a database without it.
"""

from __future__ import annotations

import contextlib

from sqlalchemy.exc import DBAPIError

from politecrawl.store.database import Database
from politecrawl.store.dialects import change_index, index_is_ready

INDEX_NAME = "ix_links_to_id"
_BUILD = f"CREATE INDEX {{how}}IF NOT EXISTS {INDEX_NAME} ON links (to_id)"
_DROP = f"DROP INDEX {{how}}IF EXISTS {INDEX_NAME}"


def has_link_target_index(database: Database) -> bool:
    """Whether the links are indexed by target now (on PostgreSQL: a finished, valid index)."""
    with database.engine.connect() as connection:
        return index_is_ready(connection, INDEX_NAME, "links")


def ensure_link_target_index(database: Database) -> None:
    """Build the index unless it is there."""
    if has_link_target_index(database):
        return
    # Built by another process at the same moment, or not ours to build: read without it.
    with contextlib.suppress(DBAPIError):
        change_index(database, _BUILD)


def drop_link_target_index(database: Database) -> None:
    """Drop the index for a crawl run's writes. A database whose index cannot be dropped is
    crawled with it, as before 0006: slower, never wrong."""
    with contextlib.suppress(DBAPIError):
        change_index(database, _DROP)
