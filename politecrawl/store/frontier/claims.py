"""Claiming: a slot on a due host, then its best queued URL, as one ``Lease`` [P1, P2, C5].

The statements are ``claim_statements``: ``due_hosts`` (due, or due within the claim's
``ahead_seconds``, with room for a request: the first due), of which ``politeness.claim_order``
takes one; ``take_host_slot`` writes the host's next start ``politeness.slot_at_claim`` decides;
``lease_best_url`` leases its URL (breadth first). A host whose queue turned out empty gives its
slot back and sleeps until a URL of it is added. ``next_wait`` says when a worker that found
nothing should ask again, and why (``next_wait_times``: one statement, one round trip).
``hold_named_host`` holds a host for a request outside a lease (O7) until
``politeness.hold_until``.

A claim may be kept to some hosts (``among``: a crawl's worker kept to the seeds' hosts, so
that checks of links leaving the site never hold every worker while the site's pages wait, L1):
the same choice among those hosts only; ``kept_wait`` says when to ask them again, or None when
they have nothing queued on a host with room and nothing in flight (the worker then takes any
host, as the others do).
"""

from __future__ import annotations

import math
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Connection

from politecrawl.politeness import claim_order, hold_until, slot_at_claim
from politecrawl.store.frontier import claim_statements as sql
from politecrawl.store.frontier.values import Lease, Wait
from politecrawl.store.schema import from_epoch, to_epoch
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
        now_epoch = to_epoch(now)
        ready = now_epoch + ahead_seconds
        due_hosts = sql.due_hosts if among is None else among.due_hosts
        for _ in range(_MAX_EMPTY_HOSTS_PER_CLAIM):
            window = due_hosts.all(connection, {"ready": ready})
            if not window:
                return None
            host_id, host_name, error_streak, due, delay = min(window, key=_claim_order)
            starts_at, next_start = slot_at_claim(due, now_epoch, delay)
            sql.take_host_slot.rowcount(connection, {"host_id": host_id, "next_at": next_start})
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
            {"for_host": host_id, "owner": worker, "expires_at": to_epoch(expires_at)},
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
            fetched_at=from_epoch(fetched_at),
            sitemap_lastmod=from_epoch(sitemap_lastmod),
        )


def _claim_order(host: tuple[Any, ...]) -> tuple[float, int]:
    """A due host's place in the claim's order (``politeness.claim_order``; then by id)."""
    host_id, _, _, due, delay = host
    return claim_order(due, delay), host_id


def _start_of(starts_at: float, now: datetime) -> datetime:
    """The lease's start (``politeness.slot_at_claim``) as a moment, rounded up to the
    microsecond, so that the worker never asks before it."""
    start = from_epoch(math.ceil(starts_at * 1_000_000) / 1_000_000)
    assert start is not None
    return max(start, now)


def hold_named_host(
    connection: Connection, host: str, now: datetime, *, hold_seconds: float
) -> bool:
    """Hold ``host`` (its row exists) for one request outside a lease, when it is due with
    nothing in flight: until ``politeness.hold_until`` (O7, C5); False when it is busy."""
    delay = sql.named_host_delay.first(connection, {"host_name": host})
    if delay is None:
        return False
    until = hold_until(now, hold_seconds=hold_seconds, delay_seconds=delay[0])
    params = {"host_name": host, "now": to_epoch(now), "hold_until": to_epoch(until)}
    return sql.take_named_host_slot.rowcount(connection, params) == 1


def next_wait(connection: Connection, now: datetime) -> Wait:
    """When to ask again, and why: the next host start, deferred URL or lease expiry."""
    times = sql.next_wait_times.first(connection, {})
    assert times is not None  # one row, always
    next_host, next_deferred, next_expiry = (from_epoch(time) for time in times)
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
    next_host, next_expiry = (from_epoch(time) for time in times)
    if next_host is not None:
        return Wait(max(next_host, now), "politeness delay")
    if next_expiry is not None:
        return Wait(max(next_expiry, now), "requests in flight")
    return None
