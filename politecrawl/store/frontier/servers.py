"""Servers: the machine behind host names, the second unit of politeness [P6].

A host learns its server from its address (``HostAddress``, which a lease's end brings:
``record_address`` creates the server's row on first sight and moves the host onto it). A
claim takes a server's slot with its host's, in the same transaction (``take_slot``: one
more request in flight and the next start ``politeness.server_slot_at_claim`` decided, only
while the server has room and no concurrent claim moved its next start past the lease's, so
that two PostgreSQL workers never both pass); a lease's end gives it back (``free_slot``:
with the start it took when no request was made), and so does a lost lease (``leases``, as
it gives back its host's, with ``politeness.next_start_after_lost``). A server's gap between
starts is the setting or the smallest delay of its hosts as set and asked by robots.txt
(``politeness.server_delay``), read again when a host joins it or its robots.txt's delay
changes (``refresh_delay``).
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Connection, bindparam, case, select, update

from politecrawl.politeness import HostPace, server_delay
from politecrawl.store.dialects import insert_for
from politecrawl.store.frontier.prepared import Prepared
from politecrawl.store.frontier.values import HostAddress, Lease, ServerSettings, ServerSlot
from politecrawl.store.schema import (
    EpochTime,
    hosts_table as _hosts,
    servers_table as _servers,
    to_epoch,
)

__all__ = [
    "after_lease",
    "free_slot",
    "record_address",
    "refresh_delay",
    "take_slot",
]

_ONE_FEWER = case((_servers.c.in_flight > 0, _servers.c.in_flight - 1), else_=0)

# The server's slot, taken with its host's at claim time (P6). Not when it is full, nor when its
# next start is now after the lease's: a concurrent claim (PostgreSQL, read committed, which
# checks these again on the row it waited for) took it first, and this host is passed over.
_take_slot = Prepared(
    update(_servers)
    .where(
        _servers.c.id == bindparam("server_id"),
        _servers.c.in_flight < _servers.c.max_in_flight,
        _servers.c.next_fetch_at <= bindparam("starts_at", type_=EpochTime()),
    )
    .values(
        in_flight=_servers.c.in_flight + 1,
        next_fetch_at=bindparam("server_next", type_=EpochTime()),
    )
)

# A lease's end: one fewer in flight. A lease that made no request gives back the start it took
# (its lease's start), unless another claim has moved the server's next start since.
_free_slot = Prepared(
    update(_servers).where(_servers.c.id == bindparam("server_id")).values(in_flight=_ONE_FEWER)
)
_free_unused_slot = Prepared(
    update(_servers)
    .where(_servers.c.id == bindparam("server_id"))
    .values(
        in_flight=_ONE_FEWER,
        next_fetch_at=case(
            (
                _servers.c.next_fetch_at == bindparam("taken", type_=EpochTime()),
                bindparam("claimed_at", type_=EpochTime()),
            ),
            else_=_servers.c.next_fetch_at,
        ),
    )
)


def take_slot(connection: Connection, slot: ServerSlot, *, starts_at: float) -> bool:
    """Take ``slot`` (its server's next start is ``slot.next_at``) for a lease starting at
    ``starts_at`` (epoch seconds); False when the server is full or no longer due by then."""
    params = {"server_id": slot.server_id, "starts_at": starts_at, "server_next": slot.next_at}
    return _take_slot.rowcount(connection, params) == 1


def free_slot(connection: Connection, slot: ServerSlot, *, unused_since: datetime | None) -> None:
    """Give back the slot a lease held; ``unused_since``: the lease made no request and started
    then, so the server gets that start back if no claim came after it."""
    if unused_since is None:
        _free_slot.rowcount(connection, {"server_id": slot.server_id})
        return
    params = {"server_id": slot.server_id, "taken": slot.next_at}
    params["claimed_at"] = to_epoch(unused_since)
    _free_unused_slot.rowcount(connection, params)


def record_address(
    connection: Connection,
    host: str,
    address: HostAddress,
    settings: ServerSettings,
    *,
    was_on: int | None,
) -> None:
    """``host`` is at ``address`` (its server, None for an exempt address), as learnt then; the
    server's row is made on first sight; ``was_on``: the host's server before (its gap is read
    again)."""
    server_id = None
    if address.server is not None:
        connection.execute(
            insert_for(connection.dialect.name)(_servers).on_conflict_do_nothing(
                index_elements=["address"]
            ),
            [
                {
                    "address": address.server,
                    "in_flight": 0,
                    "max_in_flight": settings.max_in_flight,
                    "next_fetch_at": address.resolved_at,
                    "delay_seconds": server_delay(
                        settings.delay_seconds, settings.host_delay_seconds, ()
                    ),
                }
            ],
        )
        server_id = connection.execute(
            select(_servers.c.id).where(_servers.c.address == address.server)
        ).scalar_one()
    connection.execute(
        update(_hosts)
        .where(_hosts.c.host == host)
        .values(
            server_id=server_id,
            address=address.address,
            address_resolved_at=address.resolved_at,
        )
    )
    for changed in {server_id, was_on}:
        if changed is not None:
            refresh_delay(connection, changed, settings)


def refresh_delay(connection: Connection, server_id: int, settings: ServerSettings) -> None:
    """The server's gap between starts, read again: the setting, else the smallest delay of
    its hosts as set and asked by robots.txt (``politeness.server_delay``)."""
    if settings.delay_seconds is not None:
        return  # fixed when the row was made
    asked = connection.execute(
        select(_hosts.c.crawl_delay_seconds).where(_hosts.c.server_id == server_id)
    ).scalars()
    gap = server_delay(None, settings.host_delay_seconds, (seconds or 0.0 for seconds in asked))
    connection.execute(update(_servers).where(_servers.c.id == server_id).values(delay_seconds=gap))


def after_lease(
    connection: Connection,
    lease: Lease,
    settings: ServerSettings | None,
    *,
    address: HostAddress | None,
    pace: HostPace | None,
    unused_since: datetime | None,
) -> None:
    """What a lease's end does to servers, after its host's row: its slot given back, the
    host's address recorded when the end brings one, or the server's gap read again when what
    the host's robots.txt asks changed it (its slow-downs and back-offs are its own)."""
    if lease.server is not None:
        free_slot(connection, lease.server, unused_since=unused_since)
    if settings is None:
        return
    was_on = lease.server.server_id if lease.server is not None else None
    if address is not None:
        record_address(connection, lease.host, address, settings, was_on=was_on)
    elif lease.server is not None and pace is not None and settings.delay_seconds is None:
        asked = max(settings.host_delay_seconds, pace.crawl_delay_seconds or 0.0)
        if asked < lease.server.delay_seconds or (
            asked > lease.server.delay_seconds and pace.crawl_delay_seconds is not None
        ):
            refresh_delay(connection, lease.server.server_id, settings)
