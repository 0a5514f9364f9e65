"""Sitemaps: reading the files sites publish to list their URLs [S1-S4, F6].

``parse_sitemap`` (pure) reads one file's bytes into entries within sitemaps.org's limits.
"""

from politecrawl.sitemaps.parse import (
    ParsedSitemap,
    SitemapEntry,
    SitemapLimits,
    SitemapProblem,
    parse_lastmod,
    parse_sitemap,
)

__all__ = [
    "ParsedSitemap",
    "SitemapEntry",
    "SitemapLimits",
    "SitemapProblem",
    "parse_lastmod",
    "parse_sitemap",
]
