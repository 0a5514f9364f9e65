"""What the frontier hands out and takes back: frozen values, never database rows (STYLE 7)."""

from __future__ import annotations

import os
import socket
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol, TypeAlias

from politecrawl.politeness import HostPace

Now: TypeAlias = datetime | Callable[[], datetime]
"""The time of a claim: a moment, or what tells it (a clock's ``now``). A function is asked
when the claim runs, inside its write transaction (on SQLite, once it holds the write lock): a
claim that waited for the lock then sees the hosts that came due meanwhile, rather than those
due when it asked (P2: served on time)."""


def moment(now: Now) -> datetime:
    """The time ``now`` stands for, read at this moment when it is a function."""
    return now() if callable(now) else now


@dataclass(frozen=True, slots=True)
class ServerSettings:
    """How servers are paced (P6), from the ``[politeness]`` settings: requests in flight per
    server, and the gap between starts (None: its hosts' smallest delay, ``host_delay_seconds``
    or a longer one robots.txt asks)."""

    max_in_flight: int = 2
    delay_seconds: float | None = None
    host_delay_seconds: float = 1.0
    """A host's configured delay (``delay_seconds``): a server's gap by default is its hosts'
    smallest, or a longer Crawl-delay (``politeness.server_delay``)."""


@dataclass(frozen=True, slots=True)
class ServerSlot:
    """The slot a lease holds on its host's server (P6), given back at the lease's end."""

    server_id: int
    server: str
    """The server: an address, or an IPv6 /64."""
    next_at: float
    """The server's next start as the claim set it, in epoch seconds (the lease's end gives
    back its start only if no later claim moved it)."""
    delay_seconds: float
    """The server's gap between starts when the lease was claimed."""


@dataclass(frozen=True, slots=True)
class HostAddress:
    """A host's address as the crawl learnt it (P6): ``server`` is what
    ``politeness.server_of`` made of it (None: in an exempt network, no server)."""

    address: str
    server: str | None
    resolved_at: datetime


@dataclass(frozen=True, slots=True)
class Lease:
    """A URL claimed by one worker until ``expires_at``."""

    url_id: int
    url: str
    origin: str
    host: str
    depth: int
    attempts: int
    """Fetch attempts before this one."""
    owner: str
    expires_at: datetime
    pass_number: int
    claimed_at: datetime
    """When the lease starts: the host is due then (its politeness window has passed). No
    request of the lease may start before it. A claim made with ``ahead_seconds`` may return a
    lease that starts up to that much after the claim; otherwise it starts when claimed."""
    redirect_hops: int = 0
    etag: str | None = None
    last_modified: str | None = None
    host_error_streak: int = 0
    """The host's consecutive failed requests when the lease was claimed (P3)."""
    referrer_id: int | None = None
    """The URL whose link or redirect led here (None for a seed)."""
    referrer: str | None = None
    """That URL itself: the anti-steering guard's question is where a URL came from."""
    kind: str = "page"
    """``page`` or ``sitemap``: how the body is read (S1)."""
    status: int | None = None
    """The status of the URL's last fetch (an earlier pass), if any."""
    fetched_at: datetime | None = None
    """When it was last fetched (an earlier pass), if ever."""
    sitemap_lastmod: datetime | None = None
    """The newest ``lastmod`` a sitemap gave for it (S3)."""
    server: ServerSlot | None = None
    """The server slot the lease holds (P6): None when its host's server is not known, or
    politeness is per host only."""
    address: str | None = None
    """The host's address when the lease was claimed (P6), if known."""
    address_resolved_at: datetime | None = None
    """When the host's address was learnt (None: never; P6)."""


@dataclass(frozen=True, slots=True)
class Wait:
    """No URL is ready: try again at ``until``; ``until is None`` means the frontier is empty."""

    until: datetime | None
    reason: str


@dataclass(frozen=True, slots=True)
class AddResult:
    """What ``add`` did with the URLs it was given."""

    added: int
    known: int
    """Already in the frontier (in any state): never fetched twice in a pass (C2)."""
    invalid: tuple[tuple[str, str], ...] = ()
    """``(url, reason)`` for URLs that are not crawlable URLs."""


def pace_columns(pace: HostPace) -> dict[str, object]:
    """The ``hosts`` columns a host's pace sets, and their values (its next start is written
    apart: a lease's end may keep a later one, ``statements.free_host``)."""
    return {
        "delay_seconds": pace.delay_seconds,
        "error_streak": pace.error_streak,
        "backoff_seconds": pace.backoff_seconds,
        "last_response_seconds": pace.last_response_seconds,
        "retry_after_until": pace.retry_after_until,
        "wait_reason": pace.wait_reason,
        "crawl_delay_seconds": pace.crawl_delay_seconds,
    }


class FoundLink(Protocol):
    """What the frontier reads of a link found on a page: ``LinkOut``, or any value with the
    same attributes (the crawler hands over ``links.Link`` as it is, one object less a link)."""

    @property
    def url(self) -> str: ...
    @property
    def nofollow(self) -> bool: ...
    @property
    def canonical(self) -> bool: ...
    @property
    def text(self) -> str | None: ...
    @property
    def line(self) -> int | None: ...
    @property
    def resource(self) -> bool: ...
    @property
    def fragments(self) -> tuple[str, ...]: ...


@dataclass(frozen=True, slots=True)
class LinkOut:
    """A link found on a page: its URL (any form) and whether it carried rel=nofollow, with
    what link checking records of it (text, line, resource, fragments).
    ``canonical``: the URL is already in canonical form (``links.extract_links`` makes it so),
    so the frontier does not canonicalise it a second time."""

    url: str
    nofollow: bool = False
    canonical: bool = False
    text: str | None = None
    """The link's text, for reports (L1)."""
    line: int | None = None
    """The line of the linking element."""
    resource: bool = False
    """An image, stylesheet, script or media source: queued as a check, never a page (L3)."""
    fragments: tuple[str, ...] = ()
    """The ``#fragments`` linked to on the target (L4)."""


@dataclass(frozen=True, slots=True)
class Recorded:
    """What ``Frontier.record`` did: whether the end was recorded (False: the lease had been
    lost, nothing written) and, when a next claim was asked for, its lease or wait."""

    recorded: bool
    following: Lease | Wait | None = None


@dataclass(frozen=True, slots=True)
class FrontierStats:
    """Counts for progress displays and ``politecrawl status``."""

    by_state: dict[str, int]
    by_host: dict[str, dict[str, int]] = field(default_factory=dict)
    robots_outcomes: dict[str, int] = field(default_factory=dict)
    next_ready_at: datetime | None = None

    @property
    def total(self) -> int:
        """Every URL the frontier knows."""
        return sum(self.by_state.values())


def worker_id(name: str = "") -> str:
    """A lease owner name: host name, process id and an optional per-thread suffix."""
    return f"{socket.gethostname()}:{os.getpid()}" + (f":{name}" if name else "")
