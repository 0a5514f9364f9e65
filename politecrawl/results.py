"""What a crawl hands to its consumers: ``Page``, ``Excluded`` and ``CrawlSummary`` [T5]."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING

from politecrawl.html import decode_body
from politecrawl.usage import NO_PREFERENCES, UsePreferences

if TYPE_CHECKING:
    from bs4 import BeautifulSoup


@dataclass(frozen=True, slots=True)
class Page:
    """A fetched URL. ``indexable`` is False for noindex pages, errors (T5) and pages refusing
    the crawl's purpose (U5): only indexable pages are content a consumer may index or use;
    every page is reported for maintenance reports."""

    url: str
    status: int | None
    depth: int
    fetched_at: datetime
    elapsed_seconds: float
    headers: tuple[tuple[str, str], ...] = ()
    body: bytes = b""
    content_type: str | None = None
    final_url: str | None = None
    """For a redirect, where it leads (the target is crawled as its own URL, C4)."""
    title: str | None = None
    index: bool = True
    """No noindex from META robots or X-Robots-Tag (T1-T4)."""
    follow: bool = True
    """No nofollow: its links were followed (T5)."""
    links: tuple[str, ...] = ()
    """The links found on the page (absolute, canonical), followed or not."""
    truncated: bool = False
    """The body was cut at the size limit (C7)."""
    error: str | None = None
    directive_sources: tuple[str, ...] = ()
    """Which META tags and headers set noindex/nofollow, for people."""
    use_preferences: UsePreferences = NO_PREFERENCES
    """The use-preference signals that applied when it was fetched, each with its source:
    robots.txt lines, tdmrep.json rules, its own headers and metas (U6). ``verdict(use)``
    combines them for a use (U4)."""
    refused: bool = False
    """They refuse the crawl's purpose (U5): recorded, never indexable."""

    @property
    def ok(self) -> bool:
        """A 2xx answer without an error."""
        return self.error is None and self.status is not None and 200 <= self.status < 300

    @property
    def indexable(self) -> bool:
        """Content a consumer may index: a 2xx page without noindex (T5) whose signals do not
        refuse the crawl's purpose (U5)."""
        return self.ok and self.index and not self.refused

    @property
    def text(self) -> str:
        """The body decoded as a browser would: its byte-order mark, the charset of its
        Content-Type, a ``<meta charset>``, UTF-8 when it is valid UTF-8, else windows-1252."""
        return decode_body(self.body, self.content_type)

    def soup(self) -> BeautifulSoup:
        """A BeautifulSoup (lxml) of the body, built now: the crawl itself never builds one."""
        from bs4 import BeautifulSoup  # noqa: PLC0415 (only for users who ask)

        return BeautifulSoup(self.text, "lxml")

    def header(self, name: str) -> str | None:
        """A response header, case-insensitively; repeated headers joined with ", "."""
        values = [value for key, value in self.headers if key.lower() == name.lower()]
        return ", ".join(values) if values else None


@dataclass(frozen=True, slots=True)
class Excluded:
    """A URL the crawl will not fetch, and why (robots.txt, scope, trap guard, deferral)."""

    url: str
    state: str
    reason: str
    detail: dict[str, object] = field(default_factory=dict)


@dataclass(slots=True)
class CrawlSummary:
    """What one run did, counted as it went, plus the frontier's state at the end."""

    pages: int = 0
    indexable: int = 0
    noindex: int = 0
    nofollow: int = 0
    errors: int = 0
    redirects: int = 0
    excluded_by_robots: int = 0
    excluded_by_preferences: int = 0
    """URLs not fetched because robots.txt or tdmrep.json refuse the crawl's purpose (U5)."""
    refused: int = 0
    """Pages fetched whose own headers or metas refuse the crawl's purpose (U5)."""
    out_of_scope: int = 0
    robots_fetches: int = 0
    sitemaps: int = 0
    """Sitemaps read this run: fetched with a 2xx answer (S1; not pages, not in ``pages``)."""
    sitemap_skips: int = 0
    """Pages a recrawl did not request because their sitemap says they are unchanged (S3)."""
    checks: int = 0
    """Links and resources checked this run (L1-L3; not pages, not in ``pages``)."""
    broken_checks: int = 0
    """... of which broken: 4xx, 5xx after the retries, no answer."""
    deferred: int = 0
    """URLs left deferred at the end (unreachable robots.txt, Retry-After, Crawl-delay cap)."""
    queued: int = 0
    """URLs still queued at the end (a limit or a stop ended the run)."""
    failed: int = 0
    """URLs whose fetch failed for good (network errors, 5xx after the retries), in the crawl."""
    done: int = 0
    """URLs fetched in the crawl's current pass, by this run and the ones before it."""
    duration_seconds: float = 0.0
    stopped_because: str = ""
    """"finished", "only deferred work left", "max_pages", "max_duration", "stopped"."""

    def count_page(self, page: Page) -> None:
        """Count a fetched URL (errors, redirects, indexable, noindex, nofollow)."""
        if page.error is not None or page.status is None or page.status >= 400:
            self.errors += 1
        if page.final_url is not None and page.status is not None and 300 <= page.status < 400:
            self.redirects += 1
        if page.indexable:
            self.indexable += 1
        if page.ok and not page.index:
            self.noindex += 1
        if page.ok and not page.follow:
            self.nofollow += 1
        if page.ok and page.refused:
            self.refused += 1

    def count_excluded(self, excluded: Excluded) -> None:
        """Count a URL the crawl decided not to fetch."""
        if excluded.reason == "robots":
            self.excluded_by_robots += 1
        elif excluded.reason == "use-preference":
            self.excluded_by_preferences += 1
        elif excluded.state == "out_of_scope":
            self.out_of_scope += 1

    @property
    def already_finished(self) -> bool:
        """This run found the crawl finished before it began: nothing was left to fetch (a
        new pass, ``Crawler.recrawl()``, revisits it)."""
        return (
            self.pages == 0
            and self.done > 0
            and self.stopped_because == "finished"
            and not (self.queued or self.deferred)
        )

    def as_dict(self) -> dict[str, object]:
        """The counters, for storage with the run and for JSON output."""
        return {name: getattr(self, name) for name in self.__slots__}
