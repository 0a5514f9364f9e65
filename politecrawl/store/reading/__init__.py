"""What the reports ask the crawl database: read-only questions, answered with frozen values.

The second public face of the store, beside ``politecrawl.store`` (which the crawl writes
through): ``politecrawl.report`` and the commands that print a crawl's state import their
questions from here and from no submodule (an import-linter contract checks it). Each module
answers one kind of question: ``pages`` (URLs, redirects, robots.txt of each origin, a URL's
history), ``sitemaps``, ``checks`` (link checking), ``passes`` (a recrawl pass beside the one
before), ``progress`` (how far a pass got), ``hosts`` (what each host waits for), ``timeline``
(the current pass's span, and its requests per host over time), ``servers`` (which host names
share a machine, P6), ``use_preferences`` (each
page's signals as fetched, per origin, and where a page contradicts its site, U6); ``values``
holds what they hand out, ``rows`` the one way a URL row becomes a ``UrlRow``, and
``link_targets`` the index the referrer questions need. Table rows never leave the package.
"""

from politecrawl.store.reading.checks import (
    broken_checks,
    check_counts,
    fragment_links,
    page_anchors,
    permanent_redirects,
    robots_forbidden_checks,
)
from politecrawl.store.reading.hosts import HostWait, host_waits
from politecrawl.store.reading.pages import (
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
from politecrawl.store.reading.passes import PassComparison, compare_passes
from politecrawl.store.reading.progress import carried_broken, carried_fragment_links, pass_state
from politecrawl.store.reading.servers import ServerHosts, server_of_host, shared_servers
from politecrawl.store.reading.sitemaps import (
    lastmod_problems,
    listed_problems,
    sitemap_entries_of,
    sitemap_orphans,
    sitemap_rows,
    sitemap_unchanged_count,
    unlisted_pages,
)
from politecrawl.store.reading.timeline import (
    CrawlSpan,
    HostActivity,
    RequestMark,
    RequestTimeline,
    crawl_span,
    request_timeline,
)
from politecrawl.store.reading.use_preferences import (
    OriginUseState,
    PageUse,
    SignalConflict,
    StatementCount,
    UseCount,
    origin_use_states,
    page_use,
    use_conflicts,
    use_page_counts,
    use_statements,
)
from politecrawl.store.reading.values import (
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

__all__ = [
    "CheckCounts",
    "CrawlSpan",
    "FragmentLink",
    "HostActivity",
    "HostWait",
    "ListedLastmod",
    "ListedUrl",
    "OriginRobots",
    "OriginUseState",
    "PageUse",
    "PassComparison",
    "PassState",
    "ReferredUrl",
    "ReferrerRow",
    "RequestMark",
    "RequestTimeline",
    "ServerHosts",
    "SignalConflict",
    "SitemapEntryRow",
    "SitemapRow",
    "StatementCount",
    "UrlHistory",
    "UrlRow",
    "UseCount",
    "broken_checks",
    "broken_urls",
    "carried_broken",
    "carried_fragment_links",
    "check_counts",
    "compare_passes",
    "crawl_span",
    "deferred_urls",
    "directive_pages",
    "fragment_links",
    "host_waits",
    "lastmod_problems",
    "listed_problems",
    "origin_robots",
    "origin_urls",
    "origin_use_states",
    "out_of_scope",
    "page_anchors",
    "page_use",
    "pass_state",
    "permanent_redirects",
    "redirect_rows",
    "request_timeline",
    "robots_body",
    "robots_exclusions",
    "robots_forbidden_checks",
    "rows_by_url",
    "server_of_host",
    "shared_servers",
    "sitemap_entries_of",
    "sitemap_orphans",
    "sitemap_rows",
    "sitemap_unchanged_count",
    "slow_pages",
    "state_counts",
    "unlisted_pages",
    "url_history",
    "use_conflicts",
    "use_page_counts",
    "use_statements",
]
