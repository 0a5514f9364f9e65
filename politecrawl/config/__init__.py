"""Crawl settings: the groups (``groups``) and where their values come from (``loader``).

``from politecrawl.config import CrawlConfig`` is the library's way in; the loader (flags,
environment, TOML file, stored run) is imported from ``politecrawl.config.loader`` by the front
ends that need it.
"""

from politecrawl.config.groups import (
    GROUP_TYPES,
    GROUPS,
    SEMANTICS_CHOICES,
    TABLE_OF,
    ArchiveSettings,
    CheckingSettings,
    CrawlConfig,
    CrawlSettings,
    FetchingSettings,
    PolitenessSettings,
    RobotsSettings,
    ScopeMode,
    ScopeSettings,
    SitemapLastmod,
    SitemapSettings,
    StorageSettings,
    setting_types,
)
from politecrawl.errors import ConfigError  # its home is the error tree; here too, as always

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
