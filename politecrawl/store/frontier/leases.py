"""Housekeeping of leases and waits: what returns to the queue, and when [C5, O6].

A lease returns to the queue when it expires, or at once when its owner is a process on this
machine that is gone (a crawl killed with SIGKILL resumes without waiting for the lease time).
Deferred URLs return when their time comes. Both wake their hosts. A host left asleep with
queued URLs (a race between PostgreSQL workers, see ``wake_stranded_hosts``) is woken before the
crawl is declared finished.
"""

from __future__ import annotations

import os
import socket
from collections import Counter
from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import Connection, Select, Table, and_, case, select, update
from sqlalchemy.sql.elements import ColumnElement

from politecrawl.politeness import next_start_after_lost
from politecrawl.store.schema import (
    DEFERRED,
    LEASED,
    QUEUED,
    SLOTS_GIVEN_BACK,
    hosts_table as _hosts,
    in_state,
    servers_table as _servers,
    urls_table as _urls,
)


def _process_is_gone(owner: str) -> bool:
    """True when ``owner`` names a process on this machine that no longer runs."""
    parts = owner.split(":")
    if len(parts) < 2 or parts[0] != socket.gethostname() or not parts[1].isdigit():
        return False
    try:
        os.kill(int(parts[1]), 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    return False


def _dead_owners(connection: Connection) -> list[str]:
    owners = connection.execute(
        select(_urls.c.lease_owner).where(in_state(LEASED)).distinct()
    ).scalars()
    return [owner for owner in owners if owner and _process_is_gone(owner)]


def expired_leases(
    now: datetime, dead_owners: Sequence[str] = ()
) -> Select[tuple[int, int, int | None]]:
    """The leased URLs (id, host id, server id) whose lease expired, or whose owner is gone."""
    return (
        select(_urls.c.id, _urls.c.host_id, _urls.c.lease_server_id)
        .where(in_state(LEASED))
        .where((_urls.c.lease_expires_at < now) | _urls.c.lease_owner.in_(dead_owners))
    )


def due_deferred(now: datetime, *, indefinite: bool = False) -> ColumnElement[bool]:
    """The deferred URLs whose time has come, or (``indefinite``) those deferred for the rest
    of a run."""
    if indefinite:
        return and_(in_state(DEFERRED), _urls.c.next_attempt_at.is_(None))
    return and_(in_state(DEFERRED), _urls.c.next_attempt_at <= now)


def release_expired_leases(connection: Connection, now: datetime) -> int:
    """Queue again leased URLs whose lease expired or whose local owner process is gone."""
    leased = connection.execute(expired_leases(now, _dead_owners(connection))).all()
    if not leased:
        return 0
    connection.execute(
        update(_urls)
        .where(_urls.c.id.in_([row.id for row in leased]), in_state(LEASED))
        .values(state=QUEUED, lease_owner=None, lease_expires_at=None, lease_server_id=None)
    )
    # The lost requests may still be ending on the server: their hosts' slots, and their
    # servers' (P6), are given back the same way; a lease that gave its slots back at its
    # response (SLOTS_GIVEN_BACK) has none to give (P1: its host's next lease holds it now).
    holding = [row for row in leased if row.lease_server_id != SLOTS_GIVEN_BACK]
    on_hosts = Counter(row.host_id for row in holding)
    _give_back_lost(connection, _hosts, on_hosts, now, active=True)
    on_servers = Counter(row.lease_server_id for row in holding if row.lease_server_id is not None)
    _give_back_lost(connection, _servers, on_servers, now)
    # The hosts of those alone are woken too: their URLs are queued again.
    if answered := {row.host_id for row in leased} - set(on_hosts):
        connection.execute(update(_hosts).where(_hosts.c.id.in_(answered)).values(active=True))
    return len(leased)


def _give_back_lost(
    connection: Connection, table: Table, lost: Counter[int], now: datetime, **also: object
) -> None:
    """The slots of leases lost (expired, or their process gone, C5), ``lost`` per row id of
    ``table`` (hosts, or servers): given back, and each row's next start
    ``politeness.next_start_after_lost`` from the row as it stands (locked until the commit);
    ``also``: more columns to set."""
    if not lost:
        return
    rows = connection.execute(
        select(table.c.id, table.c.next_fetch_at, table.c.delay_seconds)
        .where(table.c.id.in_(sorted(lost)))
        .with_for_update()
    ).all()
    for row_id, next_start, delay_seconds in rows:
        count = lost[row_id]
        connection.execute(
            update(table)
            .where(table.c.id == row_id)
            .values(
                in_flight=case((table.c.in_flight > count, table.c.in_flight - count), else_=0),
                next_fetch_at=next_start_after_lost(
                    now, next_start=next_start, delay_seconds=delay_seconds
                ),
                **also,
            )
        )


def wake_deferred_urls(connection: Connection, now: datetime, *, indefinite: bool = False) -> int:
    """Queue again the deferred URLs whose time has come, or (``indefinite``) those deferred
    for the rest of a run, and wake their hosts."""
    due = due_deferred(now, indefinite=indefinite)
    host_ids = list(connection.execute(select(_urls.c.host_id).where(due).distinct()).scalars())
    if not host_ids:
        return 0
    woken = connection.execute(
        update(_urls).where(due).values(state=QUEUED, next_attempt_at=None)
    ).rowcount
    connection.execute(update(_hosts).where(_hosts.c.id.in_(host_ids)).values(active=True))
    return woken


def wake_stranded_hosts(connection: Connection) -> int:
    """Wake the hosts that sleep although they have queued URLs; returns how many.

    On PostgreSQL (read committed) a claim can find a host's queue empty while another
    worker's links for it are not yet committed, and put the host to sleep after that worker
    checked it was awake. The frontier runs this before it says nothing is left, so such URLs
    are fetched late rather than never.
    """
    has_queued = select(_urls.c.id).where(_urls.c.host_id == _hosts.c.id, in_state(QUEUED)).exists()
    return connection.execute(
        update(_hosts).where(~_hosts.c.active, has_queued).values(active=True)
    ).rowcount
