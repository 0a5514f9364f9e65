"""The report's "Servers shared by host names", read from a crawl database [P6]."""

from __future__ import annotations

from politecrawl.report.server_model import SharedServer
from politecrawl.store import Database
from politecrawl.store.reading import shared_servers

__all__ = ["build_shared_servers"]


def build_shared_servers(database: Database) -> tuple[SharedServer, ...]:
    """Every server of the crawl with more than one host name on it, by address."""
    return tuple(
        SharedServer(found.server, found.hosts, found.max_in_flight, found.delay_seconds)
        for found in shared_servers(database)
    )
