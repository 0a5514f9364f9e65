"""What the questions of ``politecrawl.store.reading`` hand out: frozen values, never database
rows (STYLE 7)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any


@dataclass(frozen=True, slots=True)
class UrlRow:
    """One URL of the crawl: what became of it, and why when it was not fetched."""

    id: int
    url: str
    origin: str
    state: str
    depth: int
    status: int | None
    final_url: str | None
    content_type: str | None
    noindex: bool | None
    nofollow: bool | None
    attempts: int
    redirect_hops: int
    discovered_at: datetime
    discovered_from: str | None
    """The URL of the page (or redirect) it was found on; None for a seed."""
    fetched_at: datetime | None
    elapsed_seconds: float | None
    size_bytes: int | None
    error: str | None
    reason: str | None
    detail: Mapping[str, Any]
    """``reason_detail`` decoded: the deciding robots line, the scope rule, ... (empty if none)."""
    next_attempt_at: datetime | None
    kind: str = "page"
    """``page``; ``sitemap``: a URL read for the URLs it lists (S1); ``check``: a link leaving
    the site or a page resource, asked for its status only (L1-L3)."""
    canonical_url: str | None = None
    """The page's ``<link rel="canonical">``, when it names one (S4)."""
    check_method: str | None = None
    """For a check: ``HEAD``, or ``HEAD,GET`` when HEAD was refused (L2)."""


@dataclass(frozen=True, slots=True)
class ReferrerRow:
    """A page linking to a URL; ``nofollow`` when the link carried rel=nofollow or the page
    was nofollow (the link was recorded for reports but not followed, T5, T6)."""

    url: str
    nofollow: bool
    text: str | None = None
    """The link's text (an image's alt), as the crawl recorded it (L1)."""
    line: int | None = None
    """The line of the linking element in the page."""
    resource: bool = False
    """An image, stylesheet, script, frame or media source rather than a link (L3)."""
    redirect: bool = False
    """The "page" is a redirect (3xx) to the URL: no link a person wrote (C4)."""


@dataclass(frozen=True, slots=True)
class ReferredUrl:
    """A URL with every page linking to it: a page or a check that broke (answered status >= 400,
    or failed: network error, cut off, too many redirects), a check robots.txt forbids, a link
    target that redirects for good (L1-L3)."""

    row: UrlRow
    referrers: tuple[ReferrerRow, ...]
    from_pass: int | None = None
    """None: what the current pass found. Else the earlier pass whose verdict ``row`` holds
    (its state and status): the current pass has not settled the URL yet (``pass_reading``)."""


@dataclass(frozen=True, slots=True)
class FragmentLink:
    """A link to ``#fragment`` on a page that was fetched with its anchors recorded (L4)."""

    from_url: str
    target_id: int
    url: str
    """The page linked to (canonical, without the fragment)."""
    origin: str
    fragment: str
    """As written in the link, percent-decoded."""
    line: int | None
    from_pass: int | None = None
    """None: the page was fetched by the current pass. Else the earlier pass that fetched it
    last: the current pass has not settled it yet (``pass_reading``)."""


@dataclass(frozen=True, slots=True)
class PassState:
    """How far the crawl's current pass got: what waits, what a limit or robots.txt left out,
    and how the last run ended (L5: a check that is not complete is no pass)."""

    number: int
    queued: int
    leased: int
    deferred: int
    """URLs of every kind (pages, checks, sitemaps) in each waiting state."""
    limited: int
    """Pages a ``max_pages_per_host`` limit left out of the pass."""
    seeds_refused: int
    """Seeds robots.txt forbids: nothing behind them was crawled."""
    robots_unknown: tuple[str, ...]
    """Seed origins whose robots.txt outcome is not known (not fetched yet, or deferred, O6)."""
    last_outcome: str | None
    """How the last run ended (finished, max_pages, interrupted, ...); "": it has not ended
    (a crawl is running, or was killed); None: no run was recorded."""
    unchecked: tuple[UrlRow, ...]
    """Pages and checks still waiting, by URL: the first ``listed`` of them."""
    unchecked_total: int
    """Pages and checks still waiting, all of them."""


@dataclass(frozen=True, slots=True)
class CheckCounts:
    """How much link checking there was (L1-L4)."""

    checks: Mapping[str, int]
    """URLs of kind ``check`` per state (states with none left out)."""
    pages_fetched: int
    """Pages (kind ``page``) done or failed: the in-scope link targets checked by fetching."""
    fragment_links: int
    """``link_fragments`` rows: non-zero only when fragment checking was on."""


@dataclass(frozen=True, slots=True)
class OriginRobots:
    """An origin's robots.txt state as stored (O3-O7, E1-E4), and how many URLs it has."""

    id: int
    origin: str
    outcome: str | None
    """None until fetched; then parsed, allow_all, disallow_all or deferred."""
    status: int | None
    body: bytes | None
    """The robots.txt body when asked for (``with_body``), else None."""
    body_bytes: int | None
    """The stored body's size (None when there is none)."""
    reason: str | None
    fetched_at: datetime | None
    expires_at: datetime | None
    retry_at: datetime | None
    """When a deferred origin is tried again; None once its attempts ran out for the run (O6)."""
    failures: int
    etag: str | None
    last_modified: str | None
    url_count: int


@dataclass(frozen=True, slots=True)
class SitemapEntryRow:
    """One sitemap's entry for a URL: which sitemap, on which line, with which lastmod (S3)."""

    sitemap: str
    line: int | None
    lastmod: datetime | None
    lastmod_text: str | None
    """``lastmod`` as written; set with ``lastmod`` None when it was malformed."""
    sitemap_fetched_at: datetime | None
    """When the sitemap was read: a lastmod after it is in the future."""


@dataclass(frozen=True, slots=True)
class SitemapRow:
    """A URL read (or to be read) as a sitemap, and what reading it found (S1, S2)."""

    row: UrlRow
    source: str | None
    """robots, guess or index; None when the URL has no ``sitemaps`` row."""
    for_origin: str | None
    nesting: int
    format: str | None
    """urlset, index, text, feed or unknown; None until read."""
    entries: int | None
    """Entries read; None until read."""
    other_origins: int
    truncated: bool
    problems: tuple[str, ...]
    """What could not be read, ``line N: message`` where the line is known."""


@dataclass(frozen=True, slots=True)
class ListedUrl:
    """A page URL listed by at least one sitemap, with every sitemap entry for it (S4)."""

    row: UrlRow
    listings: tuple[SitemapEntryRow, ...]


@dataclass(frozen=True, slots=True)
class ListedLastmod:
    """A sitemap entry and the URL it lists, for the lastmod checks (S3, S4)."""

    url: str
    listing: SitemapEntryRow


@dataclass(frozen=True, slots=True)
class UrlHistory:
    """Everything the database knows about one URL, for ``politecrawl why``."""

    row: UrlRow
    referrers: tuple[ReferrerRow, ...]
    origin: OriginRobots | None
    listings: tuple[SitemapEntryRow, ...] = ()
    """The sitemaps listing it (a page), by sitemap URL."""
    sitemap: SitemapRow | None = None
    """What reading it as a sitemap found (a URL of kind ``sitemap``)."""
