"""Crawl settings: the groups (``conduct``: who crawls, politeness, fetching, robots;
``coverage``: scope, sitemaps, checking, storage, archive; ``groups``: ``CrawlConfig`` over
them), where their values come from (``loader``) and the plain values robots.txt reading takes
(``robots_values``).

``from politecrawl.config import CrawlConfig`` is the library's way in; the loader (flags,
environment, TOML file, stored run) is imported from ``politecrawl.config.loader`` by the front
ends that need it. The names below are loaded on first use: ``politecrawl.robots`` takes its
values from ``robots_values`` and so stays light (the groups are not loaded with it).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from politecrawl.config.conduct import (
        CrawlSettings,
        FetchingSettings,
        PolitenessSettings,
        RobotsSettings,
    )
    from politecrawl.config.coverage import (
        ArchiveSettings,
        CheckingSettings,
        ScopeMode,
        ScopeSettings,
        SitemapLastmod,
        SitemapSettings,
        StorageSettings,
    )
    from politecrawl.config.groups import (
        GROUP_TYPES,
        GROUPS,
        SEMANTICS_CHOICES,
        TABLE_OF,
        CrawlConfig,
        setting_types,
    )
    from politecrawl.errors import ConfigError  # its home is the error tree; here as always

__all__ = [
    "GROUPS",
    "GROUP_TYPES",
    "SEMANTICS_CHOICES",
    "TABLE_OF",
    "ArchiveSettings",
    "CheckingSettings",
    "ConfigError",
    "CrawlConfig",
    "CrawlSettings",
    "FetchingSettings",
    "PolitenessSettings",
    "RobotsSettings",
    "ScopeMode",
    "ScopeSettings",
    "SitemapLastmod",
    "SitemapSettings",
    "StorageSettings",
    "setting_types",
]


_HOMES = ("politecrawl.config.groups", "politecrawl.config.conduct", "politecrawl.config.coverage")
"""Where the names live: ``groups`` first, as importing it loads the other two."""


def __getattr__(name: str) -> Any:
    if name not in __all__:
        raise AttributeError(f"module 'politecrawl.config' has no attribute {name!r}")
    if name == "ConfigError":
        value = importlib.import_module("politecrawl.errors").ConfigError
    else:
        homes = map(importlib.import_module, _HOMES)
        value = next(getattr(home, name) for home in homes if name in home.__all__)
    globals()[name] = value  # found once, then an ordinary attribute
    return value
