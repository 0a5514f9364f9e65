"""Claiming: a slot on a due host, then its best queued URL, as one ``Lease`` [P1, P2, C5].

The statements are ``statements.take_host_slot`` (the host: due, or due within the claim's
``ahead_seconds``, room for a request, of the first due the one waiting longest, its delay counted
twice) and ``statements.lease_best_url`` (the URL: breadth first);
a host whose queue turned out empty gives its slot back and sleeps until a URL of it is added.
``next_wait`` says when a worker that found nothing should ask again, and why
(``statements.next_wait_times``: one statement, one round trip).

A claim may be kept to some hosts (``among``: a crawl's worker kept to the seeds' hosts, so
that checks of links leaving the site never hold every worker while the site's pages wait, L1):
the same choice among those hosts only; ``kept_wait`` says when to ask them again, or None when
they have nothing queued on a host with room and nothing in flight (the worker then takes any
host, as the others do).
"""

from __future__ import annotations

import math
from datetime import datetime, timedelta

from sqlalchemy import Connection

from politecrawl.store.frontier import statements as sql
from politecrawl.store.frontier.values import Lease, Wait
from politecrawl.urls import split_canonical

_MAX_EMPTY_HOSTS_PER_CLAIM = 50


class Claimer:
    """Leases URLs inside the caller's write transaction."""

    def __init__(self, lease_seconds: float) -> None:
        self.lease_seconds = lease_seconds
        self._among: dict[frozenset[str], sql.AmongHosts] = {}

    def among(self, names: frozenset[str]) -> sql.AmongHosts:
        """The statements of a claim kept to the hosts ``names`` (built once a set)."""
        statements = self._among.get(names)
        if statements is None:
            statements = self._among[names] = sql.AmongHosts(names)
        return statements

    def claim(
        self,
        connection: Connection,
        worker: str,
        now: datetime,
        *,
        ahead_seconds: float = 0.0,
        among: sql.AmongHosts | None = None,
    ) -> Lease | None:
        """The best URL of a host due by ``now``, leased to ``worker``; None when no host is
        due. With ``ahead_seconds``, a host due that much later may be taken: its lease starts
        when it is due (``Lease.claimed_at``), and its worker must not ask before (P2).
        ``among``: of those hosts only."""
        epoch = sql.epoch(now)
        ready = epoch + ahead_seconds
        take_host_slot = sql.take_host_slot if among is None else among.take_host_slot
        for _ in range(_MAX_EMPTY_HOSTS_PER_CLAIM):
            host = take_host_slot.first(connection, {"now": epoch, "ready": ready})
            if host is None:
                return None
            host_id, host_name, error_streak, starts_at = host
            lease = self._lease_best_url(
                connection,
                host_id,
                host_name,
                worker,
                now,
                starts_at=_start_of(starts_at, now),
                error_streak=error_streak or 0,
            )
            if lease is not None:
                return lease
            sql.return_empty_slot.rowcount(connection, {"host_id": host_id})
        return None

    def _lease_best_url(
        self,
        connection: Connection,
        host_id: int,
        host_name: str,
        worker: str,
        now: datetime,
        *,
        starts_at: datetime,
        error_streak: int,
    ) -> Lease | None:
        expires_at = now + timedelta(seconds=self.lease_seconds)
        # P3: after a failure of the host, a fresh URL before any URL to retry (statements).
        lease_url = sql.lease_best_fresh_url if error_streak else sql.lease_best_url
        claimed = lease_url.first(
            connection,
            {"for_host": host_id, "owner": worker, "expires_at": sql.epoch(expires_at)},
        )
        if claimed is None:
            return None
        (
            url_id,
            url,
            depth,
            attempts,
            pass_number,
            hops,
            etag,
            modified,
            referrer_id,
            referrer,
            kind,
            status,
            fetched_at,
            sitemap_lastmod,
        ) = claimed
        return Lease(
            url_id=url_id,
            url=url,
            # A URL's origin is a slice of the URL itself (the row's origin was made from it):
            # no lookup, and no cache of ids that a rolled-back transaction may have given out.
            origin=split_canonical(url)[0],
            host=host_name,
            depth=depth,
            attempts=attempts,
            owner=worker,
            expires_at=expires_at,
            pass_number=pass_number,
            claimed_at=starts_at,
            redirect_hops=hops,
            etag=etag,
            last_modified=modified,
            host_error_streak=error_streak,
            referrer_id=referrer_id,
            referrer=referrer,
            kind=kind,
            status=status,
            fetched_at=sql.moment(fetched_at),
            sitemap_lastmod=sql.moment(sitemap_lastmod),
        )


def _start_of(starts_at: float, now: datetime) -> datetime:
    """The lease's start: ``now``, or the moment its host is due when that is later (rounded
    up to the microsecond, so that the worker never asks before it)."""
    start = sql.moment(math.ceil(starts_at * 1_000_000) / 1_000_000)
    assert start is not None
    return max(start, now)


def next_wait(connection: Connection, now: datetime) -> Wait:
    """When to ask again, and why: the next host start, deferred URL or lease expiry."""
    times = sql.next_wait_times.first(connection, {})
    assert times is not None  # one row, always
    next_host, next_deferred, next_expiry = (sql.moment(time) for time in times)
    candidates = [time for time in (next_host, next_deferred, next_expiry) if time is not None]
    if not candidates:
        return Wait(None, "nothing queued, leased or deferred")
    until = max(min(candidates), now)
    if next_expiry is not None and until == next_expiry:
        reason = "requests in flight"
    elif next_deferred is not None and until == next_deferred:
        reason = "deferred work"
    else:
        reason = "politeness delay"
    return Wait(until, reason)


def kept_wait(connection: Connection, now: datetime, among: sql.AmongHosts) -> Wait | None:
    """When a worker kept to some hosts should ask them again: the next start of one with a URL
    queued and room for a request, or the end of a lease of theirs (a page in flight may queue
    more); None when there is neither."""
    times = among.next_wait_times.first(connection, {})
    assert times is not None  # one row, always
    next_host, next_expiry = (sql.moment(time) for time in times)
    if next_host is not None:
        return Wait(max(next_host, now), "politeness delay")
    if next_expiry is not None:
        return Wait(max(next_expiry, now), "requests in flight")
    return None
