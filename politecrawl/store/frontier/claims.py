"""Claiming: a slot on a due host, then its best queued URL, as one ``Lease`` [P1, P2, C5].

The statements are ``claim_statements``: ``due_hosts`` (due, or due within the claim's
``ahead_seconds``, with room for a request: the first due), of which ``politeness.claim_order``
takes one; ``take_host_slot`` writes the host's next start ``politeness.slot_at_claim`` decides;
``lease_best_url`` leases its URL (breadth first). A host whose queue turned out empty gives its
slot back and sleeps until a URL of it is added. ``next_wait`` says when a worker that found
nothing should ask again, and why (``next_wait_times``: one statement, one round trip).
``hold_named_host`` holds a host for a request outside a lease (O7) until
``politeness.hold_until``.

With servers (P6, ``ServerSettings``), the window holds only hosts whose server, when known, is
due and has room; ``politeness.server_slot_at_claim`` decides the lease's start from both, and
``servers.take_slot`` takes the server's slot in the same transaction as the host's: a host
whose server a concurrent claim took first is passed over. The lease holds its server's slot
(``Lease.server``) until its end gives it back. A request outside a lease (O7) takes no server
slot.

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

from politecrawl.politeness import claim_order, hold_until, server_slot_at_claim, slot_at_claim
from politecrawl.store.frontier import claim_statements as sql, servers
from politecrawl.store.frontier.values import Lease, ServerSettings, ServerSlot, Wait
from politecrawl.store.schema import from_epoch, to_epoch
from politecrawl.urls import split_canonical

_MAX_EMPTY_HOSTS_PER_CLAIM = 50


class Claimer:
    """Leases URLs inside the caller's write transaction."""

    def __init__(self, lease_seconds: float, servers: ServerSettings | None = None) -> None:
        """``servers``: hosts' servers are paced too (P6); None: each host alone."""
        self.lease_seconds = lease_seconds
        self.servers = servers
        self._among: dict[frozenset[str], sql.AmongHosts] = {}
        self._due_hosts = sql.due_hosts if servers is None else sql.due_hosts_on_servers

    def among(self, names: frozenset[str]) -> sql.AmongHosts:
        """The statements of a claim kept to the hosts ``names`` (built once a set)."""
        statements = self._among.get(names)
        if statements is None:
            with_servers = self.servers is not None
            statements = self._among[names] = sql.AmongHosts(names, with_servers=with_servers)
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
        due_hosts = self._due_hosts if among is None else among.due_hosts
        for _ in range(_MAX_EMPTY_HOSTS_PER_CLAIM):
            window = due_hosts.all(connection, {"ready": ready})
            taken = _take_slots(connection, sorted(window, key=_claim_order), now_epoch)
            if taken is None:
                return None
            host, starts_at, slot = taken
            lease = self._lease_best_url(
                connection,
                host,
                worker,
                now,
                starts_at=_start_of(starts_at, now),
                server=slot,
            )
            if lease is not None:
                return lease
            sql.return_empty_slot.rowcount(connection, {"host_id": host[0]})
            if slot is not None:
                servers.free_slot(connection, slot, unused_since=from_epoch(starts_at))
        return None

    def _lease_best_url(
        self,
        connection: Connection,
        host: tuple[Any, ...],
        worker: str,
        now: datetime,
        *,
        starts_at: datetime,
        server: ServerSlot | None,
    ) -> Lease | None:
        host_id, host_name, error_streak = host[0], host[1], host[2] or 0
        address, resolved_at = (host[9], host[10]) if len(host) > _HOST_COLUMNS else (None, None)
        expires_at = now + timedelta(seconds=self.lease_seconds)
        # P3: after a failure of the host, a fresh URL before any URL to retry (statements).
        lease_url = sql.lease_best_fresh_url if error_streak else sql.lease_best_url
        claimed = lease_url.first(
            connection,
            {
                "for_host": host_id,
                "owner": worker,
                "expires_at": to_epoch(expires_at),
                "server_id": None if server is None else server.server_id,
            },
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
            server=server,
            address=address,
            address_resolved_at=from_epoch(resolved_at),
        )


_HOST_COLUMNS = 5
"""A window's row: the host's id, name, error streak, next start and delay; then, with servers,
its server's id, address, next start and gap, and the host's address and when it was learnt."""


def _claim_order(host: tuple[Any, ...]) -> tuple[float, int]:
    """A due host's place in the claim's order (``politeness.claim_order``; then by id): due
    when its server is due too (P6)."""
    due = host[3] if len(host) == _HOST_COLUMNS or host[7] is None else max(host[3], host[7])
    return claim_order(due, host[4]), host[0]


def _take_slots(
    connection: Connection, window: list[tuple[Any, ...]], now_epoch: float
) -> tuple[tuple[Any, ...], float, ServerSlot | None] | None:
    """The first host of ``window`` (in the claim's order) whose slot, and its server's, could
    be taken, with the lease's start and the server slot; None when none could (P1, P2, P6)."""
    for host in window:
        host_id, due, delay = host[0], host[3], host[4]
        slot = None
        if len(host) == _HOST_COLUMNS or host[5] is None:
            starts_at, next_start = slot_at_claim(due, now_epoch, delay)
        else:
            server_id, server, server_due, server_delay = host[5:9]
            starts_at, next_start, server_next = server_slot_at_claim(
                due,
                server_due,
                now_epoch,
                host_delay_seconds=delay,
                server_delay_seconds=server_delay,
            )
            slot = ServerSlot(server_id, server, server_next, server_delay)
            if not servers.take_slot(connection, slot, starts_at=starts_at):
                continue  # a concurrent claim took the server first (PostgreSQL)
        sql.take_host_slot.rowcount(connection, {"host_id": host_id, "next_at": next_start})
        return host, starts_at, slot
    return None


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


def next_wait(connection: Connection, now: datetime, *, with_servers: bool = False) -> Wait:
    """When to ask again, and why: the next host start (and its server's, P6), deferred URL
    or lease expiry."""
    statement = sql.next_wait_times_on_servers if with_servers else sql.next_wait_times
    times = statement.first(connection, {})
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
