"""A host's address, as the crawl learns it: which server its host name is on [P6].

Politeness per server needs a host's server before the host's first request: otherwise a crawl
seeded with many names on one machine would send it as many robots.txt requests at once. So the
first lease of a host whose address was never learnt asks the fetcher where its URL would
connect (``Fetcher.address_of``: the same resolver, ``resolve`` setting and anti-steering guard
as a connection) and gives the lease back with that address, without a request
(``before_first_request``); the next claim of the host takes its server's slot with its own. A
name that does not resolve, or may not be reached, is left to its request to say so, paced as
a host alone. After that, every answer says which address its connection reached
(``FetchResult.peer_address``): when it is another address, or the stored one is older than
``address_max_age_seconds``, the lease's end records it (``seen``), so a host follows its
name's DNS answers (connections are not reused past that age, ``fetch.connect``). An address
in ``server_exempt_networks`` (a CDN's) is recorded with no server. With ``politeness_unit =
"host"`` nothing is learnt.

A request leaves at its lease's start (``wait_to_send``); one whose lease holds a server slot
leaves no sooner than the server's gap after the last request this process sent it. The
claims space the leases' starts by that gap across every process; a thread that wakes late for
its start (a busy machine) would otherwise send its request late and the next one on time,
closer than the gap, and the server's log would show it.
"""

from __future__ import annotations

import threading
from datetime import timedelta
from typing import TYPE_CHECKING

from politecrawl.crawl.visit_result import Ended
from politecrawl.politeness import address_is_stale, exempt_networks, server_of
from politecrawl.store import HostAddress, Lease, ServerSettings, ends

if TYPE_CHECKING:
    from datetime import datetime

    from politecrawl.clock import Clock
    from politecrawl.config import PolitenessSettings
    from politecrawl.fetch import Fetcher, FetchResult


def servers_of(politeness: PolitenessSettings) -> ServerSettings | None:
    """How the frontier paces servers (P6), or None with ``politeness_unit = "host"``."""
    if politeness.politeness_unit != "server":
        return None
    # Never fewer in flight than one host may have: a server with one host name is the host.
    room = max(politeness.max_in_flight_per_server, politeness.max_in_flight_per_host)
    return ServerSettings(room, politeness.server_delay_seconds, politeness.delay_seconds)


class Addresses:
    """Learns hosts' addresses for the visits of a crawl; shared by its worker threads."""

    def __init__(self, politeness: PolitenessSettings, fetcher: Fetcher, clock: Clock) -> None:
        self.enabled = politeness.politeness_unit == "server"
        self.max_age_seconds = politeness.address_max_age_seconds
        self.exempt = exempt_networks(politeness.server_exempt_networks)
        self.fetcher = fetcher
        self.clock = clock
        self._sent: dict[str, datetime] = {}
        self._sending: dict[str, threading.Lock] = {}
        self._lock = threading.Lock()

    def wait_to_send(self, lease: Lease) -> None:
        """Sleep until ``lease``'s request may leave: its start, and with a server slot, one
        server gap after this process's last request to that server left (P2, P6)."""
        slot = lease.server
        if slot is None:
            self.clock.sleep((lease.claimed_at - self.clock.now()).total_seconds())
            return
        with self._lock:
            sending = self._sending.setdefault(slot.server, threading.Lock())
        with sending:  # one request to a server leaves at a time: in the order they wait
            start = lease.claimed_at
            last = self._sent.get(slot.server)
            if last is not None:
                start = max(start, last + timedelta(seconds=slot.delay_seconds))
            self.clock.sleep((start - self.clock.now()).total_seconds())
            self._sent[slot.server] = self.clock.now()

    def before_first_request(self, lease: Lease) -> Ended | None:
        """The lease given back with its host's address, when the host has none yet and its
        name resolves; None otherwise (the visit goes on)."""
        if not self.enabled or lease.address_resolved_at is not None:
            return None
        found = self.fetcher.address_of(lease.url)
        if found is None:
            return None
        address = self._address(*found)
        return Ended(ends.Released(lease, lease.claimed_at, address=address))

    def seen(self, lease: Lease, result: FetchResult) -> HostAddress | None:
        """The address ``result``'s connection reached, when it is news to the crawl
        database: another address than the host's, or the host's grown old; else None."""
        if not self.enabled or result.peer_address is None:
            return None
        now = self.clock.now()
        if result.peer_address == lease.address and not address_is_stale(
            lease.address_resolved_at, now, max_age_seconds=self.max_age_seconds
        ):
            return None
        return self._address(result.peer_address, result.resolved_at or now)

    def _address(self, address: str, resolved_at: datetime) -> HostAddress:
        return HostAddress(address, server_of(address, self.exempt), resolved_at)
