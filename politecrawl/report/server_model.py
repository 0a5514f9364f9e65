"""The report's "Servers shared by host names" as values [P6]: each machine that served more
than one host name of the crawl, and the pace they shared.

``politecrawl.report.servers.build_shared_servers`` fills them from a crawl database; they are
the ``shared_servers`` field of a ``Report``. Pure: no I/O, no clock.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class SharedServer:
    """A server (an address, an IPv6 /64) and the host names the crawl found on it."""

    server: str
    hosts: tuple[str, ...]
    """By name."""
    max_in_flight: int
    """Requests in flight it allowed, across all of them."""
    delay_seconds: float
    """Its gap between the starts of two requests."""
