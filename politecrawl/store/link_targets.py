"""The index of links by their target (``links.to_id``): built when read, not kept while a
crawl writes [L1, S4].

Reports name the pages that link to a URL (``reading.referrers``; the sitemap audit's "linked
from a page"), which needs the links indexed by target. Kept up to date while a crawl records
its pages, that index was a quarter of a page's transaction (every link a random insert into
it: 0.25 ms of 0.95 ms with 40 links a page); built in one sorted pass, it costs a fraction of
that. So a crawl drops it as its run starts and builds it as the run ends
(``Crawler.crawl``); a reading builds it first if it is missing (a report on a live crawl, or on
one that was killed), after which that crawl keeps it up to date, as before, until its next
run. Not a model's index: the schema's migrations leave it out (0006), so that autogenerate
and ``create_all`` agree on a database without it.
"""

from __future__ import annotations

from sqlalchemy import Connection, inspect, text
from sqlalchemy.exc import DBAPIError

from politecrawl.store.database import Database

INDEX_NAME = "ix_links_to_id"
_CREATE = text(f"CREATE INDEX IF NOT EXISTS {INDEX_NAME} ON links (to_id)")
_DROP = text(f"DROP INDEX IF EXISTS {INDEX_NAME}")


def has_link_target_index(database: Database) -> bool:
    """Whether the links are indexed by target now."""
    with database.engine.connect() as connection:
        return _exists(connection)


def ensure_link_target_index(database: Database) -> None:
    """Build the index unless it is there."""
    if has_link_target_index(database):
        return
    try:
        database.run(lambda connection: connection.execute(_CREATE))
    except DBAPIError:
        # PostgreSQL's IF NOT EXISTS is not atomic: another process may have built it at the
        # same moment, which is as good.
        if not has_link_target_index(database):
            raise


def drop_link_target_index(database: Database) -> None:
    """Drop the index for a crawl run's writes (it is built again as the run ends)."""
    if has_link_target_index(database):
        database.run(lambda connection: connection.execute(_DROP))


def _exists(connection: Connection) -> bool:
    return any(index["name"] == INDEX_NAME for index in inspect(connection).get_indexes("links"))
