"""The tdmrep.json cache of every origin, in the crawl database [U3, E1, E4].

Beside each origin's robots.txt, on its ``origins`` row: the outcome of fetching
``/.well-known/tdmrep.json`` as robots.txt is fetched (``preferences.tdmrep_outcome``), so it
survives restarts and is shared by every worker and process. The raw body is kept, not the
rules: reading them is pure and cheap, and the body is what a person wants to see.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select, update

from politecrawl.robots.outcome import RobotsOutcome
from politecrawl.store.database import Database
from politecrawl.store.schema import origins_table as _origins


class TdmRepOutcomeStore:
    """Read and write the tdmrep.json outcome of origins (a ``gate.OutcomeStore``)."""

    def __init__(self, database: Database) -> None:
        self.database = database

    def get(self, origin: str) -> RobotsOutcome | None:
        """The stored outcome of ``origin``'s tdmrep.json, or None when it was never fetched."""
        with self.database.engine.connect() as connection:
            row = connection.execute(select(_origins).where(_origins.c.origin == origin)).first()
        if row is None or row.tdmrep_outcome is None:
            return None
        return RobotsOutcome(
            kind=row.tdmrep_outcome,
            status=row.tdmrep_status,
            body=row.tdmrep_body,
            reason=row.tdmrep_error or "",
            expires_at=row.tdmrep_expires_at,
            retry_at=row.tdmrep_retry_at,
            failures=row.tdmrep_failures,
            etag=row.tdmrep_etag,
            last_modified=row.tdmrep_last_modified,
        )

    def put(self, origin: str, outcome: RobotsOutcome, *, now: datetime) -> None:
        """Store ``outcome`` for ``origin`` (its row exists once a URL of it was added)."""
        values = {
            "tdmrep_outcome": outcome.kind,
            "tdmrep_status": outcome.status,
            "tdmrep_body": outcome.body,
            "tdmrep_error": outcome.reason,
            "tdmrep_etag": outcome.etag,
            "tdmrep_last_modified": outcome.last_modified,
            "tdmrep_fetched_at": now,
            "tdmrep_expires_at": outcome.expires_at,
            "tdmrep_retry_at": outcome.retry_at,
            "tdmrep_failures": outcome.failures,
        }
        statement = update(_origins).where(_origins.c.origin == origin).values(**values)
        self.database.run(lambda connection: connection.execute(statement))
