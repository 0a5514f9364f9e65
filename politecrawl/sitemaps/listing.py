"""Which sitemaps an origin has, and which of a sitemap's entries the crawl takes [S1, S2]. Pure.

``robots_sitemaps`` turns a robots.txt's ``Sitemap:`` lines into the sitemaps to read (or
``/sitemap.xml`` when it names none); ``read_listing`` turns a parsed sitemap into what the
frontier queues: page URLs (of a urlset, text file or feed) or more sitemaps (of an index),
canonical, each once. sitemaps.org's cross-submission rule decides what a sitemap may list: URLs
of its own origin, or of the origin whose robots.txt named it (which vouches for it); the rest
are counted and ignored.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from politecrawl.sitemaps.entries import ParsedSitemap
from politecrawl.urls import InvalidURL, canonicalize, split_canonical

SitemapSource = Literal["robots", "guess", "index"]


@dataclass(frozen=True, slots=True)
class SitemapSeed:
    """A sitemap to read: its canonical URL, why, and which origin vouches for it."""

    url: str
    source: SitemapSource
    for_origin: str
    """The origin whose robots.txt named it (for ``guess``, its own): it may list that
    origin's URLs besides its own."""
    nesting: int = 0
    """0 for a sitemap named by robots.txt or guessed; one more for each index above it."""


@dataclass(frozen=True, slots=True)
class ListedUrl:
    """A page URL a sitemap lists, canonical, with its ``lastmod`` as read and as written."""

    url: str
    lastmod: datetime | None
    lastmod_text: str | None
    line: int | None


@dataclass(frozen=True, slots=True)
class SitemapReading:
    """What the crawl takes from one sitemap file."""

    format: str
    pages: tuple[ListedUrl, ...]
    sitemaps: tuple[SitemapSeed, ...]
    """The sitemaps an index names, to be read in their turn."""
    entries: int
    """Entries read from the file, taken or not."""
    other_origins: int
    """Entries of an origin this sitemap may not list: ignored."""
    truncated: bool
    problems: tuple[str, ...]


def robots_sitemaps(
    origin: str, sitemap_lines: Iterable[str], *, guess: bool, limit: int
) -> list[SitemapSeed]:
    """The sitemaps of ``origin``: its robots.txt's ``Sitemap:`` URLs in file order (each once,
    at most ``limit``, those that are no URL dropped), else ``/sitemap.xml`` when ``guess``."""
    found: dict[str, SitemapSeed] = {}
    for line in sitemap_lines:
        if len(found) >= limit:
            break
        try:
            url = canonicalize(line)
        except InvalidURL:
            continue
        found.setdefault(url, SitemapSeed(url, "robots", origin))
    if not found and guess:
        url = canonicalize("/sitemap.xml", origin + "/")
        found[url] = SitemapSeed(url, "guess", origin)
    return list(found.values())


def read_listing(
    parsed: ParsedSitemap, sitemap: SitemapSeed, *, max_nesting: int
) -> SitemapReading:
    """What ``sitemap`` (as read into ``parsed``) gives the crawl."""
    own_origin, _ = split_canonical(sitemap.url)
    may_list = {own_origin, sitemap.for_origin}
    problems = [problem.describe() for problem in parsed.problems]
    pages: dict[str, ListedUrl] = {}
    children: dict[str, SitemapSeed] = {}
    other_origins = 0
    index_too_deep = parsed.kind == "index" and sitemap.nesting >= max_nesting
    if index_too_deep and parsed.entries:
        problems.append(
            f"a sitemap index {sitemap.nesting} levels below robots.txt: the "
            f"{len(parsed.entries)} sitemaps it names are not read (max_sitemap_nesting)"
        )
    for entry in parsed.entries:
        try:
            url = canonicalize(entry.url)
        except InvalidURL as error:
            where = f"line {entry.line}: " if entry.line else ""
            problems.append(f"{where}{entry.url!r} is not a URL to fetch ({error.reason})")
            continue
        if split_canonical(url)[0] not in may_list:
            other_origins += 1
            continue
        if parsed.kind == "index":
            if not index_too_deep:
                children.setdefault(
                    url, SitemapSeed(url, "index", sitemap.for_origin, sitemap.nesting + 1)
                )
        else:
            pages.setdefault(url, ListedUrl(url, entry.lastmod, entry.lastmod_text, entry.line))
    if other_origins:
        problems.append(
            f"{other_origins} URLs of other origins ignored (a sitemap lists only URLs of its "
            "own origin, or of the origin whose robots.txt names it)"
        )
    return SitemapReading(
        format=parsed.kind,
        pages=tuple(pages.values()),
        sitemaps=tuple(children.values()),
        entries=len(parsed.entries),
        other_origins=other_origins,
        truncated=parsed.truncated,
        problems=tuple(problems),
    )
