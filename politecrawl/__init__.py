"""politecrawl: a robots-aware, polite, resumable web crawler framework.

    from politecrawl import Crawler, CrawlConfig

    with Crawler(CrawlConfig(agent="examplebot", contact="https://example.org/bot")) as crawler:
        crawler.add_seeds(["https://example.org/"])
        for page in crawler.crawl():
            if page.indexable:
                ...

The errors a caller catches are here too, the tree of ``politecrawl.errors``: catch
``PolitecrawlError`` for all of them, ``UserInputError`` (``ConfigError``, ``InvalidURL``) for a
person's mistake. Stable entry points besides these: ``politecrawl.robots.parse_robots`` and
``politecrawl.directives.page_directives``. The crawl machinery is imported on first use, so
that ``politecrawl.robots`` alone stays light.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from politecrawl._version import VERSION

if TYPE_CHECKING:
    from politecrawl.config import CrawlConfig
    from politecrawl.crawl.crawler import Crawler
    from politecrawl.errors import (
        ArchiveError,
        ConfigError,
        FetchError,
        InvalidURL,
        PolitecrawlError,
        StoreError,
        UserInputError,
    )
    from politecrawl.results import CrawlSummary, Excluded, Page

__version__ = VERSION

_LAZY = {
    "ArchiveError": "politecrawl.errors",
    "ConfigError": "politecrawl.errors",
    "CrawlConfig": "politecrawl.config",
    "CrawlSummary": "politecrawl.results",
    "Crawler": "politecrawl.crawl.crawler",
    "Excluded": "politecrawl.results",
    "FetchError": "politecrawl.errors",
    "InvalidURL": "politecrawl.errors",
    "Page": "politecrawl.results",
    "PolitecrawlError": "politecrawl.errors",
    "StoreError": "politecrawl.errors",
    "UserInputError": "politecrawl.errors",
}

__all__ = [
    "ArchiveError",
    "ConfigError",
    "CrawlConfig",
    "CrawlSummary",
    "Crawler",
    "Excluded",
    "FetchError",
    "InvalidURL",
    "Page",
    "PolitecrawlError",
    "StoreError",
    "UserInputError",
    "__version__",
]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'politecrawl' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
