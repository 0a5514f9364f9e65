"""The sitemap audit as values (S4): each sitemap and what reading it found, and how the crawl
and the sitemaps disagree.

``politecrawl.report.sitemaps.build_sitemap_audit`` fills a ``SitemapAudit`` from a crawl
database; it is the ``sitemaps`` field of a ``Report``. Pure: no I/O, no clock. Every tuple is
in a stable order (by URL, then sitemap), so two audits of one database are equal.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime

SITEMAP_OUTCOMES = ("read", "redirected", "failed", "absent", "not fetched", "waiting")
"""What became of a sitemap: read (2xx, or 304 on a recrawl); redirected (its target is a
sitemap of its own); failed (non-2xx, a fetch error, or nothing readable); absent (a guessed
/sitemap.xml that answered 404 or 410: the site has none there, which is no fault); not fetched
(robots.txt or scope refused it); waiting (queued or deferred)."""

LISTED_PROBLEMS: Mapping[str, str] = {
    "broken": "broken",
    "redirected": "redirected",
    "noindex": "noindex",
    "disallowed": "disallowed by robots.txt",
    "out_of_scope": "out of scope",
    "not_canonical": "not canonical",
}
"""What can be wrong with a listed URL (key), and how people read it (value), in the order a
URL's problems are listed."""

LASTMOD_PROBLEMS: Mapping[str, str] = {
    "future": "lastmod in the future",
    "malformed": "malformed lastmod",
}


@dataclass(frozen=True, slots=True)
class SitemapRead:
    """One sitemap of the crawl: why it was read and what reading it found (S1, S2)."""

    url: str
    source: str
    """robots (a Sitemap line), guess (/sitemap.xml), index (a sitemap index); "" if unknown."""
    named_by: str
    """Where it was named: the robots.txt, or the index that lists it ("" for a guess)."""
    for_origin: str
    nesting: int
    outcome: str
    """One of ``SITEMAP_OUTCOMES``."""
    reason: str
    """Why it failed, was not fetched, waits or redirects; "" for a sitemap read."""
    status: int | None
    format: str | None
    """urlset, index, text, feed or unknown; None when not read."""
    entries: int | None
    other_origins: int
    """Entries of origins it may not list, ignored (S2)."""
    truncated: bool
    """More than 50,000 entries or 50 MB: the rest was not read (S2)."""
    problems: tuple[str, ...]
    fetched_at: datetime | None

    @property
    def failed(self) -> bool:
        """Fetched, and nothing could be read from it."""
        return self.outcome == "failed"


@dataclass(frozen=True, slots=True)
class SitemapListing:
    """A sitemap that lists a URL: the sitemap, the entry's line and its lastmod."""

    sitemap: str
    line: int | None
    lastmod: datetime | None
    lastmod_text: str | None

    @property
    def where(self) -> str:
        """``line N`` ("" when the line is not known)."""
        return "" if self.line is None else f"line {self.line}"


@dataclass(frozen=True, slots=True)
class ListedProblem:
    """A URL a sitemap lists that should not be listed as it is (S4); a URL with several
    problems has one of these per problem."""

    url: str
    problem: str
    """A key of ``LISTED_PROBLEMS``."""
    status: int | None
    detail: str
    """What is wrong: the status or error, the redirect's target, the deciding robots.txt line,
    the scope rule, the page's canonical URL."""
    listed_in: tuple[SitemapListing, ...]

    @property
    def label(self) -> str:
        """The problem in words."""
        return LISTED_PROBLEMS.get(self.problem, self.problem)


@dataclass(frozen=True, slots=True)
class MissingPage:
    """An indexable page, on an origin with a sitemap read, that no sitemap lists."""

    url: str
    origin: str
    found_on: str | None
    """The page it was found on; None for a seed."""


@dataclass(frozen=True, slots=True)
class OrphanUrl:
    """A URL a sitemap lists that no crawled page links to."""

    url: str
    state: str
    status: int | None
    listed_in: tuple[SitemapListing, ...]


@dataclass(frozen=True, slots=True)
class LastmodProblem:
    """A sitemap entry whose lastmod cannot be right: after the sitemap was read, or not a
    W3C date (S3: such a lastmod never spares a fetch)."""

    url: str
    problem: str
    """A key of ``LASTMOD_PROBLEMS``."""
    lastmod_text: str | None
    lastmod: datetime | None
    sitemap: str
    line: int | None
    sitemap_fetched_at: datetime | None

    @property
    def label(self) -> str:
        """The problem in words."""
        return LASTMOD_PROBLEMS.get(self.problem, self.problem)


@dataclass(frozen=True, slots=True)
class SitemapAudit:
    """The sitemaps of a crawl against the crawl (S4). All empty when the crawl read none."""

    sitemaps: tuple[SitemapRead, ...] = ()
    listed_problems: tuple[ListedProblem, ...] = ()
    missing: tuple[MissingPage, ...] = ()
    """Pages missing from every sitemap (only on origins with a sitemap read with entries)."""
    orphans: tuple[OrphanUrl, ...] = ()
    lastmod_problems: tuple[LastmodProblem, ...] = ()
    skipped_unchanged: int = 0
    """Fetches a recrawl pass spared because the sitemap's lastmod was not newer (S3)."""

    @property
    def unread(self) -> tuple[SitemapRead, ...]:
        """The sitemaps that failed or were refused (robots.txt, scope)."""
        return tuple(item for item in self.sitemaps if item.outcome in ("failed", "not fetched"))

    @property
    def counts(self) -> dict[str, int]:
        """Sitemaps, then findings per kind."""
        return {
            "sitemaps": len(self.sitemaps),
            "unread": len(self.unread),
            "listed_problems": len(self.listed_problems),
            "missing": len(self.missing),
            "orphans": len(self.orphans),
            "lastmod_problems": len(self.lastmod_problems),
            "skipped_unchanged": self.skipped_unchanged,
        }
