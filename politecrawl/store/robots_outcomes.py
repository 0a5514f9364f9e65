"""The robots.txt cache of every origin, in the crawl database [E1, E4].

Policies survive restarts and are shared by every worker and process of a crawl. The store
keeps outcomes (``politecrawl.robots.outcome.RobotsOutcome``), not parsed policies: parsing is
cheap and pure, and the raw body is what a person wants to see in ``robots show``.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select, update

from politecrawl.robots.outcome import RobotsOutcome
from politecrawl.store.database import Database
from politecrawl.store.schema import origins_table as _origins, sitemaps_table as _sitemaps


class RobotsOutcomeStore:
    """Read and write the robots.txt outcome of origins."""

    def __init__(self, database: Database) -> None:
        self.database = database

    def get(self, origin: str) -> RobotsOutcome | None:
        """The stored outcome of ``origin``, or None when robots.txt was never fetched."""
        with self.database.engine.connect() as connection:
            row = connection.execute(select(_origins).where(_origins.c.origin == origin)).first()
        if row is None or row.robots_outcome is None:
            return None
        return RobotsOutcome(
            kind=row.robots_outcome,
            status=row.robots_status,
            body=row.robots_body,
            reason=row.robots_error or "",
            expires_at=row.robots_expires_at,
            retry_at=row.robots_retry_at,
            failures=row.robots_failures,
            etag=row.robots_etag,
            last_modified=row.robots_last_modified,
        )

    def put(self, origin: str, outcome: RobotsOutcome, *, now: datetime) -> None:
        """Store ``outcome`` for ``origin`` (the origin row exists once a URL of it was added)."""
        values = {
            "robots_outcome": outcome.kind,
            "robots_status": outcome.status,
            "robots_body": outcome.body,
            "robots_error": outcome.reason,
            "robots_etag": outcome.etag,
            "robots_last_modified": outcome.last_modified,
            "robots_fetched_at": now,
            "robots_expires_at": outcome.expires_at,
            "robots_retry_at": outcome.retry_at,
            "robots_failures": outcome.failures,
        }
        statement = update(_origins).where(_origins.c.origin == origin).values(**values)
        self.database.run(lambda connection: connection.execute(statement))

    def retry_exhausted(self, *, now: datetime) -> int:
        """Origins whose robots.txt attempts ran out in an earlier run are tried again (O6)."""
        statement = (
            update(_origins)
            .where(_origins.c.robots_outcome == "deferred", _origins.c.robots_retry_at.is_(None))
            .values(robots_retry_at=now, robots_failures=0)
        )
        return self.database.run(lambda connection: connection.execute(statement).rowcount)

    def all(self) -> dict[str, RobotsOutcome | None]:
        """Every origin of the crawl with its outcome (None: not fetched yet)."""
        with self.database.engine.connect() as connection:
            names = connection.execute(select(_origins.c.origin)).scalars().all()
        return {name: self.get(name) for name in names}

    def without_sitemaps(self) -> list[str]:
        """Origins whose robots.txt was read (2xx, or a 4xx allowing everything) but for which
        no sitemap was queued: a crash between the two writes, or a lost lease (S1)."""
        vouched = select(_sitemaps.c.url_id).where(_sitemaps.c.for_origin == _origins.c.origin)
        statement = select(_origins.c.origin).where(
            _origins.c.robots_outcome.in_(("parsed", "allow_all")), ~vouched.exists()
        )
        with self.database.engine.connect() as connection:
            return list(connection.execute(statement).scalars())
