"""What a fetched response becomes: the values the frontier records of it, for a page, a
sitemap and a checked link [C4, T1-T7, S2, S4, L1-L4].

``PageReader.read`` parses a page once (title, META robots and X-Robots-Tag, links,
canonical, anchors) into the ``Page`` consumers see and the outcome and links the frontier
records;
``read_sitemap`` reads a sitemap's listing; ``outcome_of`` is what any response records;
``redirect_of`` decides a redirect's next hop (C4). No requests and no writes: ``visit``
fetches and paces (``failures`` when there is no usable answer), the worker records what it
returns; these describe.
"""

from __future__ import annotations

import dataclasses
import hashlib
from dataclasses import dataclass
from typing import TYPE_CHECKING

from politecrawl.directives import directives_of, robots_tags
from politecrawl.html import parse_html
from politecrawl.links import canonical_link, extract_links
from politecrawl.preferences.page import read_page_preferences
from politecrawl.results import Page
from politecrawl.robots.match import agent_name_token
from politecrawl.sitemaps import (
    SitemapLimits,
    SitemapReading,
    SitemapSeed,
    parse_sitemap,
    read_listing,
)
from politecrawl.store import FoundLink, Lease, ends
from politecrawl.usage import NO_PREFERENCES, UsePreferences, use_of_purpose

if TYPE_CHECKING:
    from datetime import datetime

    from politecrawl.config import CrawlConfig
    from politecrawl.fetch import FetchResult
    from politecrawl.usage import Signal


@dataclass(frozen=True, slots=True)
class PageReading:
    """A page as read: what consumers get, and what the frontier records and queues."""

    page: Page
    outcome: ends.PageOutcome
    links: tuple[FoundLink, ...]
    follow: bool
    """Its links may be followed (META robots, X-Robots-Tag: T1-T5)."""
    redirect_to: str | None


def redirect_of(
    result: FetchResult, *, hops: int, max_redirects: int
) -> tuple[str | None, str | None]:
    """``(target to queue, error)`` of a response: a redirect's next hop, or, a hop beyond
    ``max_redirects``, an error instead (C4); ``(None, None)`` for anything else."""
    if not (300 <= result.status < 400 and result.location):
        return None, None
    if hops >= max_redirects:
        return None, f"more than {max_redirects} redirects (C4)"
    return result.location, None


def outcome_of(
    result: FetchResult,
    error: str | None,
    *,
    noindex: bool = False,
    nofollow: bool = False,
    canonical_url: str | None = None,
    anchors: frozenset[str] | None = None,
    check_method: str | None = None,
    kind: str | None = None,
    use_signals: tuple[Signal, ...] | None = None,
    use_refused: bool | None = None,
) -> ends.PageOutcome:
    """What the frontier records of a response."""
    return ends.PageOutcome(
        status=result.status,
        final_url=result.location,
        content_type=result.content_type,
        etag=result.etag,
        last_modified=result.last_modified,
        content_hash=hashlib.sha256(result.body).hexdigest() if result.status < 300 else None,
        noindex=noindex,
        nofollow=nofollow,
        canonical_url=canonical_url,
        anchors=anchors,
        check_method=check_method,
        kind=kind,
        elapsed_seconds=result.elapsed_seconds,
        size_bytes=len(result.body),
        error=error,
        use_signals=use_signals,
        use_refused=use_refused,
    )


class PageReader:
    """Reads fetched pages for a crawl: what of its configuration every page needs, read once."""

    def __init__(self, config: CrawlConfig) -> None:
        checking = config.checking
        self.max_redirects = config.fetching.max_redirects
        self.honour_rel_nofollow = config.fetching.honour_rel_nofollow
        self.check_resources = checking.check_resources
        self.check_fragments = checking.check_fragments
        self.details = (
            checking.check_outbound or checking.check_resources or checking.check_fragments
        )
        self.token = agent_name_token(config.user_agent)
        """The robot's name token, which META robots and X-Robots-Tag name (T3, T4)."""
        self.purpose = use_of_purpose(config.crawl.purpose)

    def read(
        self,
        lease: Lease,
        result: FetchResult,
        finished: datetime,
        *,
        becomes: str | None = None,
        known: UsePreferences = NO_PREFERENCES,
    ) -> PageReading:
        """Parse a fetched page once and read what it says: directives (T1-T5), links with
        rel=nofollow (T6, T7), and, with link checking on, each link's text and line, the
        resources (L3) and anchors (L4); its use preferences, ``known`` (robots.txt's,
        tdmrep.json's) and its own headers' and metas' (U2, U6), and whether they refuse the
        crawl's purpose (U5: recorded as refused, never indexable; a 304 keeps what the page
        said when it was read). Its robots tags are read once, for its directives and its
        use preferences."""
        redirect_to, error = redirect_of(
            result, hops=lease.redirect_hops, max_redirects=self.max_redirects
        )
        parsed = (
            parse_html(result.body, content_type=result.content_type, details=self.details)
            if result.status < 300
            else None
        )
        headers = result.headers
        tags = robots_tags(parsed, headers, self.token)
        directives = directives_of(tags)
        said = read_page_preferences(parsed, headers, tags, known)
        purpose = self.purpose
        refused = purpose is not None and said.refuses(purpose)
        read_anew = result.status != 304
        links: tuple[FoundLink, ...] = ()
        canonical_url = None
        if parsed is not None:
            canonical_url = canonical_link(parsed, result.url)
            found = extract_links(
                parsed,
                result.url,
                honour_rel_nofollow=self.honour_rel_nofollow,
                with_fragments=self.check_fragments,
            )
            # Handed to the frontier as they are (a copy per link was a tenth of a page's time
            # on a site whose every page links to every section).
            check_resources = self.check_resources
            links = tuple(link for link in found if check_resources or not link.resource)
        outcome = outcome_of(
            result,
            error,
            noindex=not directives.index,
            nofollow=not directives.follow,
            canonical_url=canonical_url,
            anchors=parsed.anchors if parsed is not None and self.check_fragments else None,
            kind=becomes,
            use_signals=said.signals if read_anew else None,
            use_refused=refused if purpose is not None and read_anew else None,
        )
        page = Page(
            url=lease.url,
            status=result.status,
            depth=lease.depth,
            fetched_at=finished,
            elapsed_seconds=result.elapsed_seconds,
            headers=headers,
            body=result.body,
            content_type=result.content_type,
            final_url=result.location,
            title=parsed.title if parsed else None,
            index=directives.index,
            follow=directives.follow,
            links=tuple(link.url for link in links),
            truncated=result.truncated,
            error=error,
            directive_sources=directives.sources,
            use_preferences=said,
            refused=refused,
        )
        return PageReading(page, outcome, links, directives.follow, redirect_to)


def decision_record(lease: Lease, reading: PageReading) -> dict[str, object]:
    """What the crawl made of a page, for the WARC ``metadata`` record beside its response:
    depth, referrer, directives, links, a redirect's target, and its use preferences as seen
    at fetch time, each signal with its source (U6)."""
    page = reading.page
    return {
        "depth": lease.depth,
        "referrer": lease.referrer,
        "index": page.index,
        "follow": page.follow,
        "directive_sources": page.directive_sources,
        "links": [{"url": link.url, "nofollow": link.nofollow} for link in reading.links],
        "redirect_to": reading.redirect_to,
        "use_signals": [one.as_record() for one in page.use_preferences.signals],
        "use_refused": page.refused,
    }


def read_sitemap(
    result: FetchResult, sitemap: SitemapSeed, config: CrawlConfig, limits: SitemapLimits
) -> SitemapReading | None:
    """S2: what a fetched sitemap lists (None unless it answered 2xx); a body the fetch limit
    cut short is marked so."""
    if not 200 <= result.status < 300:
        return None
    parsed = parse_sitemap(result.body, content_type=result.content_type, limits=limits)
    reading = read_listing(parsed, sitemap, max_nesting=config.sitemaps.max_sitemap_nesting)
    if not result.truncated:
        return reading
    cut = f"cut off at {config.sitemaps.max_sitemap_bytes} bytes as fetched (C7)"
    return dataclasses.replace(reading, truncated=True, problems=(*reading.problems, cut))
