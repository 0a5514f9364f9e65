"""The settings of what a crawl covers and where it keeps what it found: what may be fetched and
how much (``[scope]``, C1, C3), sitemaps (``[sitemaps]``, S1-S3), link checking
(``[checking]``, L1-L4), the crawl database (``[storage]``, C5) and WARC output
(``[archive]``). Each setting has its SPEC default and a docstring, from which the
documentation's configuration reference is written (``docs/_hooks/settings_reference.py``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from politecrawl.config.bounds import COUNT, COUNT_OR_ZERO, DAY_SECONDS, SECONDS

__all__ = [
    "ArchiveSettings",
    "CheckingSettings",
    "ScopeMode",
    "ScopeSettings",
    "SitemapLastmod",
    "SitemapSettings",
    "StorageSettings",
]

ScopeMode = Literal["seeds", "domain", "any"]
SitemapLastmod = Literal["revalidate", "skip"]


@dataclass(frozen=True, slots=True)
class ScopeSettings:
    """[scope]: what may be fetched, and how much (C1, C3)."""

    scope: ScopeMode = "seeds"
    """seeds: only the seeds' origins; domain: their hosts and subdomains; any (C1)."""
    include: tuple[str, ...] = ()
    """Regular expressions; when given, a URL must match one of them (C1)."""
    exclude: tuple[str, ...] = ()
    """Regular expressions; a URL matching one is out of scope (C1)."""
    max_pages: int | None = field(default=None, metadata=COUNT_OR_ZERO)
    """Stop after this many fetched pages (a run limit; the crawl can be resumed)."""
    max_depth: int | None = field(default=None, metadata=COUNT_OR_ZERO)
    """Links further than this from a seed are out of scope (C1)."""
    max_pages_per_host: int | None = field(default=None, metadata=COUNT_OR_ZERO)
    """Fetch at most this many pages per host (C1)."""
    max_duration_seconds: float | None = field(default=None, metadata=SECONDS)
    """Stop claiming new work after this long (a run limit; resumable)."""
    trusted_networks: tuple[str, ...] = ()
    """Private address ranges (CIDR) that links, redirects and host names may lead into."""
    resolve: tuple[str, ...] = ()
    """``HOST:ADDRESS`` answers given before DNS, as curl's --resolve (a staging host, say)."""
    max_url_length: int = field(default=2048, metadata=COUNT)
    """Trap guard: longer URLs are not fetched (C3)."""
    max_path_segments: int = field(default=32, metadata=COUNT)
    """Trap guard: deeper paths are not fetched (C3)."""
    max_repeated_segment: int = field(default=3, metadata=COUNT)
    """Trap guard: a path repeating one segment more often is not fetched (C3)."""
    max_query_bytes: int = field(default=1024, metadata=COUNT)
    """Trap guard: longer query strings are not fetched (C3)."""


@dataclass(frozen=True, slots=True)
class SitemapSettings:
    """[sitemaps]: discovery and limits (S1-S3)."""

    sitemaps: bool = True
    """Read the sitemaps of in-scope origins and queue the URLs they list (S1, S2)."""
    sitemap_guess: bool = True
    """Try <origin>/sitemap.xml when robots.txt names no sitemap (S1)."""
    max_sitemaps_per_origin: int = field(default=50, metadata=COUNT)
    """Sitemap lines of a robots.txt read, in file order (S1)."""
    max_sitemap_nesting: int = field(default=2, metadata=COUNT_OR_ZERO)
    """Sitemap indexes followed below a sitemap named by robots.txt (S2)."""
    max_sitemap_entries: int = field(default=50_000, metadata=COUNT)
    """URLs read from one sitemap file (sitemaps.org's limit, S2)."""
    max_sitemap_bytes: int = field(default=50 * 1024 * 1024, metadata=COUNT)
    """Bytes of one sitemap file read after decompression (sitemaps.org's limit, S2)."""
    sitemap_lastmod: SitemapLastmod = "revalidate"
    """In a recrawl pass, a URL whose sitemap lastmod is older than its last fetch: revalidate
    (a conditional request, as any URL) or skip (no request; the last result stands, S3)."""


@dataclass(frozen=True, slots=True)
class CheckingSettings:
    """[checking]: link checking (L1-L4)."""

    check_outbound: bool = False
    """Links leaving the site are checked once each (HEAD, else GET), never followed (L1, L2)."""
    check_resources: bool = False
    """Images, stylesheets, scripts, frames and media of the pages are checked too (L3)."""
    check_fragments: bool = False
    """``page#section`` links must find that id (or ``<a name>``) on the page (L4)."""
    check_fresh_seconds: float = field(default=DAY_SECONDS, metadata=SECONDS)
    """A recrawl does not check a link again that was checked less than this long ago."""
    check_retries: int = field(default=1, metadata=COUNT_OR_ZERO)
    """A check that failed for a reason worth trying again (429, 500, 502, 503, 504, no answer)
    is tried at most this many times more, never beyond ``max_retries`` (nor, after a time-out,
    ``max_timeout_retries``): a check wants a verdict, not the page, and each further retry of
    a broken link holds the end of a site check for its back-off (C7, L1)."""


@dataclass(frozen=True, slots=True)
class StorageSettings:
    """[storage]: the crawl database and its leases (C5)."""

    database: str = "crawl.db"
    """A SQLite file path, or a SQLAlchemy URL such as postgresql+psycopg://... (C5)."""
    synchronous_full: bool = False
    """SQLite: fsync every commit, so that not even a power cut loses one (slower)."""
    lease_seconds: float = field(default=120.0, metadata=SECONDS)
    """How long a claimed URL stays with its worker before it returns to the queue (C5)."""


@dataclass(frozen=True, slots=True)
class ArchiveSettings:
    """[archive]: WARC output."""

    warc_dir: str | None = None
    """Write every HTTP exchange to WARC files in this directory (``politecrawl.warc``)."""
    warc_max_file_bytes: int = field(default=1 << 30, metadata=COUNT)
    """A WARC file is closed and the next one begun once it is this large."""
