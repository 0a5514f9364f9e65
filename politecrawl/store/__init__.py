"""The crawl database: the only package that imports SQLAlchemy and Alembic [C5, C6, E1].

This module is the store's public boundary: every module outside ``politecrawl.store`` imports
from here and from no submodule (an import-linter contract in ``pyproject.toml`` checks it).

``open_database`` opens (creating or upgrading) a SQLite file or a PostgreSQL database;
``Frontier`` schedules, leases and records URLs on it; ``RobotsOutcomeStore`` keeps each
origin's robots.txt outcome; ``start_run``/``finish_run``/``last_config`` record crawl runs;
``host_waits`` says what each host waits for; ``server_advice`` what to tell the user about the
database server; ``compare_passes`` sets a recrawl pass beside the one before, ``pass_state``
says how far the current pass got. The read-only
queries of the report (``state_counts``, ``broken_urls``, ..., ``sitemap_rows``, ...,
``check_counts``, ...) hand out the values of ``reading_types`` (``UrlRow``, ``ReferrerRow``,
...). Values crossing this boundary are frozen dataclasses; table rows never leave the package.
"""

from politecrawl.store.check_reading import (
    broken_checks,
    check_counts,
    fragment_links,
    page_anchors,
    permanent_redirects,
    robots_forbidden_checks,
)
from politecrawl.store.database import (
    Database,
    DatabaseSettings,
    is_database_error,
    open_database,
    schema_head,
    upgrade_database,
)
from politecrawl.store.frontier import Frontier
from politecrawl.store.frontier_types import (
    AddResult,
    Completion,
    FoundLink,
    FrontierStats,
    HostPaceRecord,
    Lease,
    LeaseEnd,
    LinkOut,
    OriginDeferral,
    PageOutcome,
    Wait,
    worker_id,
)
from politecrawl.store.hosts import HostWait, host_waits
from politecrawl.store.link_targets import drop_link_target_index, ensure_link_target_index
from politecrawl.store.pass_reading import carried_broken, carried_fragment_links, pass_state
from politecrawl.store.passes import PassComparison, compare_passes
from politecrawl.store.reading import (
    broken_urls,
    deferred_urls,
    directive_pages,
    origin_robots,
    origin_urls,
    out_of_scope,
    redirect_rows,
    robots_body,
    robots_exclusions,
    rows_by_url,
    slow_pages,
    state_counts,
    url_history,
)
from politecrawl.store.reading_types import (
    CheckCounts,
    FragmentLink,
    ListedLastmod,
    ListedUrl,
    OriginRobots,
    PassState,
    ReferredUrl,
    ReferrerRow,
    SitemapEntryRow,
    SitemapRow,
    UrlHistory,
    UrlRow,
)
from politecrawl.store.robots_outcomes import RobotsOutcomeStore
from politecrawl.store.runs import finish_run, last_config, start_run
from politecrawl.store.schema import CHECK, PAGE, SITEMAP
from politecrawl.store.server_settings import server_advice
from politecrawl.store.sitemap_reading import (
    lastmod_problems,
    listed_problems,
    sitemap_entries_of,
    sitemap_orphans,
    sitemap_rows,
    sitemap_unchanged_count,
    unlisted_pages,
)

__all__ = [
    "CHECK",
    "PAGE",
    "SITEMAP",
    "AddResult",
    "CheckCounts",
    "Completion",
    "Database",
    "DatabaseSettings",
    "FoundLink",
    "FragmentLink",
    "Frontier",
    "FrontierStats",
    "HostPaceRecord",
    "HostWait",
    "Lease",
    "LeaseEnd",
    "LinkOut",
    "ListedLastmod",
    "ListedUrl",
    "OriginDeferral",
    "OriginRobots",
    "PageOutcome",
    "PassComparison",
    "PassState",
    "ReferredUrl",
    "ReferrerRow",
    "RobotsOutcomeStore",
    "SitemapEntryRow",
    "SitemapRow",
    "UrlHistory",
    "UrlRow",
    "Wait",
    "broken_checks",
    "broken_urls",
    "carried_broken",
    "carried_fragment_links",
    "check_counts",
    "compare_passes",
    "deferred_urls",
    "directive_pages",
    "drop_link_target_index",
    "ensure_link_target_index",
    "finish_run",
    "fragment_links",
    "host_waits",
    "is_database_error",
    "last_config",
    "lastmod_problems",
    "listed_problems",
    "open_database",
    "origin_robots",
    "origin_urls",
    "out_of_scope",
    "page_anchors",
    "pass_state",
    "permanent_redirects",
    "redirect_rows",
    "robots_body",
    "robots_exclusions",
    "robots_forbidden_checks",
    "rows_by_url",
    "schema_head",
    "server_advice",
    "sitemap_entries_of",
    "sitemap_orphans",
    "sitemap_rows",
    "sitemap_unchanged_count",
    "slow_pages",
    "start_run",
    "state_counts",
    "unlisted_pages",
    "upgrade_database",
    "url_history",
    "worker_id",
]
