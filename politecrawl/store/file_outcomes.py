"""The robots.txt and tdmrep.json caches of every origin, in the crawl database [E1, E4, U3].

Outcomes survive restarts and are shared by every worker and process of a crawl. Each file's
outcome (``politecrawl.robots.outcome.RobotsOutcome``, fetched as ``robots.outcome`` and
``preferences.tdmrep_outcome`` say) lives on the origin's ``origins`` row, in the columns named
after the file (``robots_*``, ``tdmrep_*``). The store keeps outcomes, not parsed rules: parsing
is cheap and pure, and the raw body is what a person wants to see in ``robots show``.
"""

from __future__ import annotations

from datetime import datetime
from typing import ClassVar

from sqlalchemy import ColumnElement, select, update

from politecrawl.robots.outcome import RobotsOutcome
from politecrawl.store.database import Database
from politecrawl.store.schema import origins_table as _origins, sitemaps_table as _sitemaps

__all__ = ["RobotsOutcomeStore", "TdmRepOutcomeStore"]

_FIELDS = (
    "outcome",
    "status",
    "body",
    "error",
    "etag",
    "last_modified",
    "expires_at",
    "retry_at",
    "failures",
)


class _FileOutcomeStore:
    """Read and write one file's outcome of origins (a ``gate.OutcomeStore``)."""

    file: ClassVar[str]
    """The prefix of the file's columns on the ``origins`` table."""

    def __init__(self, database: Database) -> None:
        self.database = database

    def get(self, origin: str) -> RobotsOutcome | None:
        """The stored outcome of ``origin``'s file, or None when it was never fetched."""
        statement = select(*(self._column(name).label(name) for name in _FIELDS)).where(
            _origins.c.origin == origin
        )
        with self.database.engine.connect() as connection:
            row = connection.execute(statement).first()
        if row is None or row.outcome is None:
            return None
        return RobotsOutcome(
            kind=row.outcome,
            status=row.status,
            body=row.body,
            reason=row.error or "",
            expires_at=row.expires_at,
            retry_at=row.retry_at,
            failures=row.failures,
            etag=row.etag,
            last_modified=row.last_modified,
        )

    def put(self, origin: str, outcome: RobotsOutcome, *, now: datetime) -> None:
        """Store ``outcome`` for ``origin`` (the origin row exists once a URL of it was added)."""
        values = {
            "outcome": outcome.kind,
            "status": outcome.status,
            "body": outcome.body,
            "error": outcome.reason,
            "etag": outcome.etag,
            "last_modified": outcome.last_modified,
            "fetched_at": now,
            "expires_at": outcome.expires_at,
            "retry_at": outcome.retry_at,
            "failures": outcome.failures,
        }
        statement = (
            update(_origins)
            .where(_origins.c.origin == origin)
            .values({f"{self.file}_{name}": value for name, value in values.items()})
        )
        self.database.run(lambda connection: connection.execute(statement))

    def _column(self, name: str) -> ColumnElement[object]:
        return _origins.c[f"{self.file}_{name}"]


class RobotsOutcomeStore(_FileOutcomeStore):
    """Read and write the robots.txt outcome of origins."""

    file = "robots"

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


class TdmRepOutcomeStore(_FileOutcomeStore):
    """Read and write the tdmrep.json outcome of origins (U3)."""

    file = "tdmrep"
