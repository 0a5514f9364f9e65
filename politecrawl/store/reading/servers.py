"""Servers as the reports and ``why`` show them: which host names share a machine, and its
pace [P6]."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Connection, func, select
from sqlalchemy.sql.elements import ColumnElement

from politecrawl.store.database import Database
from politecrawl.store.schema import hosts_table as _hosts, servers_table as _servers

__all__ = ["ServerHosts", "server_of_host", "shared_servers"]


@dataclass(frozen=True, slots=True)
class ServerHosts:
    """A server (an address, an IPv6 /64) and the host names on it, with its pace."""

    server: str
    hosts: tuple[str, ...]
    """By name."""
    in_flight: int
    max_in_flight: int
    delay_seconds: float
    """Its gap between the starts of two requests."""
    next_fetch_at: datetime


def shared_servers(database: Database) -> list[ServerHosts]:
    """Every server with more than one host name on it, by address."""
    with database.engine.connect() as connection:
        shared = (
            select(_hosts.c.server_id)
            .where(_hosts.c.server_id.is_not(None))
            .group_by(_hosts.c.server_id)
            .having(func.count() > 1)
        )
        return _servers_of(connection, _servers.c.id.in_(shared))


def server_of_host(database: Database, host: str) -> ServerHosts | None:
    """The server ``host`` is on, with every host name on it; None when not known (P6: before
    its first request, politeness per host, or an exempt address)."""
    with database.engine.connect() as connection:
        on = select(_hosts.c.server_id).where(_hosts.c.host == host).scalar_subquery()
        found = _servers_of(connection, _servers.c.id == on)
    return found[0] if found else None


def _servers_of(connection: Connection, which: ColumnElement[bool]) -> list[ServerHosts]:
    rows = connection.execute(
        select(
            _servers.c.id,
            _servers.c.address,
            _servers.c.in_flight,
            _servers.c.max_in_flight,
            _servers.c.delay_seconds,
            _servers.c.next_fetch_at,
        )
        .where(which)
        .order_by(_servers.c.address)
    ).all()
    names: dict[int, list[str]] = {}
    for server_id, host in connection.execute(
        select(_hosts.c.server_id, _hosts.c.host)
        .where(_hosts.c.server_id.in_([row.id for row in rows]))
        .order_by(_hosts.c.host)
    ):
        names.setdefault(server_id, []).append(host)
    return [
        ServerHosts(
            row.address,
            tuple(names.get(row.id, ())),
            row.in_flight,
            row.max_in_flight,
            row.delay_seconds,
            row.next_fetch_at,
        )
        for row in rows
    ]
