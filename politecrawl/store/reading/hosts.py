"""Hosts as ``politecrawl status`` shows them: what each one waits for, its server included
[P1-P3, P6, O6]."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, select

from politecrawl.store.database import Database
from politecrawl.store.schema import (
    DEFERRED,
    LEASED,
    QUEUED,
    hosts_table as _hosts,
    in_state,
    servers_table as _servers,
    urls_table as _urls,
)


@dataclass(frozen=True, slots=True)
class HostWait:
    """One host: its queue, what is in flight, and why it is not being asked right now."""

    host: str
    queued: int
    in_flight: int
    deferred: int
    delay_seconds: float
    next_fetch_at: datetime
    deferred_reasons: tuple[str, ...]
    """Why its deferred URLs wait: robots-deferred (O6), retry (P3), crawl-delay-above-cap."""
    wait_reason: str | None = None
    """Why its last request set the next start: delay, back-off, Retry-After, ... (P3)."""
    error_streak: int = 0
    server: str | None = None
    """The server its address is on (P6), when known."""
    server_in_flight: int = 0
    server_max_in_flight: int = 0
    server_next_fetch_at: datetime | None = None
    server_delay_seconds: float = 0.0

    def server_wait(self, now: datetime) -> str | None:
        """What its server makes it wait for, when the host itself could be asked now (its
        queue not empty, nothing of its own in flight, its own delay over): None otherwise."""
        if self.server is None or not self.queued or self.in_flight or self.next_fetch_at > now:
            return None
        if self.server_in_flight >= self.server_max_in_flight:
            return f"its server {self.server}: {self.server_in_flight} request(s) in flight"
        if self.server_next_fetch_at is not None and self.server_next_fetch_at > now:
            wait = (self.server_next_fetch_at - now).total_seconds()
            gap = f"{self.server_delay_seconds:g} s between its requests"
            return f"its server {self.server} ({gap}): {wait:.1f} s"
        return None

    def why(self, now: datetime) -> str:
        """One phrase: what this host waits for."""
        if self.in_flight:
            return f"{self.in_flight} request(s) in flight"
        if (server := self.server_wait(now)) is not None:
            return server
        wait = (self.next_fetch_at - now).total_seconds()
        if self.queued and wait > 0:
            reason = self.wait_reason or "politeness delay"
            if reason == "delay":
                reason = "politeness delay"
            return f"{reason} ({self.delay_seconds:g} s between requests): {wait:.1f} s"
        if self.queued:
            return "ready"
        if self.deferred:
            return "deferred: " + ", ".join(self.deferred_reasons)
        return "nothing queued"


def host_waits(database: Database) -> list[HostWait]:
    """Every host with work left (queued, leased or deferred), by host name."""
    with database.engine.connect() as connection:
        counts = connection.execute(
            select(_urls.c.host_id, _urls.c.state, func.count())
            .where(_urls.c.state.in_((QUEUED, LEASED, DEFERRED)))
            .group_by(_urls.c.host_id, _urls.c.state)
        ).all()
        reasons = connection.execute(
            select(_urls.c.host_id, _urls.c.reason).where(in_state(DEFERRED)).distinct()
        ).all()
        host_ids = sorted({row[0] for row in counts})
        hosts = connection.execute(
            select(
                _hosts,
                _servers.c.address.label("server"),
                _servers.c.in_flight.label("server_in_flight"),
                _servers.c.max_in_flight.label("server_max_in_flight"),
                _servers.c.next_fetch_at.label("server_next_fetch_at"),
                _servers.c.delay_seconds.label("server_delay_seconds"),
            )
            .select_from(_hosts.outerjoin(_servers, _servers.c.id == _hosts.c.server_id))
            .where(_hosts.c.id.in_(host_ids))
        ).all()
    by_host: dict[int, dict[str, int]] = {}
    for host_id, state, count in counts:
        by_host.setdefault(host_id, {})[state] = count
    why: dict[int, list[str]] = {}
    for host_id, reason in reasons:
        why.setdefault(host_id, []).append(reason or "deferred")
    return sorted(
        (
            HostWait(
                host=row.host,
                queued=by_host[row.id].get(QUEUED, 0),
                in_flight=by_host[row.id].get(LEASED, 0),
                deferred=by_host[row.id].get(DEFERRED, 0),
                delay_seconds=row.delay_seconds,
                next_fetch_at=row.next_fetch_at,
                deferred_reasons=tuple(sorted(why.get(row.id, []))),
                wait_reason=row.wait_reason,
                error_streak=row.error_streak or 0,
                server=row.server,
                server_in_flight=row.server_in_flight or 0,
                server_max_in_flight=row.server_max_in_flight or 0,
                server_next_fetch_at=row.server_next_fetch_at,
                server_delay_seconds=row.server_delay_seconds or 0.0,
            )
            for row in hosts
        ),
        key=lambda wait: wait.host,
    )
