"""How a lease ends, as values: one kind per end, and ``LeaseEnd``, their union [C5, O6, P3, S1].

A lease ends in one of six ways, and ``Frontier.record`` is the one way to record any of them
(with the worker's next claim, in the same transaction, when asked):

- ``Completed``: a response, with what it brings (links, a redirect's target, a sitemap's
  listing);
- ``Failed``: no usable response; retried at ``retry_at`` (the URL is deferred), or final;
- ``Deferred``: put aside until a time (robots.txt unreachable, O6), with, optionally, every
  queued URL of its origin;
- ``Released``: given back to the queue without counting an attempt (robots.txt went first,
  or the host's server was learnt first, P6);
- ``Kept``: not fetched in this pass, its last result stands (S3, L1);
- ``Excluded``: never fetched in this pass, and why (robots line, scope rule, trap).

And one value that ends the host's part of a lease before the lease: ``Answered``, the slot
given back as soon as the response has been read, so that the host's next request need not wait
for the page to be parsed and recorded (the lease then ends ``Completed`` with ``slot_freed``).

Each carries the host's next start where a request was made (``next_fetch_at``; None: none
was, the host gets back the slot it was due at) and, after a response or failure, its pace.
Pure values: what they write is ``outcomes``' business.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeAlias

from politecrawl.politeness import HostPace
from politecrawl.sitemaps import SitemapReading, SitemapSeed
from politecrawl.store.frontier.values import FoundLink, HostAddress, Lease
from politecrawl.store.schema import LEASED, QUEUED, URL_STATES
from politecrawl.usage import Signal

__all__ = [
    "Answered",
    "Completed",
    "Deferred",
    "Excluded",
    "Failed",
    "Kept",
    "LeaseEnd",
    "OriginDeferral",
    "PageOutcome",
    "Released",
]


@dataclass(frozen=True, slots=True)
class PageOutcome:
    """What a finished fetch found, recorded on the URL's row."""

    status: int | None
    final_url: str | None = None
    content_type: str | None = None
    etag: str | None = None
    last_modified: str | None = None
    content_hash: str | None = None
    noindex: bool | None = None
    nofollow: bool | None = None
    canonical_url: str | None = None
    """The page's rel=canonical (S4)."""
    anchors: frozenset[str] | None = None
    """With fragment checking: the page's ids and ``<a name>``s (L4)."""
    check_method: str | None = None
    """For a check: HEAD, or HEAD,GET (L2)."""
    kind: str | None = None
    """The URL's kind from now on, when the visit changed it (a link leaving the site became a
    check, L1)."""
    elapsed_seconds: float | None = None
    size_bytes: int | None = None
    error: str | None = None
    use_signals: tuple[Signal, ...] | None = None
    """The use-preference signals that applied when it was read, with their sources (U6);
    None: not read anew (a check, a sitemap, a 304), what was recorded before stands."""
    use_refused: bool | None = None
    """With a crawl purpose: whether those signals refused it (U5); None without one."""


@dataclass(frozen=True, slots=True)
class Completed:
    """A response, everything the frontier records of it in one transaction: its outcome, its
    host's next start and pace, its links, the redirect's target, a sitemap's listing."""

    lease: Lease
    outcome: PageOutcome
    next_fetch_at: datetime
    host_pace: HostPace | None = None
    links: tuple[FoundLink, ...] = ()
    follow_links: bool = True
    """Links are recorded (for reports) whether followed or not; only followable ones (this,
    and no rel=nofollow) are queued, one level deeper."""
    redirect_to: str | None = None
    sitemap: SitemapReading | None = None
    """For a sitemap: what reading it gave (its pages and sitemaps are queued, S2)."""
    redirect_sitemap: SitemapSeed | None = None
    """For a sitemap that redirects: its target, read as the same sitemap."""
    address: HostAddress | None = None
    """The host's address as this response's connection learnt it, when it is news: another
    address, or the stored one grown old (P6)."""
    slot_freed: bool = False
    """The host's (and server's) slot was freed when the response had been read
    (``Answered``): this end records the URL's row alone."""


@dataclass(frozen=True, slots=True)
class Failed:
    """A failed attempt, at ``at``: retried at ``retry_at`` (deferred), or final when it is None.

    A URL to retry goes behind the fresh URLs of its depth (its priority becomes its number
    of attempts), and after a failure of its host behind every fresh URL of the host: the
    failing URLs of a host are not tried back to back while its healthy pages wait (P3).
    ``kind``: what the URL is from now on (L1); ``check_method``: how a check asked (L2)."""

    lease: Lease
    error: str
    at: datetime
    next_fetch_at: datetime
    retry_at: datetime | None = None
    status: int | None = None
    host_pace: HostPace | None = None
    kind: str | None = None
    check_method: str | None = None


@dataclass(frozen=True, slots=True)
class OriginDeferral:
    """Every queued URL of an origin put aside (its robots.txt is unreachable, O6)."""

    origin: str
    until: datetime | None
    reason: str
    detail: Any = None


@dataclass(frozen=True, slots=True)
class Deferred:
    """The URL put aside until ``until`` (robots.txt unreachable, O6; Retry-After, P3);
    ``until=None``: not in this run (a resumed run brings it back).
    ``origin_deferred``: every queued URL of the origin with it (O6)."""

    lease: Lease
    until: datetime | None
    reason: str
    detail: dict[str, Any] | None = None
    next_fetch_at: datetime | None = None
    origin_deferred: OriginDeferral | None = None


@dataclass(frozen=True, slots=True)
class Released:
    """The URL given back to the queue without counting an attempt (robots.txt first).
    ``sitemaps``: the origin's sitemaps its robots.txt named, queued with the release (S1);
    robots.txt itself was recorded just before, by the gate: should the crawl die in between,
    the next run queues what it missed (``RobotsOutcomeStore.without_sitemaps``)."""

    lease: Lease
    next_fetch_at: datetime
    sitemaps: tuple[SitemapSeed, ...] = ()
    address: HostAddress | None = None
    """The host's address, learnt before its first request (P6): the next claim takes its
    server's slot."""


@dataclass(frozen=True, slots=True)
class Kept:
    """Not fetched in this pass, its last result stands (S3: its sitemap says it has not
    changed since; L1: a check made lately); the host gets back its slot."""

    lease: Lease
    reason: str


@dataclass(frozen=True, slots=True)
class Excluded:
    """Never fetched in this pass, and why: ``state`` (a final one), ``reason``, ``detail``.
    ``kind``: what the URL is from now on (a link leaving the site is a check, L1)."""

    lease: Lease
    state: str
    reason: str
    detail: dict[str, Any] | None = None
    next_fetch_at: datetime | None = None
    kind: str | None = None

    def __post_init__(self) -> None:
        if self.state not in URL_STATES or self.state in (QUEUED, LEASED):
            raise ValueError(f"not a final state: {self.state!r}")


@dataclass(frozen=True, slots=True)
class Answered:
    """Not an end: the lease's response has been read, so its host's (and server's) slot is
    free for the next request, with ``host_pace``, while the page is still being read and
    recorded; the lease ends later with a ``Completed`` whose ``slot_freed`` is set. The one
    request in flight per host holds (the next starts after this one's response); a crawl
    killed in between fetches this URL again, as any lease in flight (C5, P1)."""

    lease: Lease
    host_pace: HostPace
    address: HostAddress | None = None


LeaseEnd: TypeAlias = Completed | Failed | Deferred | Released | Kept | Excluded | Answered
"""What ``Frontier.record`` takes: any end of a lease, or ``Answered``, its slot freed early."""
