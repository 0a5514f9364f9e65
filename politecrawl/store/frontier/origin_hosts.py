"""Origin and host rows: created on first sight, their ids cached for the process [C2, O1, P1].

A URL's row names its origin (whose robots.txt applies, O1) and its host (the unit of
politeness, P1). ``OriginHostIds`` creates the rows it has not seen, in batches, and caches
their ids for the life of the process; an id becomes visible to the other threads only once
the transaction that created or read it has committed (``committed``), and is dropped if it
rolled back (``rolled_back``).
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from datetime import datetime
from typing import Any, Generic, TypeVar

from sqlalchemy import Connection, select

from politecrawl.store.dialects import insert_for
from politecrawl.store.reading.rows import chunks
from politecrawl.store.schema import hosts_table as _hosts, origins_table as _origins

__all__ = ["OriginHostIds"]


V = TypeVar("V")


class _Ids(Generic[V]):
    """Row ids by name: those of committed rows, shared by every thread, and those this thread's
    open transaction created or read, kept apart until it commits (another thread must not use
    an id that a rollback can take back, and SQLite hands a rolled-back id out again)."""

    def __init__(self) -> None:
        self._committed: dict[str, V] = {}
        self._local = threading.local()

    def _pending(self) -> dict[str, V]:
        pending: dict[str, V] | None = getattr(self._local, "ids", None)
        if pending is None:
            pending = self._local.ids = {}
        return pending

    def get(self, name: str) -> V | None:
        found = self._committed.get(name)
        return found if found is not None else self._pending().get(name)

    def __contains__(self, name: str) -> bool:
        return self.get(name) is not None

    def __getitem__(self, name: str) -> V:
        found = self.get(name)
        if found is None:
            raise KeyError(name)
        return found

    def put(self, pairs: Iterable[tuple[str, V]]) -> None:
        self._pending().update(pairs)

    def publish(self) -> None:
        pending = self._pending()
        self._committed.update(pending)
        pending.clear()

    def discard(self) -> None:
        self._pending().clear()


class OriginHostIds:
    """Origin and host ids by name, creating the rows inside the caller's transaction; a new
    host gets the configured delay and requests in flight (P1, P2)."""

    def __init__(
        self, is_sqlite: bool, *, default_delay_seconds: float, max_in_flight_per_host: int
    ) -> None:
        self._insert = insert_for("sqlite" if is_sqlite else "postgresql")
        self.default_delay_seconds = default_delay_seconds
        self.max_in_flight_per_host = max_in_flight_per_host
        self.hosts: _Ids[int] = _Ids()
        self.origins: _Ids[tuple[int, int]] = _Ids()

    def committed(self) -> None:
        """This thread's transaction committed: its ids are now everyone's."""
        self.hosts.publish()
        self.origins.publish()

    def rolled_back(self) -> None:
        """This thread's transaction rolled back: the ids it created may not exist."""
        self.hosts.discard()
        self.origins.discard()

    def for_origins(
        self, connection: Connection, hosts_by_origin: dict[str, str], now: datetime
    ) -> dict[str, tuple[int, int]]:
        """``origin -> (origin id, host id)``, creating the rows not seen before, in batches."""
        new_origins = {o: h for o, h in hosts_by_origin.items() if o not in self.origins}
        new_hosts = sorted({h for h in new_origins.values() if h not in self.hosts})
        if new_hosts:
            host_rows = [self._new_host_row(host, now) for host in new_hosts]
            connection.execute(
                self._insert(_hosts).on_conflict_do_nothing(index_elements=["host"]), host_rows
            )
            for chunk in chunks(new_hosts):
                rows = connection.execute(
                    select(_hosts.c.host, _hosts.c.id).where(_hosts.c.host.in_(chunk))
                )
                self.hosts.put((row.host, row.id) for row in rows)
        if new_origins:
            origin_rows = [
                {"origin": origin, "host_id": self.hosts[host], "robots_failures": 0}
                for origin, host in sorted(new_origins.items())
            ]
            connection.execute(
                self._insert(_origins).on_conflict_do_nothing(index_elements=["origin"]),
                origin_rows,
            )
            for chunk in chunks(sorted(new_origins)):
                rows = connection.execute(
                    select(_origins.c.origin, _origins.c.id, _origins.c.host_id).where(
                        _origins.c.origin.in_(chunk)
                    )
                )
                self.origins.put((row.origin, (row.id, row.host_id)) for row in rows)
        return {origin: self.origins[origin] for origin in hosts_by_origin}

    def ensure_host(self, connection: Connection, host: str, now: datetime) -> None:
        """Create the row of a host never seen before (for a slot outside the queue)."""
        if host in self.hosts:
            return
        connection.execute(
            self._insert(_hosts).on_conflict_do_nothing(index_elements=["host"]),
            [self._new_host_row(host, now)],
        )
        host_id = connection.execute(select(_hosts.c.id).where(_hosts.c.host == host)).scalar_one()
        self.hosts.put([(host, host_id)])

    def _new_host_row(self, host: str, now: datetime) -> dict[str, Any]:
        return {
            "host": host,
            "active": True,
            "next_fetch_at": now,
            "in_flight": 0,
            "max_in_flight": self.max_in_flight_per_host,
            "delay_seconds": self.default_delay_seconds,
            "backoff_seconds": 0.0,
            "error_streak": 0,
        }
