"""Crawl settings: one frozen dataclass, every setting with its SPEC default and a docstring.

``CrawlConfig`` is what the library takes and what the command line builds (flags > environment
> file > defaults, issue 5). ``validate()`` names the setting that is impossible (B1).
"""

from __future__ import annotations

import dataclasses
import ipaddress
import math
from dataclasses import dataclass, field
from typing import Literal

from politecrawl._version import VERSION
from politecrawl.errors import UserInputError

Semantics = Literal["strict", "draft", "rfc9309"]
SEMANTICS_CHOICES: tuple[Semantics, ...] = ("strict", "draft", "rfc9309")
ScopeMode = Literal["seeds", "domain", "any"]
SitemapLastmod = Literal["revalidate", "skip"]
DAY_SECONDS = 86_400.0


class ConfigError(UserInputError):
    """An impossible or unknown setting; names the key and, when known, the file."""


@dataclass(frozen=True, slots=True)
class CrawlConfig:
    """Everything a crawl can be told. Defaults are the polite ones of SPEC.md."""

    agent: str = "politecrawl"
    """The robot's name token (A1): matched against User-agent lines and robot META names."""
    contact: str | None = None
    """A URL or address where site owners can reach you, sent in the User-Agent (P5)."""
    database: str = "crawl.db"
    """A SQLite file path, or a SQLAlchemy URL such as postgresql+psycopg://... (C5)."""
    semantics: Semantics = "strict"
    """How robots.txt is read: strict fetches only what both the 1996 draft and RFC 9309 allow
    (M7, the default); draft or rfc9309 reads it one way alone (M6)."""

    # --- politeness -------------------------------------------------------------------------
    delay_seconds: float = 1.0
    """The minimum time between the end of one request to a host and the start of the next (P2)."""
    max_crawl_delay_seconds: float = 60.0
    """A host asking for a longer Crawl-delay is not crawled faster: it is deferred (P2)."""
    slowdown_factor: float = 1.0
    """The delay is at least this multiple of the host's last response time (P3)."""
    max_slowdown_seconds: float = 30.0
    """The most a slow response time adds to the delay; a time-out is not a response time (P3)."""
    max_backoff_seconds: float = 600.0
    """The longest delay after consecutive failures of a host (exponential back-off, P3)."""
    retry_backoff_seconds: float = 2.0
    """A failing page is retried this long after its failure, doubling per attempt (P3, C7)."""
    max_in_flight_per_host: int = 1
    """Requests in flight per host, across all workers and processes (P1)."""
    workers: int = 4
    """Worker threads in each process of the crawl."""
    processes: int = 1
    """Processes crawling together (``HelperProcesses``): Python runs one thread at a time per
    process, so a crawl at a short delay needs more than one to use more than one core."""
    lease_seconds: float = 120.0
    """How long a claimed URL stays with its worker before it returns to the queue (C5)."""

    # --- scope and limits -------------------------------------------------------------------
    scope: ScopeMode = "seeds"
    """seeds: only the seeds' origins; domain: their hosts and subdomains; any (C1)."""
    include: tuple[str, ...] = ()
    """Regular expressions; when given, a URL must match one of them (C1)."""
    exclude: tuple[str, ...] = ()
    """Regular expressions; a URL matching one is out of scope (C1)."""
    max_pages: int | None = None
    """Stop after this many fetched pages (a run limit; the crawl can be resumed)."""
    max_depth: int | None = None
    """Links further than this from a seed are out of scope (C1)."""
    max_pages_per_host: int | None = None
    """Fetch at most this many pages per host (C1)."""
    max_duration_seconds: float | None = None
    """Stop claiming new work after this long (a run limit; resumable)."""
    trusted_networks: tuple[str, ...] = ()
    """Private address ranges (CIDR) that links, redirects and host names may lead into."""
    resolve: tuple[str, ...] = ()
    """``HOST:ADDRESS`` answers given before DNS, as curl's --resolve (a staging host, say)."""
    max_url_length: int = 2048
    """Trap guard: longer URLs are not fetched (C3)."""
    max_path_segments: int = 32
    """Trap guard: deeper paths are not fetched (C3)."""
    max_repeated_segment: int = 3
    """Trap guard: a path repeating one segment more often is not fetched (C3)."""
    max_query_bytes: int = 1024
    """Trap guard: longer query strings are not fetched (C3)."""

    # --- fetching ---------------------------------------------------------------------------
    connect_timeout_seconds: float = 10.0
    """Time-out for opening a connection (C7)."""
    response_timeout_seconds: float = 30.0
    """Time-out for a whole response: a server trickling bytes is cut off (C7)."""
    max_body_bytes: int = 10 * 1024 * 1024
    """Bytes of a body kept after decompression; the rest is cut off and recorded (C7)."""
    max_retries: int = 3
    """Retries of a page after a temporary failure, with back-off (C7, P3)."""
    max_redirects: int = 10
    """Redirect hops followed from one URL (C4)."""
    honour_rel_nofollow: bool = True
    """Links with rel=nofollow are not followed (T6)."""

    # --- robots.txt -------------------------------------------------------------------------
    robots_max_bytes: int = 512 * 1024
    """Octets of robots.txt read; the rest is ignored (O8)."""
    robots_max_redirects: int = 5
    """Redirect hops followed for robots.txt (O7)."""
    robots_min_lifetime_seconds: float = 1.0
    """The shortest cache lifetime a robots.txt gets (E2)."""
    robots_max_lifetime_seconds: float = 7 * DAY_SECONDS
    """The longest cache lifetime, whatever the headers say (E2); also the default."""
    robots_denied_lifetime_seconds: float = DAY_SECONDS
    """How long a 401/403 (whole origin disallowed) is cached (E4)."""
    robots_retry_seconds: float = 1.0
    """Wait after the first temporary failure of robots.txt, doubling after each (O6)."""
    robots_max_attempts: int = 4
    """Attempts at an unreachable robots.txt in one run; then the origin stays deferred (O6)."""
    unauthorized_means_allowed: bool = False
    """Read 401/403 as RFC 9309 does (no restrictions) instead of the draft (all disallowed, O5)."""

    # --- sitemaps ---------------------------------------------------------------------------
    sitemaps: bool = True
    """Read the sitemaps of in-scope origins and queue the URLs they list (S1, S2)."""
    sitemap_guess: bool = True
    """Try <origin>/sitemap.xml when robots.txt names no sitemap (S1)."""
    max_sitemaps_per_origin: int = 50
    """Sitemap lines of a robots.txt read, in file order (S1)."""
    max_sitemap_nesting: int = 2
    """Sitemap indexes followed below a sitemap named by robots.txt (S2)."""
    max_sitemap_entries: int = 50_000
    """URLs read from one sitemap file (sitemaps.org's limit, S2)."""
    max_sitemap_bytes: int = 50 * 1024 * 1024
    """Bytes of one sitemap file read after decompression (sitemaps.org's limit, S2)."""
    sitemap_lastmod: SitemapLastmod = "revalidate"
    """In a recrawl pass, a URL whose sitemap lastmod is older than its last fetch: revalidate
    (a conditional request, as any URL) or skip (no request; the last result stands, S3)."""

    # --- link checking ------------------------------------------------------------------------
    check_outbound: bool = False
    """Links leaving the site are checked once each (HEAD, else GET), never followed (L1, L2)."""
    check_resources: bool = False
    """Images, stylesheets, scripts, frames and media of the pages are checked too (L3)."""
    check_fragments: bool = False
    """``page#section`` links must find that id (or ``<a name>``) on the page (L4)."""
    check_fresh_seconds: float = DAY_SECONDS
    """A recrawl does not check a link again that was checked less than this long ago."""

    # --- storage ----------------------------------------------------------------------------
    synchronous_full: bool = False
    """SQLite: fsync every commit, so that not even a power cut loses one (slower)."""

    # --- archive ----------------------------------------------------------------------------
    warc_dir: str | None = None
    """Write every HTTP exchange to WARC files in this directory (``politecrawl.warc``)."""
    warc_max_file_bytes: int = 1 << 30
    """A WARC file is closed and the next one begun once it is this large."""

    extra: dict[str, str] = field(default_factory=dict, compare=False)
    """Reserved for front ends (e.g. the configuration file a run came from)."""

    @property
    def user_agent(self) -> str:
        """The User-Agent header: the name token as product, with the contact URL (A1, P5)."""
        comment = f" (+{self.contact})" if self.contact else ""
        return f"{self.agent}/{VERSION}{comment}"

    def replace(self, **changes: object) -> CrawlConfig:
        """A copy with some settings changed, validated."""
        return dataclasses.replace(self, **changes).validate()  # type: ignore[arg-type]

    def validate(self) -> CrawlConfig:
        """Return self, or raise ``ConfigError`` naming the first impossible setting (B1)."""
        if not self.agent or not self.agent.replace("-", "").replace("_", "").isalnum():
            _fail("agent", f"{self.agent!r} is not a name token (letters, digits, - and _)")
        non_negative = ("delay_seconds", "slowdown_factor", "robots_retry_seconds")
        for name in non_negative:
            value = getattr(self, name)
            if not math.isfinite(value) or value < 0:
                _fail(name, f"must be a number of seconds >= 0, not {value!r}")
        positive_numbers = (
            "max_crawl_delay_seconds",
            "max_slowdown_seconds",
            "max_backoff_seconds",
            "retry_backoff_seconds",
            "lease_seconds",
            "connect_timeout_seconds",
            "response_timeout_seconds",
            "robots_min_lifetime_seconds",
            "robots_max_lifetime_seconds",
            "robots_denied_lifetime_seconds",
            "check_fresh_seconds",
        )
        for name in positive_numbers:
            value = getattr(self, name)
            if not math.isfinite(value) or value <= 0:
                _fail(name, f"must be a number of seconds > 0, not {value!r}")
        positive_counts = (
            "workers",
            "processes",
            "warc_max_file_bytes",
            "max_in_flight_per_host",
            "max_body_bytes",
            "robots_max_bytes",
            "robots_max_attempts",
            "max_url_length",
            "max_path_segments",
            "max_repeated_segment",
            "max_query_bytes",
            "max_sitemaps_per_origin",
            "max_sitemap_entries",
            "max_sitemap_bytes",
        )
        for name in positive_counts:
            if getattr(self, name) < 1:
                _fail(name, f"must be at least 1, not {getattr(self, name)!r}")
        for name in ("max_retries", "max_redirects", "robots_max_redirects", "max_sitemap_nesting"):
            if getattr(self, name) < 0:
                _fail(name, f"must be 0 or more, not {getattr(self, name)!r}")
        for name in ("max_pages", "max_depth", "max_pages_per_host"):
            value = getattr(self, name)
            if value is not None and value < 0:
                _fail(name, f"must be 0 or more, not {value!r}")
        if self.processes > 1 and self.max_pages_per_host is not None:
            # Each process counts a host's pages itself: shared out, a process whose share is
            # 0 would exclude the host's every URL it claims.
            _fail("processes", "cannot be combined with max_pages_per_host (use one process)")
        duration = self.max_duration_seconds
        if duration is not None and (not math.isfinite(duration) or duration <= 0):
            _fail("max_duration_seconds", f"must be a number of seconds > 0, not {duration!r}")
        if self.robots_min_lifetime_seconds > self.robots_max_lifetime_seconds:
            _fail("robots_min_lifetime_seconds", "is longer than robots_max_lifetime_seconds")
        for pair in self.resolve:
            host, colon, address = pair.partition(":")
            if not colon or not host or not _is_ip(address):
                _fail("resolve", f"{pair!r} is not HOST:ADDRESS (e.g. staging.example:10.0.0.5)")
        if self.semantics not in SEMANTICS_CHOICES:
            _fail("semantics", f"must be strict, draft or rfc9309, not {self.semantics!r}")
        if self.sitemap_lastmod not in ("revalidate", "skip"):
            _fail("sitemap_lastmod", f"must be revalidate or skip, not {self.sitemap_lastmod!r}")
        if self.scope not in ("seeds", "domain", "any"):
            _fail("scope", f"must be seeds, domain or any, not {self.scope!r}")
        return self


def _is_ip(text: str) -> bool:
    try:
        ipaddress.ip_address(text.strip("[]"))
    except ValueError:
        return False
    return True


def _fail(key: str, message: str) -> None:
    raise ConfigError(f"setting {key}: {message}")
