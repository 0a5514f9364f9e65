"""The settings of how the crawler behaves toward the servers it asks: who crawls
(``[crawl]``), how gently each host and server is asked (``[politeness]``, P1-P3, P6), how a
page is requested and read (``[fetching]``) and how robots.txt is read, cached and retried
(``[robots]``). Each setting has its SPEC default and a docstring, from which the documentation's
configuration reference is written (``docs/_hooks/settings_reference.py``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from politecrawl._version import VERSION
from politecrawl.config.bounds import COUNT, COUNT_OR_ZERO, DAY_SECONDS, SECONDS, SECONDS_OR_ZERO
from politecrawl.config.robots_values import (
    DEFAULT_SEMANTICS,
    OutcomeSettings,
    RobotsLimits,
    SemanticsName,
)

__all__ = [
    "CrawlSettings",
    "FetchingSettings",
    "PolitenessSettings",
    "PolitenessUnit",
    "Purpose",
    "RobotsSettings",
]

Purpose = Literal["none", "search", "ai-input", "ai-train"]
PolitenessUnit = Literal["server", "host"]


@dataclass(frozen=True, slots=True)
class CrawlSettings:
    """[crawl]: who crawls, and with how many workers."""

    agent: str = "politecrawl"
    """The robot's name token (A1): matched against User-agent lines and robot META names."""
    contact: str | None = None
    """A URL or address where site owners can reach you, sent in the User-Agent (P5)."""
    workers: int = field(default=4, metadata=COUNT)
    """Worker threads in each process of the crawl."""
    processes: int = field(default=1, metadata=COUNT)
    """Processes crawling together (``HelperProcesses``): Python runs one thread at a time per
    process, so a crawl at a short delay needs more than one to use more than one core."""
    purpose: Purpose = "none"
    """What the content is fetched for (U5): none (nothing is withheld), search (a search index),
    ai-input (content given to a model at answer time: RAG, grounding) or ai-train (training or
    fine-tuning). With a purpose, a URL whose robots.txt (Content-Signal, Content-Usage) or
    tdmrep.json (fetched once per origin for ai-input and ai-train) refuses it is not fetched,
    and a page refused by its own headers or metas is recorded as refused and never indexable.
    Every page's signals are recorded whatever the purpose (U6)."""

    @property
    def user_agent(self) -> str:
        """The User-Agent header: the name token as product, with the contact URL (A1, P5)."""
        comment = f" (+{self.contact})" if self.contact else ""
        return f"{self.agent}/{VERSION}{comment}"


@dataclass(frozen=True, slots=True)
class PolitenessSettings:
    """[politeness]: how gently each host is asked (P1-P3)."""

    delay_seconds: float = field(default=1.0, metadata=SECONDS_OR_ZERO)
    """The minimum time between the end of one request to a host and the start of the next (P2)."""
    max_crawl_delay_seconds: float = field(default=60.0, metadata=SECONDS)
    """A host asking for a longer Crawl-delay is not crawled faster: it is deferred (P2)."""
    slowdown_factor: float = field(default=1.0, metadata=SECONDS_OR_ZERO)
    """The delay is at least this multiple of the host's last response time (P3)."""
    max_slowdown_seconds: float = field(default=30.0, metadata=SECONDS)
    """The most a slow response time adds to the delay; a time-out is not a response time (P3)."""
    max_backoff_seconds: float = field(default=600.0, metadata=SECONDS)
    """The longest delay after consecutive failures of a host (exponential back-off, P3)."""
    retry_backoff_seconds: float = field(default=1.0, metadata=SECONDS)
    """A failing page is retried no sooner than this after its failure, doubling per attempt,
    and never right after another failure of its host while it has fresh pages (P3, C7). The
    same as ``robots_retry_seconds`` (O6: about 1 s, doubling); a server in trouble (429, 503,
    time-outs) also slows its whole host, so this is the wait of a page broken on its own."""
    max_in_flight_per_host: int = field(default=1, metadata=COUNT)
    """Requests in flight per host, across all workers and processes (P1)."""
    politeness_unit: PolitenessUnit = "server"
    """server: host names on one address (an IPv6 /64) share its limits below as well as
    keeping their own; host: each host name alone, whatever machine it is on (P6)."""
    max_in_flight_per_server: int = field(default=2, metadata=COUNT)
    """Requests in flight to one server (an IP address, an IPv6 /64), across every host name
    on it, worker and process; never fewer than ``max_in_flight_per_host`` (P6)."""
    server_delay_seconds: float | None = field(default=None, metadata=SECONDS_OR_ZERO)
    """The minimum time between the starts of two requests to one server; empty: the smallest
    delay of the hosts on it (``delay_seconds``, or a longer Crawl-delay or Request-rate; their
    slow-downs and back-offs are their own), so a server with one host name paces it as before
    (P6)."""
    server_exempt_networks: tuple[str, ...] = ()
    """Networks (CIDR) whose addresses are not one server: a large CDN's, where one address
    fronts unrelated sites. Their hosts keep their own pace only (P6)."""
    address_max_age_seconds: float = field(default=300.0, metadata=SECONDS)
    """A host name is resolved again when its address was learnt longer ago than this (the
    system resolver does not tell a DNS answer's lifetime; its cache honours it, P6)."""
    slot_at_response: bool = False
    """Give a host's slot to its next URL as soon as a response has been read, while the page
    is still being read and recorded, when a worker waits for it (one request in flight and
    the delay still hold, P1, P2). Off by default: it costs a second transaction and a thread
    hand-off a page, which on a 2-core machine made a one-host crawl slower, not faster."""


@dataclass(frozen=True, slots=True)
class FetchingSettings:
    """[fetching]: how a page is requested and read (C4, C7, T6)."""

    connect_timeout_seconds: float = field(default=10.0, metadata=SECONDS)
    """Time-out for opening a connection (C7)."""
    response_timeout_seconds: float = field(default=30.0, metadata=SECONDS)
    """Time-out for a whole response: a server trickling bytes is cut off (C7)."""
    max_body_bytes: int = field(default=10 * 1024 * 1024, metadata=COUNT)
    """Bytes of a body kept after decompression; the rest is cut off and recorded (C7)."""
    max_retries: int = field(default=3, metadata=COUNT_OR_ZERO)
    """Retries of a page after a temporary failure, with back-off (C7, P3)."""
    max_timeout_retries: int = field(default=1, metadata=COUNT_OR_ZERO)
    """A page that timed out is retried only while it has failed fewer times than this (failures
    of any kind count; never beyond ``max_retries``): each attempt that times out holds its
    host's one request in flight for a whole time-out, its other pages waiting (P1, P3)."""
    max_redirects: int = field(default=10, metadata=COUNT_OR_ZERO)
    """Redirect hops followed from one URL (C4)."""
    honour_rel_nofollow: bool = True
    """Links with rel=nofollow are not followed (T6)."""


@dataclass(frozen=True, slots=True)
class RobotsSettings:
    """[robots]: how robots.txt is read, cached and retried (M6, O5-O8, E2, E4)."""

    semantics: SemanticsName = DEFAULT_SEMANTICS
    """How robots.txt is read: strict fetches only what both the 1996 draft and RFC 9309 allow
    (M7, the default); draft or rfc9309 reads it one way alone (M6)."""
    robots_max_bytes: int = field(default=RobotsLimits().max_bytes, metadata=COUNT)
    """Octets of robots.txt read; the rest is ignored (O8)."""
    robots_max_redirects: int = field(default=5, metadata=COUNT_OR_ZERO)
    """Redirect hops followed for robots.txt (O7)."""
    robots_min_lifetime_seconds: float = field(default=1.0, metadata=SECONDS)
    """The shortest cache lifetime a robots.txt gets (E2)."""
    robots_max_lifetime_seconds: float = field(default=7 * DAY_SECONDS, metadata=SECONDS)
    """The longest cache lifetime, whatever the headers say (E2); also the default."""
    robots_denied_lifetime_seconds: float = field(default=DAY_SECONDS, metadata=SECONDS)
    """How long a 401/403 (whole origin disallowed) is cached (E4)."""
    robots_retry_seconds: float = field(default=1.0, metadata=SECONDS_OR_ZERO)
    """Wait after the first temporary failure of robots.txt, doubling after each (O6)."""
    robots_max_attempts: int = field(default=4, metadata=COUNT)
    """Attempts at an unreachable robots.txt in one run; then the origin stays deferred (O6)."""
    unauthorized_means_allowed: bool = False
    """Read 401/403 as RFC 9309 does (no restrictions) instead of the draft (all disallowed, O5)."""

    @property
    def outcome_settings(self) -> OutcomeSettings:
        """What ``politecrawl.robots.outcome`` needs of these settings."""
        return OutcomeSettings(
            min_lifetime_seconds=self.robots_min_lifetime_seconds,
            max_lifetime_seconds=self.robots_max_lifetime_seconds,
            denied_lifetime_seconds=self.robots_denied_lifetime_seconds,
            retry_seconds=self.robots_retry_seconds,
            max_attempts=self.robots_max_attempts,
            unauthorized_means_allowed=self.unauthorized_means_allowed,
        )
