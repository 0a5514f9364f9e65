"""Sitemaps: reading the files sites publish to list their URLs [S1-S4, F6].

``parse_sitemap`` (pure) reads one file's bytes into entries within sitemaps.org's limits
(``SitemapReader``: the same, fed as the bytes arrive);
``robots_sitemaps`` names an origin's sitemaps and ``read_listing`` says what of a parsed file
the crawl takes (``listing``, pure).
"""

from politecrawl.sitemaps.entries import (
    ParsedSitemap,
    SitemapEntry,
    SitemapLimits,
    SitemapProblem,
    parse_lastmod,
)
from politecrawl.sitemaps.listing import (
    ListedUrl,
    SitemapReading,
    SitemapSeed,
    SitemapSource,
    read_listing,
    robots_sitemaps,
)
from politecrawl.sitemaps.parse import SitemapReader, parse_sitemap

__all__ = [
    "ListedUrl",
    "ParsedSitemap",
    "SitemapEntry",
    "SitemapLimits",
    "SitemapProblem",
    "SitemapReader",
    "SitemapReading",
    "SitemapSeed",
    "SitemapSource",
    "parse_lastmod",
    "parse_sitemap",
    "read_listing",
    "robots_sitemaps",
]
