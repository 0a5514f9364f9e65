"""The maintenance report: a crawl database read back for people, assembled [C4, O3-O6, M6, T5].

``build_report(database, agent=...)`` reads the crawl database (through
``politecrawl.store``; this module never touches SQL) into a ``Report``: the sections on the
pages (``page_sections``: broken links with every page linking to them, redirect chains, each
origin's robots.txt outcome and the URLs on which the draft and RFC 9309 readings disagree, M6;
how far the current pass got, the crawl's span and its requests per host over time), and here
the sections that are one query each: URLs excluded by robots.txt with the deciding line, URLs
out of scope or caught by a trap guard (C1, C3), noindex and nofollow pages (T5), deferred
origins and URLs with why and until when (O6), slow pages; then the sitemap audit (S4,
``sitemaps``), the use preferences (U, ``use_preferences``) and the link checks (L1-L4,
``checks``). Sitemaps appear in the audit only, checks (links leaving the site, resources) in
the link checks only, never among the pages.
Render it with ``politecrawl.report.text`` (``render_text``, ``render_csv``, ``render_json``)
or ``politecrawl.report.html.render_html``; ``politecrawl.report.history`` tells one URL's
story for ``politecrawl why``.
"""

from __future__ import annotations

from politecrawl.report.checks import MAX_REDIRECTS, build_link_checks
from politecrawl.report.exclusions import as_text, robots_exclusion
from politecrawl.report.model import (
    DeferredOrigin,
    DeferredUrl,
    DirectivePage,
    Report,
    ScopeExclusion,
    SlowPage,
)
from politecrawl.report.page_sections import (
    broken_links,
    crawl_overview,
    pass_progress,
    redirect_chains,
    robots_sections,
    timeline,
)
from politecrawl.report.servers import build_shared_servers
from politecrawl.report.sitemaps import build_sitemap_audit
from politecrawl.report.use_preferences import build_use_report
from politecrawl.robots import RobotsLimits
from politecrawl.store import Database
from politecrawl.store.reading import (
    deferred_urls,
    directive_pages,
    origin_robots,
    out_of_scope,
    robots_exclusions,
    slow_pages,
    state_counts,
)

__all__ = ["build_report"]


def build_report(
    database: Database,
    *,
    agent: str,
    slow_seconds: float = 2.0,
    max_redirects: int = MAX_REDIRECTS,
    robots_limits: RobotsLimits | None = None,
    purpose: str = "none",
) -> Report:
    """Read the whole report out of ``database``; ``agent`` is the robot name whose robots.txt
    verdicts are compared, under ``robots_limits`` (the crawl's: O8 decides what a cut file
    allows); pages slower than ``slow_seconds`` are listed; ``purpose``: the crawl's (U5)."""
    origins = origin_robots(database)
    outcomes, disagreements = robots_sections(database, origins, agent, robots_limits)
    progress = pass_progress(database)
    # L5: while a recrawl pass is unfinished, what earlier passes found on the URLs it has not
    # settled yet stands (marked with their pass): its queued URLs hold no verdict of their own.
    carry = progress.number > 1 and bool(progress.queued or progress.leased or progress.deferred)
    return Report(
        agent=agent,
        database=database.target,
        slow_seconds=slow_seconds,
        totals=state_counts(database),
        broken_links=broken_links(database, carry=carry),
        redirect_chains=redirect_chains(database, max_redirects=max_redirects),
        robots_excluded=tuple(map(robots_exclusion, robots_exclusions(database))),
        out_of_scope=tuple(
            ScopeExclusion(
                row.url, row.reason or "scope", as_text(row.detail.get("rule")), row.discovered_from
            )
            for row in out_of_scope(database)
        ),
        directive_pages=tuple(
            DirectivePage(row.url, row.status, bool(row.noindex), bool(row.nofollow))
            for row in directive_pages(database)
        ),
        deferred_origins=tuple(
            DeferredOrigin(o.origin, o.reason or "", o.failures, o.retry_at, o.status, o.url_count)
            for o in origins
            if o.outcome == "deferred"
        ),
        deferred_urls=tuple(
            DeferredUrl(
                row.url, row.reason or "", row.next_attempt_at, row.detail, row.attempts, row.error
            )
            for row in deferred_urls(database)
        ),
        slow_pages=tuple(
            SlowPage(row.url, row.elapsed_seconds or 0.0, row.status, row.size_bytes)
            for row in slow_pages(database, min_seconds=slow_seconds)
        ),
        robots_outcomes=outcomes,
        disagreements=disagreements,
        sitemaps=build_sitemap_audit(database),
        use_preferences=build_use_report(database, purpose=purpose),
        checks=build_link_checks(database, max_redirects=max_redirects, carry=carry),
        progress=progress,
        overview=crawl_overview(database),
        timeline=timeline(database),
        shared_servers=build_shared_servers(database),
    )
